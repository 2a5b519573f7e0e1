import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { createTestDatabase } from "@/db/testing";
import { getJobQueue, type JobQueue } from "./queue";

/**
 * A job sent is worked at once, not after the worker's polling interval: on PostgreSQL a NOTIFY wakes the worker, on
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
