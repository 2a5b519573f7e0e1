import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sessionCookie } from "@/app/testing";
import type { DbHandle } from "@/db";
import { getRun } from "@/db/queries/research";
import { createAppTestDatabase } from "@/db/testing";
import { waitForRun } from "@/lib/research/runs";
import { POST } from "./route";

// The real route on a test database, offline (no model configured): the app's database is the test's (createAppTestDatabase).
let handle: DbHandle;

let member = "";

beforeAll(async () => {
  handle = await createAppTestDatabase();
  member = await sessionCookie(handle.db, "member");
});
afterAll(async () => {
  await handle?.close();
});

function post(body: string, cookie = member, query = ""): Request {
  return new Request(`http://localhost/api/research${query}`, {
    method: "POST",
    body,
    headers: { cookie, "content-type": "application/json" },
  });
}

describe("POST /api/research", () => {
  it("runs a question to its end and says how it ended; the run is saved as the page's runs are", async () => {
    const res = await POST(post(JSON.stringify({ question: "What does the library say about lattice hashing?" })));
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      ok: true;
      data: { run_id: string; status: string; duration_ms: number; error?: { code: string } };
    };
    expect(body.data.run_id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    // an empty library: the run ends, honestly, without an answer
    expect(body.data).toMatchObject({ status: "failed", error: { code: "no_papers" } });
    expect(body.data.duration_ms).toBeGreaterThanOrEqual(0);
    await vi.waitFor(async () => expect((await getRun(handle.db, body.data.run_id))?.status).toBe("failed"));
  });

  it("answers with the run's id at once with ?wait=0", async () => {
    const res = await POST(post(JSON.stringify({ question: "Which retrievers are compared?" }), member, "?wait=0"));
    const body = (await res.json()) as { ok: true; data: Record<string, unknown> };
    expect(Object.keys(body.data)).toEqual(["run_id"]);
    // the run goes on after the answer: let it end here, not in a later file of this worker
    await waitForRun(body.data.run_id as string);
  });

  it("refuses without a session (401) and a viewer (403); explains bad input (400)", async () => {
    const q = JSON.stringify({ question: "Why?" });
    expect((await POST(post(q, ""))).status).toBe(401);
    const viewer = await POST(post(q, await sessionCookie(handle.db, "viewer")));
    expect(viewer.status).toBe(403);
    const notJson = await POST(post("question=why"));
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toMatch(/Send JSON/);
    const empty = await POST(post(JSON.stringify({ question: "  ?! " })));
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe("bad_request:query");
    const huge = await POST(post(JSON.stringify({ question: "x".repeat(20_000) })));
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: { message: string } }).error.message).toMatch(/too large/);
  });
});
