import fs from "node:fs";
import path from "node:path";
import { errorResponse, guardRoute } from "@/app/access";
import type { IngestStreamEvent } from "@/components/library/ingest-events";
import { INGEST_FILES_FIELD } from "@/components/library/ingest-events";
import { getDb } from "@/db";
import { consumeRateLimit, RATE_LIMITS } from "@/lib/auth/rate-limit";
import { isLecternError, toErrorResult } from "@/lib/errors";
import { getIngestContext } from "@/lib/ingest/pipeline";
import type { IngestInput } from "@/lib/ingest/progress";
import { submitIngest } from "@/lib/jobs/submit";
import { ndjsonResponse } from "../ndjson";
import { receiveFiles } from "./receive";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The web client sends one file per request; a few more are allowed for scripts. */
const MAX_FILES_PER_REQUEST = 20;

function jsonError(status: number, code: string, message: string): Response {
  return Response.json({ ok: false, error: { code, message } }, { status });
}

/**
 * `POST /api/ingest` (multipart/form-data, field `files`, one or more PDFs). The files are queued as jobs
 * (lib/jobs); the response follows their batch as NDJSON: one `IngestStreamEvent` per line as the workers report
 * progress, then `done`. Closing the connection stops the following, not the ingest (the library page shows it).
 */
export async function POST(request: Request): Promise<Response> {
  const user = await guardRoute(request, "library:write");
  if (user instanceof Response) return user;
  try {
    await consumeRateLimit(
      await getDb(),
      `upload:${user.id}`,
      RATE_LIMITS.upload,
      "You have uploaded many files in the last few minutes.",
    );
  } catch (e) {
    return errorResponse(e);
  }
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data")) {
    return jsonError(415, "bad_request:input", "Send the files as multipart/form-data.");
  }

  let ctx: Awaited<ReturnType<typeof getIngestContext>>;
  try {
    ctx = await getIngestContext();
  } catch (e) {
    return Response.json(toErrorResult(e), { status: isLecternError(e) ? e.status : 500 });
  }

  // A body larger than any sensible batch is refused before reading; the files' own limit is enforced as they stream.
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  const maxBody = ctx.maxUploadBytes * MAX_FILES_PER_REQUEST + 1024 * 1024;
  if (Number.isFinite(declared) && declared > maxBody) {
    return jsonError(413, "bad_request:file", "The upload is too large. Send fewer files at a time.");
  }

  const received = await receiveFiles(request, {
    field: INGEST_FILES_FIELD,
    dir: path.join(ctx.dataDir, "uploads"),
    maxFileBytes: ctx.maxUploadBytes,
    maxFiles: MAX_FILES_PER_REQUEST,
  });
  if (!received.ok) return jsonError(received.status, received.code, received.message);
  if (received.files.length === 0) return jsonError(400, "bad_request:input", "No files were sent.");

  const inputs: IngestInput[] = received.files.map((f) => ({
    name: f.name,
    // Known before reading, so the pipeline checks it first; the file is within the limit, so reading it is bounded.
    size: f.size,
    read: async () => {
      const bytes = await fs.promises.readFile(f.path);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength); // pdf.js wants no Buffer
    },
  }));

  return ndjsonResponse<IngestStreamEvent>(
    request,
    async (send, signal) => {
      const results = await submitIngest(inputs, {
        actor: user,
        origin: "web",
        signal,
        onEvent: send,
        onQueued: (batchId) => send({ type: "queued", batch_id: batchId }),
      });
      if (results) send({ type: "done", results });
    },
    received.cleanup,
  );
}
