import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { finishRun, insertRun, notifyRun, saveAnswer, saveStep } from "@/db/queries/research";
import { createTestDatabase } from "@/db/testing";
import { followStoredRun } from "./follow";
import { pendingCard } from "./lifecycle";
import { recoverInterruptedRuns } from "./recovery";
import type { ResearchEvent, StepOf } from "./types";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const card = pendingCard<StepOf<"formatting">>({ id: "formatting", type: "formatting", title: "Listing references" });

/** Reads the follower into `events` in the background; `next(n)` waits until n events have arrived. */
function collect(events: AsyncIterable<ResearchEvent>) {
  const got: ResearchEvent[] = [];
  const waiters: (() => void)[] = [];
  const done = (async () => {
    for await (const e of events) {
      got.push(e);
      for (const w of waiters.splice(0)) w();
    }
  })();
  const next = async (n: number) => {
    while (got.length < n) await new Promise<void>((r) => waiters.push(r));
    return got.slice(0, n);
  };
  return { got, next, done };
}

describe("following a run another instance is running", () => {
  it("replays what is saved, then wakes on each notification for that run until it ends", async () => {
    const id = "followed-run";
    await insertRun(handle.db, {
      id,
      question: "What does the library say?",
      mode: "offline",
      model: "extractive",
      startedAt: new Date().toISOString(),
      steps: [card],
      lease: { owner: "instance-a", expiresAt: new Date(Date.now() + 60_000) },
    });
    // an hour between polls: only a notification can wake the follower in this test
    const f = collect(followStoredRun(handle, id, { pollMs: 3_600_000 }));
    const [started] = await f.next(1);
    expect(started).toMatchObject({ kind: "run_started", runId: id, question: "What does the library say?" });
    expect(started?.kind === "run_started" && started.steps.map((s) => s.status)).toEqual(["pending"]);

    // a notification for another run does not wake it into reading this one's change: its own does
    await saveStep(handle.db, id, { ...card, status: "in_progress", startedAt: new Date().toISOString() });
    await notifyRun(handle.db, "some-other-run");
    await notifyRun(handle.db, id);
    const [, step] = await f.next(2);
    expect(step).toMatchObject({ kind: "step", step: { id: "formatting", status: "in_progress" } });

    await saveStep(handle.db, id, { ...card, status: "completed", title: "Listed 0 references", durationMs: 3 });
    await saveAnswer(handle.db, id, {
      markdown: "The answer.",
      citations: [],
      references: [],
      warnings: [],
      retrieved: [],
    });
    await finishRun(handle.db, id, { status: "completed", durationMs: 42 });
    await notifyRun(handle.db, id);
    await f.done;
    expect(f.got.map((e) => e.kind)).toEqual(["run_started", "step", "step", "answer", "run_finished"]);
    expect(f.got[3]).toMatchObject({ kind: "answer", markdown: "The answer." });
    expect(f.got[4]).toMatchObject({ kind: "run_finished", status: "completed", durationMs: 42 });
  });

  it("sees a run end as interrupted when its instance died and a survivor's sweep found its lease expired", async () => {
    const id = "orphaned-run";
    await insertRun(handle.db, {
      id,
      question: "q",
      mode: "offline",
      model: "extractive",
      startedAt: new Date().toISOString(),
      steps: [{ ...card, status: "in_progress", startedAt: new Date().toISOString() }],
      lease: { owner: "killed-instance", expiresAt: new Date(Date.now() - 1_000) },
    });
    const f = collect(followStoredRun(handle, id, { pollMs: 3_600_000 }));
    await f.next(1);
    // the sweep marks it and announces it (on PostgreSQL, where other instances can be running runs)
    expect(await recoverInterruptedRuns(handle.db, { driver: "postgres", runTimeoutMs: 180_000 })).toBe(1);
    await f.done;
    expect(f.got.at(-1)).toMatchObject({ kind: "run_finished", status: "interrupted", error: { code: "interrupted" } });
    expect(f.got.find((e) => e.kind === "step")).toMatchObject({ step: { status: "failed" } });
  });

  it("ends at once for a run that has already ended, and yields nothing for an unknown run", async () => {
    const f = collect(followStoredRun(handle, "followed-run", { pollMs: 3_600_000 }));
    await f.done;
    expect(f.got.map((e) => e.kind)).toEqual(["run_started", "answer", "run_finished"]);
    const none = collect(followStoredRun(handle, "no-such-run"));
    await none.done;
    expect(none.got).toEqual([]);
  });
});
