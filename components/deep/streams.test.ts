import { describe, expect, it, vi } from "vitest";
import type { ResearchEvent, ResearchStreamEvent } from "@/lib/research/types";
import { openRun } from "./streams";

const started: ResearchEvent = {
  kind: "run_started",
  runId: "run-1",
  question: "Q?",
  mode: "offline",
  model: "extractive",
  startedAt: "2026-01-01T00:00:00.000Z",
  steps: [],
};
const finished: ResearchEvent = { kind: "run_finished", status: "completed", durationMs: 5 };

async function* stream(...events: ResearchStreamEvent[]): AsyncGenerator<ResearchStreamEvent> {
  for (const e of events) yield e;
}

async function collect(events: AsyncIterable<ResearchStreamEvent>): Promise<ResearchStreamEvent[]> {
  const out: ResearchStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe("openRun", () => {
  it("waits for run_started, keeps the improve plan, then replays the run's events from the first", async () => {
    const opened = await openRun(
      Promise.resolve(
        stream(
          { kind: "improve_plan", feedback: "more on x", addedPoint: "X" },
          started,
          { kind: "answer_delta", text: "a" },
          finished,
        ),
      ),
    );
    expect(opened).toMatchObject({
      ok: true,
      runId: "run-1",
      question: "Q?",
      plan: { kind: "improve_plan", addedPoint: "X" },
    });
    if (!opened.ok) return;
    expect((await collect(opened.events())).map((e) => e.kind)).toEqual([
      "run_started",
      "answer_delta",
      "run_finished",
    ]);
    expect(() => opened.events()).toThrow("read once");
  });

  it("returns a rejection as a value", async () => {
    const opened = await openRun(
      stream({ kind: "rejected", error: { code: "bad_request:outline", message: "The outline is not valid." } }),
    );
    expect(opened).toEqual({
      ok: false,
      error: { code: "bad_request:outline", message: "The outline is not valid." },
    });
  });

  it("says so when the stream ends before a run, or cannot be read", async () => {
    expect(await openRun(stream())).toEqual({
      ok: false,
      error: { code: "internal:run", message: "The run did not start. Try again." },
    });
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await openRun(Promise.reject(new Error("fetch failed")))).toEqual({
      ok: false,
      error: { code: "unavailable:run", message: "Could not reach the server. Is Lectern still running?" },
    });
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });
});
