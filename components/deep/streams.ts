import type { ErrorCode } from "@/lib/errors";
import type { ImprovePlanEvent, ResearchStreamEvent } from "@/lib/research/types";

export type OpenedRun =
  | {
      ok: true;
      runId: string;
      question: string;
      /** The improve plan, when the action sent one. */
      plan: ImprovePlanEvent | null;
      /** The run's events from `run_started` on (read once). */
      events: () => AsyncIterable<ResearchStreamEvent>;
    }
  | { ok: false; error: { code: ErrorCode; message: string } };

const UNREACHABLE = "Could not reach the server. Is Lectern still running?";

async function* rest(
  first: ResearchStreamEvent,
  iterator: AsyncIterator<ResearchStreamEvent>,
): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield first;
  while (true) {
    const next = await iterator.next();
    if (next.done) return;
    if (next.value.kind !== "improve_plan") yield next.value;
  }
}

/**
 * Reads a deep action's stream up to its run's first event, so the page changes only once the run exists: a
 * rejection (an invalid outline, a run still going, the database unavailable) comes back as a value, and the page
 * keeps showing what it showed (the editor with its edits, the run it was on).
 */
export async function openRun(
  stream: AsyncIterable<ResearchStreamEvent> | Promise<AsyncIterable<ResearchStreamEvent>>,
): Promise<OpenedRun> {
  let plan: ImprovePlanEvent | null = null;
  try {
    const iterator = (await stream)[Symbol.asyncIterator]();
    while (true) {
      const next = await iterator.next();
      if (next.done) {
        return {
          ok: false,
          error: { code: "internal:run", message: "The run did not start. Try again." },
        };
      }
      const event = next.value;
      if (event.kind === "improve_plan") plan = event;
      else if (event.kind === "rejected") return { ok: false, error: event.error };
      else if (event.kind === "run_started") {
        let used = false;
        return {
          ok: true,
          runId: event.runId,
          question: event.question,
          plan,
          events: () => {
            if (used) throw new Error("The run's events can be read once.");
            used = true;
            return rest(event, iterator);
          },
        };
      }
      // anything before run_started is not expected; it is skipped
    }
  } catch (e) {
    console.error("[deep research] stream", e);
    return { ok: false, error: { code: "unavailable:run", message: UNREACHABLE } };
  }
}
