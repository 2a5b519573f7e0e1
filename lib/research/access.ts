import type { Database } from "@/db";
import { getRun, type StoredRun } from "@/db/queries/research";
import { LecternError } from "@/lib/errors";

/**
 * Research runs belong to their author: only they open, watch, cancel, rate, rerun, improve, share, export or delete
 * one (others see it through a share link). A run without an author (asked at the command line without `--as`) is
 * nobody's to open in the app.
 */
export function assertRunAuthor(run: Pick<StoredRun, "ownerId">, userId: string): void {
  if (run.ownerId !== userId) {
    throw new LecternError("forbidden:run", "This research run is private to the person who asked it.");
  }
}

/** The stored run if `userId` is its author; not_found or forbidden otherwise. */
export async function loadOwnRun(db: Database, runId: string, userId: string): Promise<StoredRun> {
  const run = await getRun(db, runId);
  if (!run) throw new LecternError("not_found:run", "That research run does not exist (any more).");
  assertRunAuthor(run, userId);
  return run;
}
