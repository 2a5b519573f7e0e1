import type { Database, Driver } from "@/db";
import { markInterruptedRuns, notifyRun } from "@/db/queries/research";
import type { ResearchError } from "./types";

export const INTERRUPTED_ERROR: ResearchError = {
  code: "interrupted",
  message: "The run was interrupted: the server stopped before it finished. What it found so far is kept.",
  hint: "Run it again for a complete answer.",
};

/**
 * Runs left `running` by a process that stopped are marked `interrupted` (shown as ended, with "Run again", and
 * exportable with what they have). On the embedded database no other process can be running one (PGlite admits one
 * process), so at start every such run is. On PostgreSQL other instances may be running theirs: a run is dead when its
 * lease (lib/research/lease.ts) has expired; a run without a lease (from before leases) when it is older than the run
 * time limit, which stops every run. Returns how many were marked.
 */
export async function recoverInterruptedRuns(
  db: Database,
  { driver, runTimeoutMs, now = new Date() }: { driver: Driver; runTimeoutMs: number; now?: Date },
): Promise<number> {
  if (driver === "pglite")
    return (await markInterruptedRuns(db, { startedBefore: now, error: INTERRUPTED_ERROR })).length;
  // a minute's grace for a lease-less run finishing its last writes
  const startedBefore = new Date(now.getTime() - runTimeoutMs - 60_000);
  const ids = await markInterruptedRuns(db, { startedBefore, leaseExpiredBefore: now, error: INTERRUPTED_ERROR });
  // whoever follows them from another instance sees them end now (lib/research/follow.ts)
  await Promise.all(ids.map((id) => notifyRun(db, id).catch(() => {})));
  return ids.length;
}

/**
 * On PostgreSQL, every half lease: marks the runs whose lease expired `interrupted` (any instance may: the runs of a
 * killed instance are found by the survivors). Returns a stop function. The first check runs at once. (The embedded
 * database needs none: its one process marks its dead runs at start.)
 */
export function startLeaseSweeper(
  db: Database,
  { runTimeoutMs, leaseMs }: { runTimeoutMs: number; leaseMs: number },
  log: (n: number) => void = () => {},
): () => void {
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const n = await recoverInterruptedRuns(db, { driver: "postgres", runTimeoutMs });
      if (n > 0) log(n);
    } catch (e) {
      console.error(`[lectern] checking research run leases: ${(e as Error).message}`);
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(tick, Math.max(500, Math.floor(leaseMs / 2)));
  timer.unref?.();
  return () => clearInterval(timer);
}
