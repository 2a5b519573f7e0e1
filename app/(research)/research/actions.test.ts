import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nextHeaders from "@/app/next-stand-in";
import { makeAccount, sessionCookieOf, signInAs } from "@/app/testing";
import type { DbHandle } from "@/db";
import { getRun } from "@/db/queries/research";
import { createAppTestDatabase } from "@/db/testing";
import { waitForRun } from "@/lib/research/runs";
import type { ResearchStreamEvent } from "@/lib/research/types";
import { cancelRunAction, deleteRunAction, feedbackAction, startResearchAction, watchRunAction } from "./actions";

// The actions run as they do in the app, on a test database, signed in as real accounts.
let handle: DbHandle;

async function collect(events: AsyncIterable<ResearchStreamEvent>): Promise<ResearchStreamEvent[]> {
  const out: ResearchStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const UNKNOWN_RUN = "q9XhC1v2b3n4m5k6j7h8gA";

beforeAll(async () => {
  handle = await createAppTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

describe("research actions, invalid input", () => {
  beforeAll(async () => {
    await signInAs(handle.db, "member");
  });

  it("answers a question that cannot be asked with one rejected event", async () => {
    for (const [q, message] of [
      ["", "Type a question about your papers."],
      ["x".repeat(20_000), "The question is too long (20,000 characters); keep it under 2,000."],
      ["?!?", "The question has no words in it (only punctuation or symbols)."],
    ] as const) {
      expect(await collect(startResearchAction(q))).toEqual([
        { kind: "rejected", error: { code: "bad_request:query", message } },
      ]);
    }
    expect(await collect(startResearchAction(undefined as unknown as string))).toEqual([
      { kind: "rejected", error: { code: "bad_request:query", message: "The question must be text." } },
    ]);
  });

  it("rejects a bad run id, and a run that does not exist", async () => {
    expect(await collect(watchRunAction("../x"))).toEqual([
      { kind: "rejected", error: { code: "bad_request:input", message: "That is not a research run id." } },
    ]);
    expect(await collect(watchRunAction(UNKNOWN_RUN))).toEqual([
      { kind: "rejected", error: { code: "not_found:run", message: expect.any(String) } },
    ]);
    expect(await cancelRunAction(UNKNOWN_RUN)).toMatchObject({ ok: false, error: { code: "not_found:run" } });
    expect(await cancelRunAction("")).toMatchObject({ ok: false, error: { code: "bad_request:input" } });
  });
});

describe("who may act on a run", () => {
  it("lets a member ask, keeps the run to its author, and lets the author delete it", async () => {
    // signed out: nothing starts
    await signInAs(handle.db, null);
    expect(await collect(startResearchAction("What is tidal sensing?"))).toEqual([
      { kind: "rejected", error: { code: "unauthorized:session", message: expect.stringMatching(/Sign in/) } },
    ]);
    // a viewer reads, but does not ask
    await signInAs(handle.db, "viewer");
    expect(await collect(startResearchAction("What is tidal sensing?"))).toEqual([
      { kind: "rejected", error: { code: "forbidden:role", message: expect.stringMatching(/viewer/) } },
    ]);

    // the author: an empty library ends the run at once (no papers), which is all this needs
    const author = await makeAccount(handle.db, "member");
    const headers = await nextHeaders.headers();
    const setCookie = async (account: { email: string }) => {
      for (const key of [...headers.keys()]) headers.delete(key);
      headers.set("cookie", await sessionCookieOf(handle.db, account));
    };
    await setCookie(author);
    const events = await collect(startResearchAction("What is tidal sensing?"));
    const started = events[0];
    if (started?.kind !== "run_started") throw new Error(`no run: ${JSON.stringify(events[0])}`);
    await waitForRun(started.runId);
    expect((await getRun(handle.db, started.runId))?.ownerId).toBe(author.id);
    expect(await feedbackAction(started.runId, "helpful")).toMatchObject({ ok: true });

    // another member: a clear refusal for everything, nothing changed
    await setCookie(await makeAccount(handle.db, "member"));
    const refused = { ok: false, error: { code: "forbidden:run", message: expect.stringMatching(/private/) } };
    expect(await feedbackAction(started.runId, "not_helpful")).toEqual(refused);
    expect(await cancelRunAction(started.runId)).toEqual(refused);
    expect(await deleteRunAction(started.runId)).toEqual(refused);
    expect(await collect(watchRunAction(started.runId))).toEqual([{ kind: "rejected", error: refused.error }]);
    expect((await getRun(handle.db, started.runId))?.feedback?.rating).toBe("helpful");

    // the author deletes it
    await setCookie(author);
    expect(await deleteRunAction(started.runId)).toEqual({ ok: true, data: { deleted: 1 } });
    expect(await getRun(handle.db, started.runId)).toBeNull();
  });
});
