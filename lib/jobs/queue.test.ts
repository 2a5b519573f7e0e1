import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { createTestDatabase } from "@/db/testing";
import { ensureQueues, getJobQueue, type JobQueue, QUEUES } from "./queue";

let handle: DbHandle;
let queue: JobQueue;

beforeAll(async () => {
  handle = await createTestDatabase();
  queue = await getJobQueue(handle);
});

afterAll(async () => {
  await queue?.stop({ graceful: false });
  await handle?.close();
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
