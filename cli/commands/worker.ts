import type { DbHandle } from "@/db";
import { getEnv } from "@/lib/env";
import { createExtractionPool } from "@/lib/ingest/extract-pool";
import { startWorker } from "@/lib/jobs/worker";
import { info, printJson } from "../output";

/**
 * `npm run worker` (`npm run cli -- worker`): works the job queue — uploads and CLI ingests queued from any
 * instance, the library step after them, the hourly storage sweep — until SIGINT or SIGTERM, then finishes the jobs
 * it is running (a job it cannot finish in time is taken again by another worker once its heartbeat stops).
 * PDF text extraction runs in worker threads. `--concurrency N` files at once (LECTERN_WORKER_CONCURRENCY).
 */
export async function runWorker(handle: DbHandle, argv: string[], json: boolean): Promise<number> {
  const at = argv.indexOf("--concurrency");
  const concurrency = at >= 0 ? Number(argv[at + 1]) : getEnv().LECTERN_WORKER_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    info("--concurrency takes a whole number from 1 to 16.");
    if (json) printJson({ error: { code: "bad_request:input", message: "--concurrency takes 1 to 16." } });
    return 2;
  }
  const pool = createExtractionPool(concurrency);
  const worker = await startWorker(handle, { concurrency, pool, log: (line) => info(`[worker] ${line}`) });
  info(
    `Worker ${process.pid} is working the job queue on ${handle.driver} (${handle.location}), ${concurrency} file(s) ` +
      "at once. Ctrl-C stops it after its running jobs.",
  );
  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  info(`${signal}: finishing the running jobs…`);
  await worker.stop({ timeoutMs: 60_000 });
  if (json) printJson({ stopped: signal, ...worker.stats });
  info(
    `Worker stopped: ${worker.stats.files} file job(s), ${worker.stats.librarySteps} library step(s), ` +
      `${worker.stats.sweeps} sweep(s).`,
  );
  return 0;
}
