import { LecternError } from "@/lib/errors";
import type { ArxivClient } from "@/lib/sources/arxiv";
import { formatArxivRef, parseArxivRef } from "@/lib/sources/arxiv-ids";
import type { PdfDownload } from "./ingest";

/** Fetches a queued file's PDF (a download-file job), at most `maxBytes`. */
export type PdfDownloader = (
  download: PdfDownload,
  opts: { maxBytes: number; signal?: AbortSignal },
) => Promise<Uint8Array>;

/**
 * Downloads from arXiv through the process's client (its polite intervals and retries of 429/5xx answers). The id
 * comes from a row the app wrote after asking arXiv, and is checked again: only an arXiv id with its version is
 * fetched.
 */
export function arxivDownloader(client: Pick<ArxivClient, "downloadPdf">): PdfDownloader {
  return async (download, opts) => {
    const ref = download.source === "arxiv" ? parseArxivRef(download.id) : null;
    if (!ref || ref.version === undefined) {
      throw new LecternError("bad_request:source", `“${String(download.id)}” is not an arXiv id with its version.`);
    }
    return client.downloadPdf(formatArxivRef(ref), opts);
  };
}
