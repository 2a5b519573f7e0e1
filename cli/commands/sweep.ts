import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { LecternError } from "@/lib/errors";
import { getPdfStorage, type PdfStorage } from "@/lib/storage";
import { DEFAULT_SWEEP_GRACE_MS, sweepOrphanObjects } from "@/lib/storage/sweep";
import { formatBytes, info, printJson } from "../output";

const USAGE =
  "usage: npm run cli -- sweep [--grace-minutes N] [--json]   (removes stored PDFs no paper names, older than N minutes; 60 by default)";
/** A week: an object older than this and named by no row is not an ingest still under way. */
const MAX_MINUTES = 7 * 24 * 60;

/**
 * Removes the stored PDFs no paper row names (what a failed or killed ingest, or a failed removal, left) once older
 * than the grace period, from the configured store (the data directory or S3).
 */
export async function runSweep(
  handle: DbHandle,
  args: string[],
  json: boolean,
  storage: PdfStorage = getPdfStorage(),
): Promise<number> {
  const { values } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { "grace-minutes": { type: "string" }, json: { type: "boolean" } },
  });
  const raw = values["grace-minutes"];
  const minutes =
    raw === undefined
      ? DEFAULT_SWEEP_GRACE_MS / 60_000
      : typeof raw === "string" && /^\d+$/.test(raw.trim())
        ? Number(raw)
        : Number.NaN;
  if (!Number.isInteger(minutes) || minutes > MAX_MINUTES) {
    throw new LecternError(
      "bad_request:input",
      `--grace-minutes is a whole number from 0 to ${MAX_MINUTES}.\n${USAGE}`,
    );
  }
  const result = await sweepOrphanObjects(storage, handle.db, { graceMs: minutes * 60_000 });
  const removed = result.removed.map((o) => ({ key: o.key, size: o.size, lastModified: o.lastModified.toISOString() }));
  if (json) {
    printJson({
      location: result.location,
      graceMinutes: minutes,
      checked: result.checked,
      referenced: result.referenced,
      fresh: result.fresh,
      removed,
    });
    return 0;
  }
  for (const o of removed) process.stdout.write(`removed  ${o.key}  ${formatBytes(o.size)}  ${o.lastModified}\n`);
  info(
    `${result.location}: ${result.checked} stored PDFs, ${result.referenced} named by a paper, ` +
      `${removed.length} orphans removed, ${result.fresh} orphans younger than ${minutes} min kept.`,
  );
  return 0;
}
