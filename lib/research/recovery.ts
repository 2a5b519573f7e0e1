import type { Database, Driver } from "@/db";
import { markInterruptedRuns } from "@/db/queries/research";
import type { ResearchError } from "./types";

export const INTERRUPTED_ERROR: ResearchError = {
  code: "interrupted",
  message: "The run was interrupted: the server stopped before it finished. What it found so far is kept.",
  hint: "Run it again for a complete answer.",
};

/**
 * At server start: runs left `running` by a process that stopped are marked `interrupted` (shown as ended, with "Run
 * again", and exportable with what they have). On the embedded database no other process can be running one (PGlite
 * admits one process), so every such run is. On PostgreSQL other instances may be running theirs: only the runs older
 * than the run time limit — which stops every run — are certainly dead. Returns how many were marked.
 */
export async function recoverInterruptedRuns(
  db: Database,
  { driver, runTimeoutMs, now = new Date() }: { driver: Driver; runTimeoutMs: number; now?: Date },
): Promise<number> {
  // a minute's grace on PostgreSQL for a run finishing its last writes
  const startedBefore = driver === "pglite" ? now : new Date(now.getTime() - runTimeoutMs - 60_000);
  return markInterruptedRuns(db, { startedBefore, error: INTERRUPTED_ERROR });
}
