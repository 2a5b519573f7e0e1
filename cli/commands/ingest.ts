import fs from "node:fs/promises";
import path from "node:path";
import type { DbHandle } from "@/db";
import { createExtractionPool } from "@/lib/ingest/extract-pool";
import { createIngestContext } from "@/lib/ingest/pipeline";
import type { IngestFileResult, IngestInput } from "@/lib/ingest/progress";
import { followBatch } from "@/lib/jobs/follow";
import { enqueueIngest } from "@/lib/jobs/ingest";
import { getJobQueue, type JobQueue } from "@/lib/jobs/queue";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { info, ProgressBar, printJson } from "../output";

/** Expands folders (recursively, *.pdf) and keeps explicitly named files whatever their extension. */
export async function collectInputs(args: string[]): Promise<{ inputs: IngestInput[]; missing: IngestFileResult[] }> {
  const files: string[] = [];
  const missing: IngestFileResult[] = [];
  async function walk(dir: string) {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && e.name.toLowerCase().endsWith(".pdf")) files.push(full);
    }
  }
  for (const arg of args) {
    try {
      const st = await fs.stat(arg);
      if (st.isDirectory()) await walk(arg);
      else files.push(arg);
    } catch {
      missing.push({
        file: arg,
        status: "error",
        paper_id: null,
        title: null,
        pages: 0,
        chunks: 0,
        error: "No such file or folder.",
        error_code: "not_found:file",
      });
    }
  }
  const inputs: IngestInput[] = [];
  for (const f of files) {
    const st = await fs.stat(f);
    inputs.push({ name: path.basename(f), size: st.size, read: async () => new Uint8Array(await fs.readFile(f)) });
  }
  // keep the full path for reporting while the pipeline sees the file name
  return { inputs: inputs.map((input, i) => ({ ...input, name: files[i] ?? input.name })), missing };
}

const STATUS_LABEL: Record<IngestFileResult["status"], string> = {
  ingested: "✓ ingested",
  replaced: "↻ replaced",
  unchanged: "= already in library",
  error: "✗ error",
};

export async function runIngest(handle: DbHandle, argv: string[], json: boolean): Promise<number> {
  const enqueueOnly = argv.includes("--enqueue-only");
  const unknown = argv.find((a) => a.startsWith("--") && a !== "--enqueue-only" && a !== "--json");
  if (unknown) {
    info(`Unknown option ${unknown}. usage: npm run cli -- ingest <files or folders...> [--enqueue-only] [--json]`);
    return 2;
  }
  const args = argv.filter((a) => !a.startsWith("--"));
  if (args.length === 0) {
    info("usage: npm run cli -- ingest <files or folders...> [--enqueue-only] [--json]");
    return 2;
  }
  const { inputs, missing } = await collectInputs(args);
  if (inputs.length === 0) {
    if (json) printJson({ results: missing });
    info("No PDF files found in the given paths.");
    return 1;
  }
  // PDF text extraction runs in worker threads (one for a single file)
  const pool = enqueueOnly ? null : createExtractionPool(Math.min(inputs.length, 2));
  const ctx = createIngestContext(handle, pool ? { extract: pool.extract } : {});
  const bar = new ProgressBar(inputs.length);
  const started = Date.now();
  let finished = 0;
  let results: IngestFileResult[] | null;
  let worker: Worker | null = null;
  let queue: JobQueue | null = null;
  try {
    queue = await getJobQueue(handle);
    // the files are queued as jobs, as an upload's are; this command then works them itself (with any worker
    // processes on the same database), unless --enqueue-only leaves them to those
    const batch = await enqueueIngest(handle, queue, ctx.storage, inputs, {
      actor: null,
      origin: "cli",
      maxUploadBytes: ctx.maxUploadBytes,
    });
    if (enqueueOnly) {
      if (json) printJson({ batch_id: batch.batchId, queued: batch.fileIds.length, missing });
      info(`${batch.fileIds.length} file(s) queued as batch ${batch.batchId}; \`npm run worker\` ingests them.`);
      return 0;
    }
    worker = await startWorker(handle, {
      concurrency: pool?.size ?? 1,
      ctx,
      pollingIntervalSeconds: 0.5,
      log: (line) => bar.log(line),
    });
    results = await followBatch(handle.db, batch.batchId, {
      intervalMs: 150,
      onEvent: (e) => {
        if (e.type === "file_stage") {
          const frac = e.of ? ` ${e.done ?? 0}/${e.of}` : "";
          bar.update(finished, `${path.basename(e.file)} · ${e.stage}${frac}`);
        } else if (e.type === "file_done") {
          const r = e.result;
          const detail =
            r.status === "error" ? r.error : `${r.paper_id} · ${r.pages} pages · ${r.chunks} chunks · ${r.title ?? ""}`;
          bar.log(`${STATUS_LABEL[r.status]}  ${r.file}  ${detail}`);
          bar.update(++finished, "");
        } else if (e.type === "library_stage") {
          const what = e.stage === "embedding" ? "offline vectors" : "vector neighbours";
          bar.update(finished, `${what} ${e.done}/${e.of}`);
        } else if (e.type === "library_done") {
          const parts: string[] = [];
          if (e.embedded > 0 || e.fitted) {
            parts.push(
              e.fitted
                ? `fitted the offline latent model to ${e.fittedPassages} of the library's ${e.passages} passages ` +
                    `(its reference lists left out): ${e.embedded} vectors`
                : `projected new passages on the latent model of the library's ${e.passages} passages: ` +
                    `${e.embedded} vectors`,
            );
          }
          if (e.neighbours > 0) parts.push(`hubness of ${e.neighbours} passages`);
          if (parts.length > 0) {
            const text = parts.join("; ");
            bar.log(`${text[0]?.toUpperCase()}${text.slice(1)} in ${(e.ms / 1000).toFixed(1)} s`);
          }
        } else if (e.type === "library_error") {
          bar.log(e.error);
        }
      },
    });
  } finally {
    await worker?.stop();
    await queue?.stop();
    await pool?.close();
  }
  bar.done();
  const all = [...missing, ...(results ?? [])];
  const count = (s: IngestFileResult["status"]) => all.filter((r) => r.status === s).length;
  info(
    `${all.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s: ${count("ingested")} ingested, ` +
      `${count("replaced")} replaced, ${count("unchanged")} unchanged, ${count("error")} errors`,
  );
  if (json) printJson({ results: all.map(({ title: _t, error_code: _c, ...r }) => r) });
  return 0;
}
