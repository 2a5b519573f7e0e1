import type { DbHandle } from "@/db";
import { getEnv } from "@/lib/env";
import { startWorker, type Worker } from "./worker";

/** Kept on `globalThis`: Next.js bundles instrumentation and each route apart, each with its own copy of this module. */
const KEY = Symbol.for("lectern.inlineWorker");
const shared = globalThis as unknown as Record<symbol, Promise<Worker> | undefined>;

/**
 * The app process's own worker, when it works the queue (`LECTERN_WORKER=inline`, the default — the embedded
 * database always: one process holds it): started once, by the server's start or by the first upload after a start
 * that could not. Null when this instance leaves its jobs to `npm run worker` processes (`LECTERN_WORKER=off`).
 */
export function ensureInlineWorker(handle: DbHandle): Promise<Worker> | null {
  const env = getEnv();
  if (env.LECTERN_WORKER === "off" && handle.driver === "postgres") return null;
  let p = shared[KEY];
  if (!p) {
    p = startWorker(handle, {
      concurrency: env.LECTERN_WORKER_CONCURRENCY,
      log: (line) => console.log(`[lectern] ${line}`),
    });
    shared[KEY] = p;
    p.catch((e) => {
      console.error(`[lectern] the job worker did not start: ${(e as Error).message}`);
      if (shared[KEY] === p) shared[KEY] = undefined;
    });
  }
  return p;
}
