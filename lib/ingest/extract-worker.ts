/**
 * Worker-thread side of the extraction pool: runs the same `extractPdf` as the main thread, off it.
 * Errors travel back as plain data ({ name, message, code }) and are rebuilt by the pool.
 */
import { parentPort } from "node:worker_threads";
import { isLecternError } from "@/lib/errors";
import { extractPdf } from "./extract";

interface Job {
  id: number;
  bytes: Uint8Array;
  batchSize?: number;
}

const port = parentPort;
if (!port) throw new Error("extract-worker must run in a worker thread");

port.on("message", async (job: Job) => {
  try {
    const result = await extractPdf(job.bytes, {
      batchSize: job.batchSize,
      onProgress: (done, total) => port.postMessage({ id: job.id, progress: [done, total] }),
    });
    port.postMessage({ id: job.id, ok: result });
  } catch (e) {
    const err = e as Error;
    port.postMessage({
      id: job.id,
      error: { name: err?.name, message: err?.message ?? String(e), code: isLecternError(e) ? e.code : undefined },
    });
  }
});
