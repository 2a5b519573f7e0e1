import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { getIngestFile, insertIngestBatch } from "@/db/queries/jobs";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { createIngestContext, type IngestContext } from "@/lib/ingest/pipeline";
import { ABANDONED_FILE_ERROR, ABANDONED_FILE_GRACE_MS, failAbandonedFiles, UPLOAD_FOLDER, uploadKey } from "./ingest";
import { getJobQueue, type JobQueue, QUEUES } from "./queue";

/**
 * A worker killed during a file's last attempt leaves its job failed (by expiry) and the file `running`: the sweep's
 * failAbandonedFiles ends such files, and only those — a file whose job still waits, retries or runs is left alone.
 */

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
let queue: JobQueue;

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-abandoned-"));
  ctx = createIngestContext(handle, {
    dataDir,
    maxUploadBytes: 5 * 1024 * 1024,
    embedder: createHashingEmbedder({ dimensions: 64 }),
    chatModel: null,
  });
  queue = await getJobQueue(handle);
});

afterAll(async () => {
  await queue?.stop({ graceful: false });
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("fails the files no job will finish, removes their uploads, and leaves those with a live job", async () => {
  await ctx.storage.put(uploadKey("dead"), new Uint8Array([1, 2, 3]));
  await insertIngestBatch(handle.db, { id: "batch-abandoned", actorId: null, origin: "cli" }, [
    // its job expired on the last attempt (below); the row says running
    { id: "dead", position: 0, fileName: "dead.pdf", status: "running", uploadKey: uploadKey("dead"), attempts: 1 },
    // its job is lost altogether
    { id: "lost", position: 1, fileName: "lost.pdf", status: "queued" },
    // waiting for a worker
    { id: "waiting", position: 2, fileName: "waiting.pdf", status: "queued" },
    // a download waiting for its retry
    { id: "retrying", position: 3, fileName: "retrying.pdf", status: "running" },
  ]);
  const dead = await queue.boss.send(QUEUES.ingestFile, { fileId: "dead" }, { retryLimit: 0 });
  const [fetched] = await queue.boss.fetch(QUEUES.ingestFile);
  expect(fetched?.id).toBe(dead);
  await queue.boss.fail(QUEUES.ingestFile, dead as string, new Error("expired"));
  await queue.boss.send(QUEUES.ingestFile, { fileId: "waiting" });
  const retrying = await queue.boss.send(QUEUES.downloadFile, { fileId: "retrying" }, { retryLimit: 3 });
  await queue.boss.fetch(QUEUES.downloadFile);
  await queue.boss.fail(QUEUES.downloadFile, retrying as string, new Error("busy"));

  // within the grace period nothing is touched
  expect(await failAbandonedFiles(ctx, queue)).toEqual([]);

  const later = new Date(Date.now() + ABANDONED_FILE_GRACE_MS + 60_000);
  expect((await failAbandonedFiles(ctx, queue, { now: later })).sort()).toEqual(["dead", "lost"]);
  for (const id of ["dead", "lost"]) {
    expect(await getIngestFile(handle.db, { id })).toMatchObject({
      status: "error",
      error: ABANDONED_FILE_ERROR,
      errorCode: "internal:interrupted",
      uploadKey: null,
    });
  }
  expect((await getIngestFile(handle.db, { id: "waiting" }))?.status).toBe("queued");
  expect((await getIngestFile(handle.db, { id: "retrying" }))?.status).toBe("running");
  // the dead attempt's upload is gone
  const left: string[] = [];
  for await (const o of ctx.storage.list(UPLOAD_FOLDER)) left.push(o.key);
  expect(left).not.toContain(uploadKey("dead"));
  // a second sweep finds nothing more to do
  expect(await failAbandonedFiles(ctx, queue, { now: later })).toEqual([]);
});
