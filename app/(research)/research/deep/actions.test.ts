import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs } from "@/app/testing";
import { type DbHandle, queryRows } from "@/db";
import { researchRuns } from "@/db/schema";
import { createAppTestDatabase } from "@/db/testing";
import type { Outline } from "@/lib/research/deep/types";
import type { ResearchStreamEvent } from "@/lib/research/types";
import { clarifyAction, deepInfoAction, improveAction, outlineAction, rerunAction, startDeepAction } from "./actions";

let handle: DbHandle;
let member: { id: string } | null = null;

beforeAll(async () => {
  handle = await createAppTestDatabase();
  member = await signInAs(handle.db, "member");
});
afterAll(async () => {
  await handle?.close();
});

async function collect(events: AsyncIterable<ResearchStreamEvent>): Promise<ResearchStreamEvent[]> {
  const out: ResearchStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const RUN = "q9XhC1v2b3n4m5k6j7h8gA";

// Only the paths that never reach the database: invalid input is answered with a typed result or event.
describe("deep research actions, invalid input", () => {
  it("refuses questions that cannot be asked", async () => {
    expect(await clarifyAction("")).toEqual({
      ok: false,
      error: { code: "bad_request:query", message: "Type a question about your papers." },
    });
    expect(await outlineAction("?!?", [])).toEqual({
      ok: false,
      error: { code: "bad_request:query", message: "The question has no words in it (only punctuation or symbols)." },
    });
    expect(await outlineAction("Why?", "nope" as unknown as [])).toMatchObject({
      ok: false,
      error: { code: "bad_request:query", message: "The answers must be a list." },
    });
  });

  it("answers an invalid outline with one rejected event that names the field", async () => {
    const outline = { title: "T", knowledge_points: [] } as unknown as Outline;
    expect(await collect(startDeepAction("What is tidal sensing?", outline, []))).toEqual([
      {
        kind: "rejected",
        error: {
          code: "bad_request:outline",
          message: "The outline is not valid: the title is too short (at least 2 characters).",
        },
      },
    ]);
    expect(await collect(rerunAction("../x", outline))).toEqual([
      { kind: "rejected", error: { code: "bad_request:input", message: "That is not a research run id." } },
    ]);
  });

  it("refuses feedback that says nothing, before looking for the run", async () => {
    expect(await collect(improveAction(RUN, " ok "))).toEqual([
      {
        kind: "rejected",
        error: { code: "bad_request:feedback", message: "Say what to improve (a few words at least)." },
      },
    ]);
    expect(await collect(improveAction(RUN, "x".repeat(1001)))).toEqual([
      {
        kind: "rejected",
        error: { code: "bad_request:feedback", message: "Keep the feedback under 1,000 characters." },
      },
    ]);
    expect(await deepInfoAction("")).toMatchObject({ ok: false, error: { code: "bad_request:input" } });
  });

  it("refuses a run that is not the person's before counting it against their limit", async () => {
    const refused = [{ kind: "rejected", error: expect.objectContaining({ code: "not_found:run" }) }];
    expect(await collect(improveAction(RUN, "add more on multi-agent debate"))).toEqual(refused);
    const outline: Outline = {
      title: "Widget training",
      knowledge_points: [
        { id: "p1", category: "method", topic: "Widget training", search_keywords: ["widget"], importance: "high" },
      ],
      search_strategy: "Search the library for widget training.",
    };
    expect(await collect(rerunAction(RUN, outline))).toEqual(refused);
    const counted = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from rate_limits where key = ${`research:${member?.id}`}`,
    );
    expect(counted[0]?.n).toBe(0);
  });

  it("refuses to improve the person's own run that has no answer, before counting it against their limit", async () => {
    const id = "d9XhC1v2b3n4m5k6j7h8gA";
    await handle.db.insert(researchRuns).values({
      id,
      question: "What do the papers say about tidal sensing?",
      mode: "offline",
      model: "offline",
      status: "failed",
      ownerId: member?.id ?? null,
      answerMarkdown: "",
      error: { code: "no_answer", message: "No paper in the library is about this question." },
    });
    expect(await collect(improveAction(id, "add more on multi-agent debate"))).toEqual([
      {
        kind: "rejected",
        error: expect.objectContaining({
          code: "conflict:run",
          message: "That run has no answer to improve: ask the question again, or differently.",
        }),
      },
    ]);
    const counted = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from rate_limits where key = ${`research:${member?.id}`}`,
    );
    expect(counted[0]?.n).toBe(0);
  });
});
