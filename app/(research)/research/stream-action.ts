import type { z } from "zod";
import type { SessionUser } from "@/lib/auth/session";
import { asDatabaseUnavailable, type ErrorCode, toErrorResult } from "@/lib/errors";
import { DATABASE_UNAVAILABLE } from "@/lib/research/lifecycle";
import type { ResearchStreamEvent } from "@/lib/research/types";
import { firstIssue } from "./schema";

/** A `rejected` event: a LecternError's own message, a lost database named as such, anything else generic (logged). */
function rejection(e: unknown): ResearchStreamEvent {
  return { kind: "rejected", error: toErrorResult(asDatabaseUnavailable(e, DATABASE_UNAVAILABLE)).error };
}

/** What a streaming action starts: the run's events, and events sent before them (an improve plan). */
export interface StartedStream {
  events: AsyncIterable<ResearchStreamEvent>;
  before?: ResearchStreamEvent[];
}

/**
 * Every streaming research action is this sequence: check the session and the role (a `rejected` event: sign in, or
 * the role does not allow it), parse the input with its schema (a `rejected` event with the first problem when it
 * does not parse), start the run (a `rejected` event with the safe message when it cannot start: someone else's run,
 * a run still going, the database unavailable), then relay the run's events as they come (a failure while relaying
 * ends the stream with a `rejected` event). `start` returning null sends nothing (a run not live here).
 */
export async function* streamAction<S extends z.ZodType>(
  /** Who is asking, if their role allows it (the action passes `() => requireUser(capability)`); throws a refusal. */
  access: () => Promise<SessionUser>,
  schema: S,
  input: unknown,
  invalid: { code: ErrorCode; message: string },
  start: (data: z.output<S>, user: SessionUser) => Promise<StartedStream | null>,
): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  let user: SessionUser;
  try {
    user = await access();
  } catch (e) {
    yield rejection(e);
    return;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    yield { kind: "rejected", error: { code: invalid.code, message: firstIssue(parsed.error, invalid.message) } };
    return;
  }
  let started: StartedStream | null;
  try {
    started = await start(parsed.data, user);
  } catch (e) {
    yield rejection(e);
    return;
  }
  if (!started) return;
  yield* started.before ?? [];
  try {
    for await (const event of started.events) yield event;
  } catch (e) {
    yield rejection(e);
  }
}
