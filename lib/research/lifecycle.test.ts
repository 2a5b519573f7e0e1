import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import type { ResearchDeps } from "./deps";
import { executeRun, pendingCard, type Run, type StepDefinition, StepError } from "./lifecycle";
import { runResearch } from "./orchestrator";
import type { ResearchEvent, StepOf } from "./types";

/**
 * What a run tells its reader when something unexpected breaks: never the SQL, the query's parameters (the user's
 * question) or a stack — a lost database is named as such, anything else gets a generic line; the details go to the
 * server's log.
 */

const QUESTION = "What did the secret-project-7731 ablation find?";
const DB_DOWN = "The database is unavailable — retry in a moment.";

/** A database whose every query fails as drizzle reports it: the whole statement and its parameters in the message. */
function failingDb(cause: unknown): DbHandle["db"] {
  const fail = () => {
    throw new DrizzleQueryError(
      'select "chunks"."id", ts_rank("chunks"."search_text", websearch_to_tsquery($1)) from "chunks" where …',
      [QUESTION, 40],
      cause as Error,
    );
  };
  return new Proxy({}, { get: () => fail }) as DbHandle["db"];
}

function deps(db: DbHandle["db"]): ResearchDeps {
  return {
    db,
    embedder: createHashingEmbedder({ dimensions: 64 }),
    chatModel: null,
    llmTimeoutMs: 5_000,
    runTimeoutMs: 30_000,
  };
}

async function run(db: DbHandle["db"]) {
  const events: ResearchEvent[] = [];
  const state = await runResearch(deps(db), QUESTION, { runId: "r", onEvent: (e) => events.push(e) });
  return { state, events, shown: JSON.stringify(events) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a run's errors, as its reader sees them", () => {
  it("a lost database connection: the step and the run say the database is unavailable, and nothing of the SQL", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const lost = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    const { state, events, shown } = await run(failingDb(lost));
    expect(state.status).toBe("failed");
    const failed = state.steps.find((s) => s.status === "failed");
    expect(failed?.error).toEqual({ code: "internal", message: DB_DOWN });
    expect(events.at(-1)).toMatchObject({ kind: "run_finished", status: "failed", error: { message: DB_DOWN } });
    for (const leak of [
      "Failed query",
      'from \\"chunks\\"',
      "params:",
      `${QUESTION},40`,
      "57P01",
      "administrator",
      "    at ",
    ]) {
      expect(shown).not.toContain(leak);
    }
    // the details are in the server's log
    expect(log.mock.calls.flat().some((a) => a instanceof DrizzleQueryError)).toBe(true);
  });

  it("a refused connection (node-postgres' ECONNREFUSED) reads the same", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const { state, shown } = await run(failingDb(refused));
    expect(state.error?.message).toBe(DB_DOWN);
    expect(shown).not.toContain("127.0.0.1:5432");
  });

  it("any other unexpected error: a generic message, logged in full", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const syntax = Object.assign(new Error('syntax error at or near "where"'), { code: "42601" });
    const { state, shown } = await run(failingDb(syntax));
    expect(state.error?.code).toBe("internal");
    expect(state.error?.message).toBe("Something went wrong on our side. The details were logged.");
    expect(shown).not.toContain("Failed query");
    expect(shown).not.toContain("syntax error");
    expect(log).toHaveBeenCalled();
  });

  it("a step's own StepError and a bad request keep their messages", async () => {
    const throwing: StepDefinition<StepOf<"analysis">, Error, void> = {
      card: () => pendingCard<StepOf<"analysis">>({ id: "analysis", type: "analysis", title: "Analysing" }),
      async run(_ctx, e) {
        throw e;
      },
    };
    const { LecternError } = await import("@/lib/errors");
    const { StepError } = await import("./lifecycle");
    const outcome = async (e: Error) =>
      (
        await executeRun(
          deps(failingDb(null)),
          QUESTION,
          { runId: "r", onEvent: () => {} },
          {
            plan: [throwing.card()],
            timeoutHint: "",
            body: async (r) => {
              await r.step(throwing, e);
              return { markdown: "", citations: [], references: [] };
            },
          },
        )
      ).error;
    expect(await outcome(new StepError({ code: "no_papers", message: "The library is empty." }))).toEqual({
      code: "no_papers",
      message: "The library is empty.",
    });
    expect(await outcome(new LecternError("bad_request:query", "The question is too long."))).toEqual({
      code: "bad_request",
      message: "The question is too long.",
    });
  });
});

describe("the steps a run never reaches", () => {
  const stepOf = (id: string, fail: boolean): StepDefinition<StepOf<"analysis">, void, void> => ({
    card: () => pendingCard<StepOf<"analysis">>({ id, type: "analysis", title: id }),
    async run() {
      if (fail) throw new StepError({ code: "no_answer", message: "The library does not answer this." });
      return { result: undefined, patch: {} };
    },
  });
  const [first, second, third] = [stepOf("first", false), stepOf("second", true), stepOf("third", false)];
  const runWith = async (body: (r: Run) => Promise<void>) => {
    const events: ResearchEvent[] = [];
    const state = await executeRun(
      deps(failingDb(null)),
      QUESTION,
      { runId: "r", onEvent: (e) => events.push(e) },
      {
        plan: [first.card(), second.card(), third.card()],
        timeoutHint: "",
        body: async (r) => {
          await body(r);
          return { markdown: "", citations: [], references: [] };
        },
      },
    );
    return { state, events };
  };

  it("are skipped when a step ends the run, streamed before the run's end", async () => {
    const { state, events } = await runWith(async (r) => {
      await r.step(first, undefined);
      await r.step(second, undefined);
      await r.step(third, undefined);
    });
    expect(state.status).toBe("failed");
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([
      ["first", "completed"],
      ["second", "failed"],
      ["third", "skipped"],
    ]);
    expect(events.map((e) => (e.kind === "step" ? `${e.step.id}:${e.step.status}` : e.kind)).slice(-2)).toEqual([
      "third:skipped",
      "run_finished",
    ]);
  });

  it("are skipped too when the run completes without them", async () => {
    const { state } = await runWith(async (r) => {
      await r.step(first, undefined);
    });
    expect(state.status).toBe("completed");
    expect(state.steps.map((s) => s.status)).toEqual(["completed", "skipped", "skipped"]);
  });
});
