import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { finishRun, getRun, insertRun } from "@/db/queries/research";
import { researchRuns } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import type { ResearchDeps } from "./deps";
import { INSTANCE_ID } from "./lease";
import { executeRun, pendingCard, type Runner, type StepDefinition } from "./lifecycle";
import { INTERRUPTED_ERROR, recoverInterruptedRuns, startLeaseSweeper } from "./recovery";
import { startRun, waitForRun } from "./runs";
import type { StepOf } from "./types";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

async function lease(id: string) {
  const [row] = await handle.db
    .select({ owner: researchRuns.leaseOwner, expiresAt: researchRuns.leaseExpiresAt, status: researchRuns.status })
    .from(researchRuns)
    .where(eq(researchRuns.id, id));
  return row;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  // polls without a deadline of its own: the test's timeout guards a hang, so a slow machine only waits longer
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A run whose one step waits until `release` is called. */
function gatedRunner(): { runner: Runner; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const waitStep: StepDefinition<StepOf<"formatting">, void, void> = {
    card: () => pendingCard<StepOf<"formatting">>({ id: "formatting", type: "formatting", title: "Waiting" }),
    async run() {
      await gate;
      return { result: undefined, patch: { title: "Done", data: { citedPaperIds: [] } } };
    },
  };
  const runner: Runner = (deps, question, hooks) =>
    executeRun(deps, question, hooks, {
      plan: [waitStep.card()],
      timeoutHint: "",
      async body(run) {
        await run.step(waitStep, undefined);
        return { markdown: "done", citations: [], references: [] };
      },
    });
  return { runner, release };
}

describe("run leases", () => {
  const deps = (): ResearchDeps => ({
    db: handle.db,
    embedder: createHashingEmbedder({ dimensions: 64 }),
    chatModel: null,
    llmTimeoutMs: 5_000,
    runTimeoutMs: 60_000,
  });

  it("a running run holds a lease this process renews, and finishing releases it", async () => {
    const { runner, release } = gatedRunner();
    const { runId } = startRun(deps(), "a question", { runner, leaseMs: 1_200 });
    const first = await until(
      () => lease(runId),
      (r) => Boolean(r?.expiresAt),
    );
    expect(first?.owner).toBe(INSTANCE_ID);
    expect(first?.status).toBe("running");
    // renewed every third of the lease while the run goes on
    const renewed = await until(
      () => lease(runId),
      (r) => (r?.expiresAt?.getTime() ?? 0) > (first?.expiresAt?.getTime() ?? 0),
    );
    expect(renewed?.owner).toBe(INSTANCE_ID);
    release();
    await waitForRun(runId);
    expect(await lease(runId)).toMatchObject({ owner: null, expiresAt: null, status: "completed" });
  });

  const insert = (id: string, startedAt: Date, lease?: { owner: string; expiresAt: Date }) =>
    insertRun(handle.db, {
      id,
      question: "q",
      mode: "offline",
      model: "extractive",
      startedAt: startedAt.toISOString(),
      steps: [],
      ...(lease ? { lease } : {}),
    });

  it("on PostgreSQL a run whose lease expired is interrupted, however young; a live lease is left alone", async () => {
    const now = new Date();
    await insert("dead-lease", new Date(now.getTime() - 2_000), {
      owner: "killed-instance",
      expiresAt: new Date(now.getTime() - 1_000),
    });
    await insert("live-lease", new Date(now.getTime() - 3_600_000), {
      owner: "other-instance",
      expiresAt: new Date(now.getTime() + 60_000),
    });
    await insert("no-lease-young", new Date(now.getTime() - 5_000));
    expect(await recoverInterruptedRuns(handle.db, { driver: "postgres", runTimeoutMs: 180_000, now })).toBe(1);
    expect(await getRun(handle.db, "dead-lease")).toMatchObject({ status: "interrupted", error: INTERRUPTED_ERROR });
    expect((await getRun(handle.db, "live-lease"))?.status).toBe("running");
    expect((await getRun(handle.db, "no-lease-young"))?.status).toBe("running");
    expect(await lease("dead-lease")).toMatchObject({ owner: null, expiresAt: null });
    for (const id of ["live-lease", "no-lease-young"]) {
      await finishRun(handle.db, id, { status: "completed", durationMs: 1 });
    }
  });

  it("the sweeper ends a run within its lease once its process stops renewing", async () => {
    const now = Date.now();
    // a lease far from its end while the sweeper starts (however slow the machine), then one that has just ended
    await insert("stops-renewing", new Date(now), { owner: "killed-instance", expiresAt: new Date(now + 3_600_000) });
    const marked: number[] = [];
    const stop = startLeaseSweeper(handle.db, { runTimeoutMs: 180_000, leaseMs: 800 }, (n) => marked.push(n));
    try {
      expect((await getRun(handle.db, "stops-renewing"))?.status).toBe("running");
      await handle.db
        .update(researchRuns)
        .set({ leaseExpiresAt: new Date(Date.now() - 1) })
        .where(eq(researchRuns.id, "stops-renewing"));
      const run = await until(
        () => getRun(handle.db, "stops-renewing"),
        (r) => r?.status === "interrupted",
      );
      expect(run?.error).toEqual(INTERRUPTED_ERROR);
      // (reported once the sweep's announcement is sent, which may come after the row is seen)
      await until(
        async () => marked,
        (m) => m.includes(1),
      );
    } finally {
      stop();
    }
  });
});
