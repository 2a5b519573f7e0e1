import fs from "node:fs";
import { Readable } from "node:stream";
import { getDb } from "@/db";
import { getPaper } from "@/db/queries/papers";
import { getEnv } from "@/lib/env";
import { isLecternError, userMessage } from "@/lib/errors";
import { resolveStoredPath } from "@/lib/ingest/storage";
import { parseRange } from "./range";

/**
 * Serving a paper's stored PDF, with byte ranges (pdf.js reads a large file a range at a time): the library's route
 * (`/api/papers/<id>/pdf`) and a share link's (`/s/<token>/papers/<id>/pdf`) decide who may read which paper, then
 * hand the paper id here.
 */

export interface StoredPdf {
  id: string;
  file: string;
  size: number;
}

export function textResponse(status: number, message: string, headers?: HeadersInit): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/** The stored file of a paper, found by id only: the path comes from the database, never from the request. */
export async function locatePaperPdf(paperId: string): Promise<StoredPdf | Response> {
  try {
    const paper = await getPaper(await getDb(), { id: paperId });
    if (!paper) return textResponse(404, "No such paper.");
    const file = resolveStoredPath(getEnv().dataDir, paper.filePath);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) return textResponse(404, "The paper's PDF file is missing from the data directory.");
    return { id: paper.id, file, size: stat.size };
  } catch (e) {
    if (!isLecternError(e)) console.error("[pdf]", e);
    return textResponse(isLecternError(e) ? e.status : 500, userMessage(e));
  }
}

function baseHeaders(id: string): Record<string, string> {
  // The file name in the header is ASCII-only; ids may hold other characters.
  const safeName = `${id.replace(/[^\w.-]+/g, "_")}.pdf`;
  return {
    "Content-Type": "application/pdf",
    "Accept-Ranges": "bytes",
    "Content-Disposition": `inline; filename="${safeName}"`,
    "Cache-Control": "private, max-age=0, must-revalidate",
    "X-Content-Type-Options": "nosniff",
  };
}

/** The PDF (GET) or its headers (HEAD): 200 whole, 206 for a satisfiable `Range`, 416 otherwise (RFC 9110 §14). */
export function pdfResponse(request: Request, pdf: StoredPdf, withBody: boolean): Response {
  const { id, file, size } = pdf;
  const headers = baseHeaders(id);
  const range = parseRange(request.headers.get("range"), size);

  if (range.kind === "unsatisfiable") {
    return textResponse(416, "Requested range not satisfiable.", {
      "Content-Range": `bytes */${size}`,
      "Accept-Ranges": "bytes",
    });
  }
  const start = range.kind === "partial" ? range.start : 0;
  const end = range.kind === "partial" ? range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  const status = range.kind === "partial" ? 206 : 200;
  if (range.kind === "partial") headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
  headers["Content-Length"] = String(length);

  if (!withBody || length === 0) return new Response(null, { status, headers });

  const nodeStream = fs.createReadStream(file, { start, end });
  // Stop reading when the client goes away (pdf.js cancels range requests it no longer needs).
  request.signal.addEventListener("abort", () => nodeStream.destroy(), { once: true });
  const body = Readable.toWeb(nodeStream) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
