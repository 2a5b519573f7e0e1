import os from "node:os";
import { Worker } from "node:worker_threads";
import { briefError, LecternError } from "@/lib/errors";
import { threadScript } from "@/lib/thread-script";
import { type ExtractOptions, extractedOf, extractPdf, mapPdfError } from "./extract";
import { PDF_READER_ROLE, type RawPdf } from "./pdf-read.mjs";
import type { ExtractedPdf } from "./types";

/**
 * Text extraction (pdf.js) is the slowest ingestion step, single-threaded and synchronous for long stretches. The pool
 * runs it in worker threads so the calling thread's event loop stays free — the app's, when its in-process job worker
 * ingests (the embedded database) — and several PDFs are read at once while the caller chunks, embeds and saves.
 * The threads run lib/ingest/pdf-read.mjs, a plain JavaScript file read from disk: it needs no TypeScript loader, so
 * the same pool works under `next start` (bundled server code), tsx (CLI, worker, benchmarks) and vitest.
 */
export interface ExtractionPool {
  size: number;
  extract(bytes: Uint8Array, opts?: ExtractOptions): Promise<ExtractedPdf>;
  close(): Promise<void>;
}

type Reply =
  | { id: number; progress: [number, number] }
  | { id: number; ok: RawPdf }
  | { id: number; error: { name: string; message: string } };

interface Job {
  id: number;
  bytes: Uint8Array;
  opts?: ExtractOptions;
  resolve(v: ExtractedPdf): void;
  reject(e: unknown): void;
  /** The thread running it, once started. */
  slot: number;
  detach(): void;
}

const SCRIPT = "pdf-read.mjs";

/** Where the thread's script is (lib/thread-script.ts). */
export function pdfReaderScript(): string | null {
  return threadScript(import.meta.url, "lib/ingest", SCRIPT);
}

/** Threads by default: one per core, at most `max`. */
export function defaultPoolSize(max = 2): number {
  return Math.max(1, Math.min(max, os.availableParallelism?.() ?? 2));
}

export function createExtractionPool(size = defaultPoolSize()): ExtractionPool {
  const script = pdfReaderScript();
  if (!script) throw new Error(`the PDF reader's thread script (lib/ingest/${SCRIPT}) is missing`);
  const threads: { worker: Worker; job: Job | null }[] = [];
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;

  const settle = (job: Job) => {
    job.detach();
    const t = threads[job.slot];
    if (t && t.job === job) t.job = null;
  };

  const spawn = (slot: number): Worker => {
    // constructed out of the bundler's sight: Turbopack takes `new Worker(<computed path>)` for a worker entry matching
    // every file of the project (and fails the build); the script is run from disk as it is (pdfReaderScript)
    const worker: Worker = Reflect.construct(Worker, [script, { workerData: { role: PDF_READER_ROLE } }]);
    worker.unref();
    worker.on("message", (msg: Reply) => {
      const job = threads[slot]?.job;
      if (!job || job.id !== msg.id) return;
      if ("progress" in msg) return job.opts?.onProgress?.(msg.progress[0], msg.progress[1]);
      settle(job);
      if ("ok" in msg) job.resolve(extractedOf(msg.ok));
      else job.reject(mapPdfError(Object.assign(new Error(msg.error.message), { name: msg.error.name })));
      pump();
    });
    worker.on("error", (err) => replace(slot, worker, err));
    worker.on("exit", (code) => {
      if (!closed && threads[slot]?.worker === worker) replace(slot, worker, new Error(`exited with code ${code}`));
    });
    return worker;
  };

  /** A thread that crashed (or was stopped for an aborted job) fails its job only, and is replaced. */
  function replace(slot: number, worker: Worker, err: Error, reason?: unknown) {
    const t = threads[slot];
    if (!t || t.worker !== worker) return;
    const job = t.job;
    t.job = null;
    if (!closed) t.worker = spawn(slot);
    void worker.terminate().catch(() => {});
    if (job) {
      job.detach();
      job.reject(
        reason ?? new LecternError("internal:pdf", `The PDF reader crashed: ${briefError(err)}`, { cause: err }),
      );
    }
    pump();
  }

  function pump() {
    for (const [slot, t] of threads.entries()) {
      if (t.job || waiting.length === 0) continue;
      const job = waiting.shift() as Job;
      job.slot = slot;
      t.job = job;
      t.worker.ref();
      // a copy is transferred: the caller keeps its bytes (`new Uint8Array` copies; a Buffer's `slice` would share
      // them, and the transfer would detach the caller's)
      const copy = new Uint8Array(job.bytes);
      t.worker.postMessage({ id: job.id, bytes: copy, batchSize: job.opts?.batchSize }, [copy.buffer]);
    }
    // idle threads do not keep the process alive
    for (const t of threads) if (!t.job) t.worker.unref();
  }

  for (let i = 0; i < size; i++) threads.push({ worker: null as unknown as Worker, job: null });
  for (let i = 0; i < size; i++) (threads[i] as { worker: Worker }).worker = spawn(i);

  return {
    size,
    extract(bytes, opts) {
      if (closed) return Promise.reject(new Error("extraction pool is closed"));
      const signal = opts?.signal;
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<ExtractedPdf>((resolve, reject) => {
        const job: Job = { id: nextId++, bytes, opts, resolve, reject, slot: -1, detach: () => {} };
        if (signal) {
          // an aborted job leaves the queue, or its thread is stopped (pdf.js cannot be interrupted) and replaced
          const onAbort = () => {
            const at = waiting.indexOf(job);
            if (at >= 0) {
              waiting.splice(at, 1);
              reject(signal.reason);
              return;
            }
            const t = threads[job.slot];
            if (t?.job === job) replace(job.slot, t.worker, new Error("aborted"), signal.reason);
          };
          signal.addEventListener("abort", onAbort, { once: true });
          job.detach = () => signal.removeEventListener("abort", onAbort);
        }
        waiting.push(job);
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new Error("extraction pool is closed"));
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

/** Kept on `globalThis`: Next.js bundles instrumentation and each route apart, each with its own copy of this module. */
const SHARED_KEY = Symbol.for("lectern.extractionPool");
const shared = globalThis as unknown as Record<symbol, ExtractionPool | undefined>;

/**
 * The process's pool (the app server's in-process job worker): `size` threads (at most the cores), made on first use.
 * Should threads be unavailable (the script missing from a deployment), extraction runs in this thread, said once in
 * the log — ingestion keeps working, with the event loop held during each PDF.
 */
export function getSharedExtractionPool(size: number): ExtractionPool {
  let pool = shared[SHARED_KEY];
  if (!pool) {
    try {
      pool = createExtractionPool(defaultPoolSize(size));
    } catch (e) {
      console.error(`[ingest] PDF extraction runs on the main thread: ${briefError(e)}`);
      pool = { size: 1, extract: extractPdf, close: async () => {} };
    }
    shared[SHARED_KEY] = pool;
  }
  return pool;
}
