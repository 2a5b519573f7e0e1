import fs from "node:fs";
import path from "node:path";
import { errorResponse, guardRoute } from "@/app/access";
import { receiveFiles } from "@/app/api/ingest/receive";
import { IMPORT_FILES_FIELD } from "@/components/library/source-events";
import { getDb } from "@/db";
import { consumeRateLimit, RATE_LIMITS } from "@/lib/auth/rate-limit";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { getIngestContext } from "@/lib/ingest/pipeline";
import { getWorkedQueue } from "@/lib/jobs/submit";
import { getArxivClient } from "@/lib/sources/arxiv";
import { MAX_BIBLIOGRAPHY_BYTES, parseBibliography } from "@/lib/sources/bibliography";
import { importBibliography } from "@/lib/sources/import";
import { uploadedResolver } from "@/lib/sources/import-files";
import { sourceRunResponse } from "../stream";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A bibliography and its PDFs in one request (a Zotero collection of a few hundred papers is still one upload). */
const MAX_FILES = 500;

/**
 * `POST /api/sources/import[?download_arxiv=1]` (multipart/form-data, field `files`): one bibliography (`.bib`, or CSL
 * `.json`) and the PDFs its entries name, matched by file name. Responds with NDJSON like `/api/sources/arxiv`. The
 * PDFs are copied into the store and ingested by jobs (arXiv downloads too); the received files are removed once the
 * response ends.
 */
export async function POST(request: Request): Promise<Response> {
  const user = await guardRoute(request, "library:write");
  if (user instanceof Response) return user;
  let cleanup: () => Promise<void> = async () => {};
  try {
    if (!request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data")) {
      throw new LecternError("bad_request:input", "Send the bibliography and its PDFs as multipart/form-data.");
    }
    await consumeRateLimit(
      await getDb(),
      `upload:${user.id}`,
      RATE_LIMITS.upload,
      "You have uploaded many files in the last few minutes.",
    );
    const ctx = await getIngestContext();
    const received = await receiveFiles(request, {
      field: IMPORT_FILES_FIELD,
      dir: path.join(ctx.dataDir, "uploads"),
      maxFileBytes: Math.max(ctx.maxUploadBytes, MAX_BIBLIOGRAPHY_BYTES),
      maxFiles: MAX_FILES,
    });
    if (!received.ok) throw new LecternError(received.code, received.message);
    cleanup = received.cleanup;
    const bibs = received.files.filter((f) => /\.(bib|json)$/i.test(f.name));
    if (bibs.length !== 1) {
      throw new LecternError(
        "bad_request:source",
        bibs.length === 0
          ? "Choose the bibliography (.bib or CSL .json) together with its PDFs."
          : "Choose one bibliography at a time.",
      );
    }
    const bibFile = bibs[0] as (typeof bibs)[number];
    if (bibFile.size > MAX_BIBLIOGRAPHY_BYTES)
      throw new LecternError("bad_request:source", "That bibliography is larger than 20 MB.");
    const bib = await parseBibliography(await fs.promises.readFile(bibFile.path, "utf8"), { signal: request.signal });
    const pdfs = received.files.filter((f) => f !== bibFile);
    const downloadArxiv = new URL(request.url).searchParams.get("download_arxiv") === "1";
    const arxiv = getArxivClient(getEnv());
    const queue = await getWorkedQueue();
    const done = cleanup;
    cleanup = async () => {};
    return sourceRunResponse(
      request,
      async ({ onProgress, signal }) =>
        (
          await importBibliography(
            bib,
            uploadedResolver(pdfs),
            { ctx, arxiv, queue },
            { downloadArxiv, onProgress, signal, actor: user },
          )
        ).results,
      done,
    );
  } catch (e) {
    await cleanup().catch(() => {});
    return errorResponse(e);
  }
}
