import type { DbHandle } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { getJobQueue, QUEUES } from "@/lib/jobs/queue";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { info, printJson } from "../output";

interface ReembedResult {
  chunks: number;
  summaryChunks: number;
  resized: boolean;
  hubness: number;
}

/**
 * `reembed [--enqueue-only]`: re-embeds the whole library with the configured embedder, as a library-reembed job —
 * worked by this command (with any `npm run worker` processes on the same database), or with --enqueue-only left to
 * those. Waits for the job's end and prints its outcome.
 */
export async function runReembed(handle: DbHandle, argv: string[], json: boolean): Promise<number> {
  const enqueueOnly = argv.includes("--enqueue-only");
  const unknown = argv.find((a) => a.startsWith("--") && a !== "--enqueue-only" && a !== "--json");
  if (unknown) {
    info(`Unknown option ${unknown}. usage: npm run cli -- reembed [--enqueue-only] [--json]`);
    return 2;
  }
  const embedder = getEmbeddingProvider(getEnv());
  info(`Re-embedding the library with ${embedder.kind} · ${embedder.model} · ${embedder.dimensions} dims`);
  const queue = await getJobQueue(handle);
  let worker: Worker | null = null;
  try {
    const id = await queue.boss.send(QUEUES.libraryReembed, {});
    if (!id) {
      // stately: one is waiting already; it re-embeds everything, so this ask is served by it
      info("A re-embedding is already waiting in the queue; it covers this one.");
      if (json) printJson({ queued: false });
      return 0;
    }
    if (enqueueOnly) {
      if (json) printJson({ job_id: id, queued: true });
      info(`Queued as job ${id}; \`npm run worker\` re-embeds the library.`);
      return 0;
    }
    worker = await startWorker(handle, { concurrency: 1, pollingIntervalSeconds: 0.5, log: (line) => info(line) });
    for (;;) {
      const job = await queue.boss.getJobById<Record<string, never>>(QUEUES.libraryReembed, id);
      if (!job) throw new Error(`The re-embedding job ${id} is gone from the queue.`);
      if (job.state === "completed") {
        const result = job.output as unknown as ReembedResult;
        if (json) {
          printJson({
            embedder: { kind: embedder.kind, model: embedder.model, dimensions: embedder.dimensions },
            ...result,
          });
        } else {
          info(
            `Re-embedded ${result.chunks} chunks and ${result.summaryChunks} summary passages` +
              `${result.resized ? " (vector columns resized)" : ""}; computed the hubness of ${result.hubness}.`,
          );
        }
        return 0;
      }
      if (job.state === "failed" || job.state === "cancelled") {
        const output = job.output as { message?: string } | null;
        info(`The re-embedding failed: ${output?.message ?? job.state}`);
        if (json) printJson({ error: { code: "internal:embedding", message: output?.message ?? job.state } });
        return 1;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await worker?.stop();
    await queue.stop();
  }
}
