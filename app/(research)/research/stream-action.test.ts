import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ResearchStreamEvent } from "@/lib/research/types";
import { streamAction } from "./stream-action";

const QUESTION = "What did the secret-project-7731 ablation find?";

async function collect(start: () => Promise<never>): Promise<ResearchStreamEvent[]> {
  const out: ResearchStreamEvent[] = [];
  const schema = z.object({ question: z.string() });
  const user = async () => ({ id: "u1", email: "ada@lab.example", name: "Ada", role: "member" as const });
  for await (const e of streamAction(
    user,
    schema,
    { question: QUESTION },
    { code: "bad_request:query", message: "" },
    start,
  ))
    out.push(e);
  return out;
}

function failedQuery(cause: Error): DrizzleQueryError {
  return new DrizzleQueryError(
    'insert into "research_runs" ("id", "question") values ($1, $2)',
    ["r1", QUESTION],
    cause,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("streamAction's rejected events", () => {
  it("a database outage when the run starts: named as such, without the SQL or the question", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const lost = Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
    const events = await collect(async () => {
      throw failedQuery(lost);
    });
    expect(events).toEqual([
      {
        kind: "rejected",
        error: { code: "unavailable:database", message: "The database is unavailable — retry in a moment." },
      },
    ]);
  });

  it("any other unexpected failure: a generic message; the details go to the log", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const events = await collect(async () => {
      throw failedQuery(new Error('relation "research_runs" does not exist'));
    });
    const shown = JSON.stringify(events);
    expect(events).toHaveLength(1);
    expect(shown).toContain("Something went wrong on our side");
    for (const leak of ["insert into", "research_runs", QUESTION]) expect(shown).not.toContain(leak);
    expect(log).toHaveBeenCalled();
  });
});
