import { describe, expect, it } from "vitest";
import type { ResearchStreamEvent } from "@/lib/research/types";
import { cancelRunAction, feedbackAction, startResearchAction, watchRunAction } from "./actions";

async function collect(events: AsyncIterable<ResearchStreamEvent>): Promise<ResearchStreamEvent[]> {
  const out: ResearchStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

// Only the paths that never reach the database: invalid input is answered with a typed event or result.
describe("research actions, invalid input", () => {
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

  it("watches nothing for a run that is not running here, and rejects a bad id", async () => {
    expect(await collect(watchRunAction("q9XhC1v2b3n4m5k6j7h8gA"))).toEqual([]);
    expect(await collect(watchRunAction("../x"))).toEqual([
      { kind: "rejected", error: { code: "bad_request:input", message: "That is not a research run id." } },
    ]);
  });

  it("cancels nothing when the run is not running", async () => {
    expect(await cancelRunAction("q9XhC1v2b3n4m5k6j7h8gA")).toEqual({ ok: true, data: { cancelled: false } });
    expect(await cancelRunAction("")).toMatchObject({ ok: false, error: { code: "bad_request:input" } });
  });

  it("refuses feedback that is not a rating", async () => {
    expect(await feedbackAction("q9XhC1v2b3n4m5k6j7h8gA", "meh" as "helpful")).toEqual({
      ok: false,
      error: { code: "bad_request:input", message: "Feedback is “helpful” or “not helpful”." },
    });
  });
});
