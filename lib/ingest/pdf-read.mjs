// PDF text reading with pdf.js (through pdf-parse), in plain JavaScript so the same file runs in the calling thread
// and as a worker thread's entry without a TypeScript loader: under `next start` the server's code is bundled and
// neither tsx nor lib/*.ts exist at run time, while this file is read from disk (lib/ingest/extract-pool.ts). Types:
// pdf-read.d.mts. The thread gets bytes and returns plain data; it never touches the database.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { PDFParse } from "pdf-parse";

const DEFAULT_BATCH = 50;
/** Pages per pdf.js call inside a batch; the event loop gets a turn after each (≈0.1-0.3 s of work for papers). */
const STEP = 10;

/** The info dictionary's plain values only (what crosses a thread boundary; pdf.js may add objects). */
function plainInfo(raw) {
  const out = {};
  if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw)) {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    }
  }
  return out;
}

/**
 * Reads a PDF's info dictionary and the text of every physical page (index 0 = page 1), in batches of pages so a PDF
 * with thousands of pages never has all its pdf.js page text in flight at once. pdf.js's errors are thrown as they
 * are (extract.ts maps them). The caller's bytes stay intact: pdf.js detaches the buffer it is given, so it gets a copy.
 */
export async function readPdf(bytes, opts = {}) {
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH));
  opts.signal?.throwIfAborted();
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    const infoResult = await parser.getInfo();
    const pageCount = infoResult.total;
    const pages = Array.from({ length: pageCount }, () => "");
    opts.onProgress?.(0, pageCount);
    for (let first = 1; first <= pageCount; first += batchSize) {
      const last = Math.min(pageCount, first + batchSize - 1);
      for (let from = first; from <= last; from += STEP) {
        opts.signal?.throwIfAborted();
        const to = Math.min(last, from + STEP - 1);
        // `first` + `last` together select the inclusive range first..last (pdf-parse 2 ParseParameters)
        const result = await parser.getText({ first: from, last: to, pageJoiner: "" });
        for (const page of result.pages) {
          if (page.num >= 1 && page.num <= pageCount) pages[page.num - 1] = page.text;
        }
        // pdf.js's in-process worker runs on promises alone: without this, timers and other requests would wait for
        // the whole document
        await new Promise((resolve) => setImmediate(resolve));
      }
      opts.onProgress?.(last, pageCount);
    }
    return { pageCount, info: plainInfo(infoResult.info), pages };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** The role a pool gives its threads (extract-pool.ts); imported anywhere else, this file only exports readPdf. */
export const PDF_READER_ROLE = "lectern-pdf-reader";

if (!isMainThread && parentPort && workerData?.role === PDF_READER_ROLE) {
  const port = parentPort;
  port.on("message", async (job) => {
    try {
      const result = await readPdf(job.bytes, {
        batchSize: job.batchSize,
        onProgress: (done, total) => port.postMessage({ id: job.id, progress: [done, total] }),
      });
      port.postMessage({ id: job.id, ok: result });
    } catch (e) {
      port.postMessage({
        id: job.id,
        error: { name: e instanceof Error ? e.name : "Error", message: e instanceof Error ? e.message : String(e) },
      });
    }
  });
}
