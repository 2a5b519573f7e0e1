import os from "node:os";
import { Worker } from "node:worker_threads";
import { type ErrorCode, LecternError } from "@/lib/errors";
import type { ExtractOptions } from "./extract";
import type { ExtractedPdf } from "./types";

/**
 * Text extraction (pdf.js) is the slowest ingestion step and single-threaded. The pool runs it in worker threads so
 * several PDFs are read at once while the main thread chunks, embeds and saves. Used by the CLI and benchmarks, which
 * run in Node with tsx installed (the worker boots through tsx's loader); the web app extracts in-process.
 */
export interface ExtractionPool {
  size: number;
  extract(bytes: Uint8Array, opts?: ExtractOptions): Promise<ExtractedPdf>;
  close(): Promise<void>;
}

type Reply =
  | { id: number; progress: [number, number] }
  | { id: number; ok: ExtractedPdf }
  | { id: number; error: { name?: string; message: string; code?: ErrorCode } };

interface Pending {
  resolve(v: ExtractedPdf): void;
  reject(e: unknown): void;
  onProgress?: (done: number, total: number) => void;
}

export function createExtractionPool(
  size = Math.max(1, Math.min(2, os.availableParallelism?.() ?? 2)),
): ExtractionPool {
  const url = new URL("./extract-worker-boot.mjs", import.meta.url);
  const workers: { worker: Worker; busy: boolean }[] = [];
  const queue: { id: number; bytes: Uint8Array; opts?: ExtractOptions }[] = [];
  const pending = new Map<number, Pending & { slot: number }>();
  let nextId = 1;
  let closed = false;

  const spawn = (slot: number) => {
    const worker = new Worker(url);
    worker.unref();
    worker.on("message", (msg: Reply) => {
      const p = pending.get(msg.id);
      if (!p) return;
      if ("progress" in msg) return p.onProgress?.(msg.progress[0], msg.progress[1]);
      pending.delete(msg.id);
      const w = workers[slot];
      if (w) w.busy = false;
      if ("ok" in msg) p.resolve(msg.ok);
      else
        p.reject(
          msg.error.code
            ? new LecternError(msg.error.code, msg.error.message)
            : Object.assign(new Error(msg.error.message), { name: msg.error.name ?? "Error" }),
        );
      pump();
    });
    worker.on("error", (err) => {
      // a crashed worker fails its job (not the batch) and is replaced
      for (const [id, p] of pending) {
        if (p.slot !== slot) continue;
        pending.delete(id);
        p.reject(new LecternError("internal:pdf", `The PDF reader crashed: ${err.message}`, { cause: err }));
      }
      if (!closed) workers[slot] = { worker: spawn(slot), busy: false };
      pump();
    });
    return worker;
  };
  for (let i = 0; i < size; i++) workers.push({ worker: spawn(i), busy: false });

  function pump() {
    for (const [slot, w] of workers.entries()) {
      if (w.busy || queue.length === 0) continue;
      const job = queue.shift();
      if (!job) return;
      const p = pending.get(job.id);
      if (!p) continue;
      p.slot = slot;
      w.busy = true;
      w.worker.ref();
      // a copy is transferred: the caller keeps its bytes
      const copy = job.bytes.slice();
      w.worker.postMessage({ id: job.id, bytes: copy, batchSize: job.opts?.batchSize }, [copy.buffer]);
    }
    for (const w of workers) if (!w.busy) w.worker.unref();
  }

  return {
    size,
    extract(bytes, opts) {
      if (closed) return Promise.reject(new Error("extraction pool is closed"));
      opts?.signal?.throwIfAborted();
      const id = nextId++;
      return new Promise<ExtractedPdf>((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress: opts?.onProgress, slot: -1 });
        queue.push({ id, bytes, opts });
        pump();
      });
    },
    async close() {
      closed = true;
      await Promise.all(workers.map((w) => w.worker.terminate()));
    },
  };
}
