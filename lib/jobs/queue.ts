import { fromPglite, type Job, type Request as JobRequest, PgBoss, type SendOptions } from "pg-boss";
import type { DbHandle } from "@/db";
import { getEnv } from "@/lib/env";

/**
 * The job queue: pg-boss, on the library's own database — PostgreSQL (a pool of its own, its tables in the `pgboss`
 * schema) or the embedded PGlite (through pg-boss's PGlite adapter, on the same instance). Chosen over
 * graphile-worker because it runs on both: graphile-worker needs a `pg` pool, so the embedded default would have had
 * a second queue of its own. docs/architecture.md "Jobs".
 */

export const QUEUES = {
  /** One uploaded file: extract → chunk → summarise → embed → save. */
  ingestFile: "ingest-file",
  /** One PDF to fetch (from arXiv) into the store; then its ingest-file job is sent. Retried with backoff. */
  downloadFile: "download-file",
  /** The library step (vectors, hubness, …) for every batch whose files are done; one at a time, one waiting. */
  libraryStep: "library-step",
  /**
   * The library's vectors brought up to date after a deletion or a title edit (refitting the latent model once the
   * library has shrunk enough, then hubness): one at a time, one waiting.
   */
  libraryRefresh: "library-refresh",
  /** The whole library re-embedded with the configured embedder (`cli reembed`): one at a time, one waiting. */
  libraryReembed: "library-reembed",
  /** Removes stored objects no row names (lib/storage/sweep.ts), hourly. */
  storageSweep: "storage-sweep",
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobQueue {
  boss: PgBoss;
  stop(opts?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
}

const opened = new WeakMap<DbHandle, Promise<JobQueue>>();

/**
 * The queue on this database handle, started (its schema installed or migrated) on first use. Sending and working
 * both go through it; `supervise` (default on) lets this process expire the jobs of workers that stopped beating.
 */
export function getJobQueue(handle: DbHandle): Promise<JobQueue> {
  let p = opened.get(handle);
  if (!p) {
    p = openJobQueue(handle);
    opened.set(handle, p);
    p.catch(() => opened.delete(handle));
  }
  return p;
}

async function openJobQueue(handle: DbHandle): Promise<JobQueue> {
  const common = {
    schema: "pgboss",
    // a job whose worker died is seen within seconds (its heartbeat stops), not after the 15-minute expiry
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 30,
    // nothing else of the library is REINDEXed behind its back
    reindex: false as const,
    monitorVacuum: false,
  };
  const boss =
    handle.native.driver === "pglite"
      ? new InProcessBoss({ ...common, db: fromPglite(handle.native.client), backend: "pglite" })
      : new PgBoss({ ...common, connectionString: handle.native.url, max: 4, useListenNotify: true });
  boss.on("error", (e) => console.error(`[jobs] ${e instanceof Error ? e.message : String(e)}`));
  await boss.start();
  await ensureQueues(boss, { heartbeatSeconds: getEnv().LECTERN_JOB_HEARTBEAT_SECONDS });
  let stopped = false;
  return {
    boss,
    async stop(opts = {}) {
      if (stopped) return;
      stopped = true;
      opened.delete(handle);
      await boss.stop({ graceful: opts.graceful ?? true, timeout: opts.timeoutMs ?? 30_000, close: true });
    },
  };
}

/**
 * pg-boss on the embedded database, where the only workers are this process's: a job sent here wakes the workers of
 * its queue at once. PGlite has no LISTEN/NOTIFY, so without this an uploaded file waited out the worker's polling
 * interval (2 s) before its ingestion started, and the library step after it as long again. Polling stays the backstop
 * (jobs due later: retries with backoff, the hourly sweep).
 */
class InProcessBoss extends PgBoss {
  readonly #workers = new Map<string, Set<string>>();

  #wake(name: unknown): void {
    if (typeof name !== "string") return;
    for (const id of this.#workers.get(name) ?? []) this.notifyWorker(id);
  }

  override send(request: JobRequest): Promise<string | null>;
  override send(name: string, data?: object | null, options?: SendOptions): Promise<string | null>;
  override async send(first: string | JobRequest, data?: object | null, options?: SendOptions): Promise<string | null> {
    const id = typeof first === "string" ? await super.send(first, data, options) : await super.send(first);
    this.#wake(typeof first === "string" ? first : first.name);
    return id;
  }

  override async insert(...args: Parameters<PgBoss["insert"]>): Promise<string[] | null> {
    const ids = await super.insert(...args);
    this.#wake(args[0]);
    return ids;
  }

  override async work(...args: unknown[]): Promise<string> {
    const id = await (super.work as (...a: unknown[]) => Promise<string>)(...args);
    const name = args[0] as string;
    const ids = this.#workers.get(name) ?? new Set<string>();
    ids.add(id);
    this.#workers.set(name, ids);
    return id;
  }

  override async offWork(...args: Parameters<PgBoss["offWork"]>): Promise<void> {
    await super.offWork(...args);
    const [name, options] = args;
    if (options?.id) this.#workers.get(name)?.delete(options.id);
    else this.#workers.delete(name);
  }
}

/**
 * Creates the queues this version needs, and gives the existing ones the heartbeat the settings ask for
 * (LECTERN_JOB_HEARTBEAT_SECONDS: a job whose worker stops beating for this long goes to another worker).
 */
export async function ensureQueues(boss: PgBoss, { heartbeatSeconds }: { heartbeatSeconds: number }): Promise<void> {
  const existing = new Map((await boss.getQueues()).map((q) => [q.name, q]));
  const want: [QueueName, Parameters<PgBoss["createQueue"]>[1]][] = [
    [
      QUEUES.ingestFile,
      {
        heartbeatSeconds,
        retryLimit: 3,
        retryDelay: 5,
        retryBackoff: true,
        retryDelayMax: 120,
        expireInSeconds: 60 * 60,
        notify: true,
      },
    ],
    [
      QUEUES.downloadFile,
      {
        heartbeatSeconds,
        // the arXiv client already retries a 429 or 5xx answer within an attempt (3, 6, 12 s); these are for longer
        // outages: 30 s, 60 s, 120 s
        retryLimit: 3,
        retryDelay: 30,
        retryBackoff: true,
        retryDelayMax: 600,
        expireInSeconds: 30 * 60,
        notify: true,
      },
    ],
    [
      QUEUES.libraryStep,
      {
        // one running, one waiting: files finished while the step runs are taken by the next one
        policy: "stately",
        heartbeatSeconds,
        retryLimit: 5,
        retryDelay: 10,
        retryBackoff: true,
        retryDelayMax: 300,
        expireInSeconds: 2 * 60 * 60,
        notify: true,
      },
    ],
    [
      QUEUES.libraryRefresh,
      {
        policy: "stately",
        heartbeatSeconds,
        retryLimit: 3,
        retryDelay: 10,
        retryBackoff: true,
        retryDelayMax: 300,
        expireInSeconds: 2 * 60 * 60,
        notify: true,
      },
    ],
    [
      QUEUES.libraryReembed,
      {
        policy: "stately",
        heartbeatSeconds,
        // a re-embedding that failed (the embedding service down) is tried again once, a minute later
        retryLimit: 1,
        retryDelay: 60,
        expireInSeconds: 6 * 60 * 60,
      },
    ],
    [QUEUES.storageSweep, { policy: "stately", retryLimit: 1, expireInSeconds: 30 * 60 }],
  ];
  for (const [name, options] of want) {
    const queue = existing.get(name);
    if (!queue) {
      try {
        await boss.createQueue(name, options);
      } catch (e) {
        // another process made it meanwhile
        if (!(await boss.getQueue(name))) throw e;
      }
    } else if (options?.heartbeatSeconds && queue.heartbeatSeconds !== options.heartbeatSeconds) {
      await boss.updateQueue(name, { heartbeatSeconds: options.heartbeatSeconds });
    }
  }
}

/**
 * `boss.work` for a queue of many short jobs (a batch's files, its downloads): `concurrency` loops of one job each,
 * and a loop that has finished a job fetches the next at once. pg-boss otherwise waits out the rest of its polling
 * interval after every job — a 0.2 s file took 2 s of a loop — and NOTIFY wakes a loop only when jobs are sent. The
 * polling interval still applies when a fetch finds the queue empty.
 */
export async function workContinuously<T extends object>(
  boss: PgBoss,
  name: string,
  options: { pollingIntervalSeconds: number; notifyPollingIntervalSeconds: number; concurrency: number },
  handler: (job: Job<T>) => Promise<void>,
): Promise<string[]> {
  const { concurrency, ...polling } = options;
  const ids: string[] = [];
  for (let i = 0; i < concurrency; i++) {
    let self = "";
    self = await boss.work<T>(name, { ...polling, localConcurrency: 1 }, async ([job]: Job<T>[]) => {
      if (!job) return;
      try {
        await handler(job);
      } finally {
        // the loop skips its wait before the next fetch
        if (self) boss.notifyWorker(self);
      }
    });
    ids.push(self);
  }
  return ids;
}
