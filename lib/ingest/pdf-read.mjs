// PDF text reading with pdf.js (through pdf-parse), in plain JavaScript so the same file runs in the calling thread
// and as a worker thread's entry without a TypeScript loader: under `next start` the server's code is bundled and
// neither tsx nor lib/*.ts exist at run time, while this file is read from disk (lib/ingest/extract-pool.ts). Types:
// pdf-read.d.mts. The thread gets bytes and returns plain data; it never touches the database.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { constants, inflateSync } from "node:zlib";
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

/** The most a PDF's compressed streams other than images may expand to (text extraction never decodes images). */
export const INFLATE_LIMIT_MB = 256;

/**
 * Checks, before pdf.js reads the file, how far its Flate-compressed streams expand (images left out: reading text
 * never decodes them), and throws an error named `PdfBombException` past `limitBytes` in all. A 1 MB upload whose one
 * content stream inflates to 1 GiB took the server past 2.7 GB of memory inside pdf.js; this stops it after reading at
 * most the limit, in the reader's thread. Each stream is inflated with zlib up to what is left of the limit; a stream
 * zlib cannot read is left to pdf.js (which reports a corrupt file as before). Returns the bytes counted.
 */
export function checkInflatedSize(bytes, limitBytes = INFLATE_LIMIT_MB * 1024 * 1024) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buf.toString("latin1");
  const keyword = /stream\r?\n/g;
  let total = 0;
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    if (text.slice(Math.max(0, m.index - 3), m.index) === "end") continue;
    const start = m.index + m[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) break;
    keyword.lastIndex = end + 9;
    // the stream's dictionary: back to its object's "obj" keyword (at most 4 KB)
    const from = Math.max(0, m.index - 4096);
    const head = text.slice(from, m.index);
    const dict = head.slice(Math.max(0, head.lastIndexOf("obj")));
    if (!/\/(?:FlateDecode|Fl)\b/.test(dict) || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    try {
      const out = inflateSync(buf.subarray(start, end), {
        maxOutputLength: limitBytes - total + 1,
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      total += out.length;
    } catch (e) {
      if (e instanceof RangeError || e?.code === "ERR_BUFFER_TOO_LARGE") total = limitBytes + 1;
      // (else a stream zlib cannot read: pdf.js decides)
    }
    if (total > limitBytes) {
      const error = new Error(
        `its compressed content expands to more than ${Math.round(limitBytes / 1024 / 1024)} MB (a decompression bomb?)`,
      );
      error.name = "PdfBombException";
      throw error;
    }
  }
  return total;
}

/**
 * Reads a PDF's info dictionary and the text of every physical page (index 0 = page 1), in batches of pages so a PDF
 * with thousands of pages never has all its pdf.js page text in flight at once. pdf.js's errors are thrown as they
 * are (extract.ts maps them). The caller's bytes stay intact: pdf.js detaches the buffer it is given, so it gets a copy.
 */
export async function readPdf(bytes, opts = {}) {
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH));
  opts.signal?.throwIfAborted();
  checkInflatedSize(bytes, opts.inflateLimitBytes);
  // (`new Uint8Array` copies; a Buffer's `slice` would share the caller's bytes, which pdf.js then detaches)
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
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
