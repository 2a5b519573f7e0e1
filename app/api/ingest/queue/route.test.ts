import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie } from "@/app/testing";
import type { QueueBatch } from "@/components/library/job-queue-types";
import type { ApiResult } from "@/components/library/types";
import type { DbHandle } from "@/db";
import { insertIngestBatch, setLibraryStep } from "@/db/queries/jobs";
import { createAppTestDatabase } from "@/db/testing";
import { GET } from "./route";

/** `GET /api/ingest/queue`: who may read it, and an idle page's wait (`?wait=S&newest=ID`) answered by a new batch. */

let handle: DbHandle;
let viewer = "";

beforeAll(async () => {
  handle = await createAppTestDatabase();
  viewer = await sessionCookie(handle.db, "viewer");
});
afterAll(async () => {
  await handle?.close();
});

const get = (query = "", cookie = viewer, signal?: AbortSignal) =>
  GET(new Request(`http://localhost/api/ingest/queue${query}`, { headers: { cookie }, signal }));

async function queued(): Promise<string> {
  const id = randomUUID();
  await insertIngestBatch(handle.db, { id, actorId: null, origin: "upload" }, []);
  return id;
}

describe("GET /api/ingest/queue", () => {
  it("needs a session; a viewer reads the queue", async () => {
    expect((await get("", "")).status).toBe(401);
    const res = await get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, data: [] });
  });

  it("refuses a wait that is not 1–30 whole seconds, or a newest that is not an id", async () => {
    for (const bad of ["?wait=0", "?wait=31", "?wait=1.5", "?wait=soon", `?wait=5&newest=${"x".repeat(65)}`]) {
      const res = await get(bad);
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as ApiResult<never>;
      expect(body.ok || body.error.message, bad).toMatch(bad.includes("newest") ? /newest is the id/ : /from 1 to 30/);
    }
  });

  it("an idle page's wait is answered by a batch queued meanwhile, with it first", async () => {
    const before = await queued();
    await setLibraryStep(handle.db, [before], { libraryStatus: "done" });
    // the page shows `before`, idle: the request waits (30 s at most) …
    const controller = new AbortController();
    let answered = false;
    const waiting = get(`?wait=30&newest=${before}`, viewer, controller.signal).then(async (res) => {
      answered = true;
      return (await res.json()) as ApiResult<QueueBatch[]>;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    // … until a batch is queued
    const next = await queued();
    const body = await waiting;
    expect(body.ok && body.data.map((b) => b.id)).toEqual([next, before]);
    controller.abort();
    await setLibraryStep(handle.db, [next], { libraryStatus: "done" });
    // (this test's own limit is under the 30 s wait: an answer that came from the wait's end, not from the queued
    // batch, fails it)
  }, 20_000);

  it("answers at once when the page's newest batch is not the queue's", async () => {
    // nothing in the queue has work left: only `newest` differs (the limit is under the 30 s wait, as above)
    const res = await get("?wait=30&newest=");
    const body = (await res.json()) as ApiResult<QueueBatch[]>;
    expect(body.ok && body.data.map((b) => b.libraryStatus)).toEqual(["done", "done"]);
  }, 20_000);
});
