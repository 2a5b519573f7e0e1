import { getDb } from "@/db";
import { getPaper } from "@/db/queries/papers";
import { isLecternError, userMessage } from "@/lib/errors";
import { getPdfStorage, type PdfStorage } from "@/lib/storage";
import { parseRange } from "./range";

/**
 * Serving a paper's stored PDF, with byte ranges (pdf.js reads a large file a range at a time): the library's route
 * (`/api/papers/<id>/pdf`) and a share link's (`/s/<token>/papers/<id>/pdf`) decide who may read which paper, then
 * hand the paper id here. The bytes come from the configured PDF store (the data directory, or S3), a range at a time.
 */

export interface StoredPdf {
  id: string;
  /** The object's key in `storage` (the paper's `file_path`). */
  key: string;
  size: number;
  storage: PdfStorage;
}

export function textResponse(status: number, message: string, headers?: HeadersInit): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/**
 * The stored PDF of a paper, found by id only: the key comes from the database, never from the request. `storage`:
 * the configured store unless given (tests).
 */
export async function locatePaperPdf(paperId: string, given?: PdfStorage): Promise<StoredPdf | Response> {
  try {
    const storage = given ?? getPdfStorage();
    const paper = await getPaper(await getDb(), { id: paperId });
    if (!paper) return textResponse(404, "No such paper.");
    const stored = await storage.head(paper.filePath);
    if (!stored) return textResponse(404, "The paper's PDF is missing from the PDF store.");
    return { id: paper.id, key: paper.filePath, size: stored.size, storage };
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
export async function pdfResponse(request: Request, pdf: StoredPdf, withBody: boolean): Promise<Response> {
  const { id, key, size, storage } = pdf;
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

  // the client went away (pdf.js cancels range requests it no longer needs): nobody reads an answer, nothing failed
  const gone = () => textResponse(499, "The request was cancelled.");
  if (request.signal.aborted) return gone();
  try {
    // the signal stops the read when the client goes away
    const body = await storage.read(key, { range: { start, end }, signal: request.signal });
    return new Response(body, { status, headers });
  } catch (e) {
    if (request.signal.aborted) return gone();
    // removed since it was looked up, or the store failed: an answer, not a broken stream
    if (!isLecternError(e)) console.error("[pdf]", e);
    return textResponse(isLecternError(e) ? e.status : 500, userMessage(e));
  }
}
