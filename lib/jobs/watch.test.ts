import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db";
import { insertIngestBatch, QUEUE_CHANNEL, setLibraryStep } from "@/db/queries/jobs";
import { createTestDatabase } from "@/db/testing";
import { QUEUE_WAITS_PER_HOLDER, readQueue, waitForQueueChange, waitsHeld } from "./watch";

/**
 * An idle library page's wait for new work (GET /api/ingest/queue?wait=…): it answers at once when the queue is not
 * what the page has, when a batch is queued (its NOTIFY, on both databases), or when the page goes away. The waits
 * here are an hour: an answer that had to wait for the timer would outlast the test's timeout.
 */

const HOUR = 60 * 60 * 1000;
let handle: DbHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

/** A batch of no files, queued and (unless `open`) already ended. */
async function batch({ open = false } = {}): Promise<string> {
  const id = randomUUID();
  await insertIngestBatch(handle.db, { id, actorId: null, origin: "cli" }, []);
  if (!open) await setLibraryStep(handle.db, [id], { libraryStatus: "done" });
  return id;
}

describe("waitForQueueChange", () => {
  it("answers at once when the page's newest batch is not the queue's, or a batch has work left", async () => {
    const first = await batch();
    expect((await waitForQueueChange(handle, { newest: "", waitMs: HOUR })).map((b) => b.id)).toEqual([first]);
    const open = await batch({ open: true });
    const queue = await waitForQueueChange(handle, { newest: open, waitMs: HOUR });
    expect(queue.map((b) => b.id)).toEqual([open, first]);
    await setLibraryStep(handle.db, [open], { libraryStatus: "done" });
  });

  it("waits while the queue is as the page has it, and answers when a batch is queued, with that batch", async () => {
    const [newest] = await readQueue(handle);
    let answered = false;
    const waiting = waitForQueueChange(handle, { newest: newest?.id ?? "", waitMs: HOUR }).finally(() => {
      answered = true;
    });
    // nothing changed: still waiting after the queue has been read and a notification on it could have come
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    const queued = await batch({ open: true });
    const queue = await waiting;
    expect(queue[0]?.id).toBe(queued);
    expect(queue.map((b) => b.id)).toContain(newest?.id);
    await setLibraryStep(handle.db, [queued], { libraryStatus: "done" });
  });

  it("a NOTIFY that changes nothing the page shows (one delivered late) does not end the wait", async () => {
    const [newest] = await readQueue(handle);
    let answered = false;
    const waiting = waitForQueueChange(handle, { newest: newest?.id ?? "", waitMs: HOUR }).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // the announcement of a batch the page already has, as one from before this wait arrives
    await handle.db.execute(sql`select pg_notify(${QUEUE_CHANNEL}, ${newest?.id ?? "none"})`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    const queued = await batch();
    expect((await waiting)[0]?.id).toBe(queued);
  });

  it("one batch answers every waiting page", async () => {
    const [newest] = await readQueue(handle);
    const waits = [1, 2, 3].map(() => waitForQueueChange(handle, { newest: newest?.id ?? "", waitMs: HOUR }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queued = await batch();
    for (const queue of await Promise.all(waits)) expect(queue[0]?.id).toBe(queued);
  });

  it(`an account holds ${QUEUE_WAITS_PER_HOLDER} waits at once; past them it is answered at once`, async () => {
    const [newest] = await readQueue(handle);
    const controller = new AbortController();
    const wait = (holder: string) =>
      waitForQueueChange(handle, { newest: newest?.id ?? "", waitMs: HOUR, signal: controller.signal, holder });
    const holding = Array.from({ length: QUEUE_WAITS_PER_HOLDER }, () => wait("alice"));
    let aliceAnswered = false;
    let bobAnswered = false;
    const bob = wait("bob").finally(() => {
      bobAnswered = true;
    });
    // every one of them has read the queue and is counted (however long the reads take)
    await vi.waitFor(
      () => {
        expect(waitsHeld("alice")).toBe(QUEUE_WAITS_PER_HOLDER);
        expect(waitsHeld("bob")).toBe(1);
      },
      { timeout: 60_000, interval: 20 },
    );
    // alice's next request is answered (after its read); bob's one wait still waits
    expect((await wait("alice").finally(() => (aliceAnswered = true)))[0]?.id).toBe(newest?.id);
    expect(aliceAnswered).toBe(true);
    expect(bobAnswered).toBe(false);
    controller.abort();
    await Promise.all([...holding, bob]);
    // the aborted waits are no longer counted: alice waits again
    const again = new AbortController();
    let answered = false;
    const next = waitForQueueChange(handle, {
      newest: newest?.id ?? "",
      waitMs: HOUR,
      signal: again.signal,
      holder: "alice",
    }).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    again.abort();
    await next;
  });

  it("answers with the queue as it is when the page goes away (also one gone before it asked)", async () => {
    const [newest] = await readQueue(handle);
    const controller = new AbortController();
    const waiting = waitForQueueChange(handle, {
      newest: newest?.id ?? "",
      waitMs: HOUR,
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    expect((await waiting)[0]?.id).toBe(newest?.id);
    const gone = await waitForQueueChange(handle, {
      newest: newest?.id ?? "",
      waitMs: HOUR,
      signal: controller.signal,
    });
    expect(gone[0]?.id).toBe(newest?.id);
  });

  it("answers after the wait when nothing is queued", async () => {
    const [newest] = await readQueue(handle);
    const queue = await waitForQueueChange(handle, { newest: newest?.id ?? "", waitMs: 50 });
    expect(queue[0]?.id).toBe(newest?.id);
  });
});
