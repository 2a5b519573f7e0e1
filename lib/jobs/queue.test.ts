import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { createTestDatabase } from "@/db/testing";
import { ensureQueues, getJobQueue, type JobQueue, QUEUES, workContinuously } from "./queue";

/**
 * The queues this version makes, and: a job sent is worked at once, not after the worker's polling interval: on PostgreSQL a NOTIFY wakes the worker, on
 * the embedded database (no LISTEN/NOTIFY) the sending process wakes its own workers. The interval here is an hour,
 * so a job that had to wait for the next poll would outlast the test's timeout.
 */

let handle: DbHandle;
let queue: JobQueue;

beforeAll(async () => {
  handle = await createTestDatabase();
  queue = await getJobQueue(handle);
  await queue.boss.createQueue("wake-test", { notify: true });
  await queue.boss.createQueue("wake-test-insert", { notify: true });
  await queue.boss.createQueue("continuous-test", { notify: true });
});

afterAll(async () => {
  await queue?.stop({ graceful: false, timeoutMs: 1000 });
  await handle?.close();
});

async function worked(name: string, send: () => Promise<unknown>): Promise<unknown> {
  let done!: (data: unknown) => void;
  const seen = new Promise((resolve) => {
    done = resolve;
  });
  const hour = { pollingIntervalSeconds: 3600, notifyPollingIntervalSeconds: 3600 };
  await queue.boss.work<{ n: number }>(name, hour, async ([job]) => {
    if (job) done(job.data);
  });
  await send();
  return seen;
}

it("wakes the queue's worker when a job is sent", async () => {
  await expect(worked("wake-test", () => queue.boss.send("wake-test", { n: 1 }))).resolves.toEqual({ n: 1 });
});

it("wakes it when jobs are inserted in a batch", async () => {
  await expect(
    worked("wake-test-insert", () => queue.boss.insert("wake-test-insert", [{ data: { n: 2 } }])),
  ).resolves.toEqual({ n: 2 });
});

it("with workContinuously, a loop that finished a job takes the next at once, not after its polling interval", async () => {
  const seen: number[] = [];
  let all!: () => void;
  const finished = new Promise<void>((resolve) => {
    all = resolve;
  });
  const hour = { pollingIntervalSeconds: 3600, notifyPollingIntervalSeconds: 3600 };
  const ids = await workContinuously<{ n: number }>(
    queue.boss,
    "continuous-test",
    { ...hour, concurrency: 1 },
    async (job) => {
      seen.push(job.data.n);
      if (seen.length === 3) all();
    },
  );
  expect(ids).toHaveLength(1);
  // one insert wakes the loop once; the two jobs after the first are fetched because the loop was told it may go on
  await queue.boss.insert("continuous-test", [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3 } }]);
  await finished;
  expect(seen.sort()).toEqual([1, 2, 3]);
});

const heartbeats = async () =>
  Object.fromEntries((await queue.boss.getQueues()).map((q) => [q.name, q.heartbeatSeconds ?? null]));

describe("ensureQueues", () => {
  it("makes every queue, the worked ones with the configured heartbeat (default 20 s), the hourly sweep without", async () => {
    const found = await heartbeats();
    for (const name of [QUEUES.ingestFile, QUEUES.downloadFile, QUEUES.libraryStep, QUEUES.libraryReembed]) {
      expect(found[name], name).toBe(20);
    }
    expect(found[QUEUES.storageSweep]).toBeNull();
  });

  it("gives existing queues a changed heartbeat (a restart with a new LECTERN_JOB_HEARTBEAT_SECONDS), and is idempotent", async () => {
    await ensureQueues(queue.boss, { heartbeatSeconds: 10 });
    const found = await heartbeats();
    expect(found[QUEUES.ingestFile]).toBe(10);
    expect(found[QUEUES.libraryStep]).toBe(10);
    expect(found[QUEUES.storageSweep]).toBeNull();
    // the other settings stay
    const ingest = await queue.boss.getQueue(QUEUES.ingestFile);
    expect(ingest).toMatchObject({ retryLimit: 3, retryDelay: 5 });
    await ensureQueues(queue.boss, { heartbeatSeconds: 10 });
    expect(await heartbeats()).toEqual(found);
  });
});
