import { randomBytes } from "node:crypto";
import type { Database } from "@/db";
import { renewLeases } from "@/db/queries/research";

/**
 * Leases on running research runs, so any instance can tell a live run from one whose process died. The process that
 * runs a run holds its lease (`research_runs.lease_owner`, `lease_expires_at`), set when the run is saved and renewed
 * every third of the lease while the run is going; finishing clears it. A running run whose lease has expired is dead:
 * every instance checks for such runs every half of the lease (lib/research/recovery.ts `startLeaseSweeper`) and marks
 * them `interrupted`. So a run left by a killed process is seen as ended within 1.5 leases, by whichever instance
 * survives; a slow run is never taken for dead while its process renews.
 */

/** This process, as a lease owner: random per start (a restarted process does not own its former self's runs). */
export const INSTANCE_ID = `${process.pid}-${randomBytes(6).toString("hex")}`;

interface Keeper {
  db: Database;
  leaseMs: number;
  runs: Set<string>;
  timer: ReturnType<typeof setInterval> | null;
}

const KEEPER_KEY = Symbol.for("lectern.research.leases");

function keeper(): Map<string, Keeper> {
  const g = globalThis as unknown as Record<symbol, Map<string, Keeper> | undefined>;
  let k = g[KEEPER_KEY];
  if (!k) {
    k = new Map();
    g[KEEPER_KEY] = k;
  }
  return k;
}

/** When a lease taken now ends. */
export function leaseUntil(leaseMs: number, now = Date.now()): Date {
  return new Date(now + leaseMs);
}

/**
 * Keeps renewing the lease of `runId` until the returned release is called. One timer per database and lease length
 * renews every run of this process in one statement. A failed renewal (the database away) is logged and retried at the
 * next tick: the lease has two more ticks before it expires.
 */
export function holdLease(db: Database, runId: string, leaseMs: number): () => void {
  const key = `${leaseMs}`;
  const all = keeper();
  let k = all.get(key);
  if (!k || k.db !== db) {
    k = { db, leaseMs, runs: new Set(), timer: null };
    all.set(key, k);
  }
  const held = k;
  held.runs.add(runId);
  if (!held.timer) {
    held.timer = setInterval(
      () => {
        const ids = [...held.runs];
        renewLeases(held.db, { owner: INSTANCE_ID, ids, expiresAt: leaseUntil(held.leaseMs) }).catch((e: unknown) =>
          console.error(`[lectern] renewing research run leases: ${(e as Error).message}`),
        );
      },
      Math.max(250, Math.floor(leaseMs / 3)),
    );
    held.timer.unref?.();
  }
  return () => {
    held.runs.delete(runId);
    if (held.runs.size === 0 && held.timer) {
      clearInterval(held.timer);
      held.timer = null;
    }
  };
}
