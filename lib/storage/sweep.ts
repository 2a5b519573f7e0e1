import type { Database } from "@/db";
import { referencedFilePaths } from "@/db/queries/storage";
import { PDF_FOLDER } from "./keys";
import type { PdfStorage, StoredObject } from "./types";

/** An object younger than this may belong to an ingest that has stored its PDF and not yet saved its row. */
export const DEFAULT_SWEEP_GRACE_MS = 60 * 60 * 1000;

export interface SweepResult {
  /** The store swept (a directory or `s3://bucket/prefix`). */
  location: string;
  graceMs: number;
  /** Objects looked at, in the PDF folder. */
  checked: number;
  /** The orphans removed. */
  removed: StoredObject[];
  /** Objects a paper row names (kept whatever their age). */
  referenced: number;
  /** Objects no row names, kept for being younger than the grace period. */
  fresh: number;
}

/**
 * Removes the stored objects no paper row names that are older than the grace period: what an ingest left when it
 * stored its PDF and then failed or was killed before its row was committed (the pipeline stores the object first),
 * and PDFs whose removal failed after their paper was deleted. Local temporary files a crash left behind are such
 * objects too.
 *
 * The objects are listed first and the rows read after, so a row committed meanwhile is seen. An orphan's age is
 * read again just before it is removed: storing the same bytes again refreshes it (PdfStorage.put), so an ingest of
 * those very bytes that began since the listing keeps its object.
 */
export async function sweepOrphanObjects(
  storage: PdfStorage,
  db: Database,
  opts: { graceMs?: number; now?: Date } = {},
): Promise<SweepResult> {
  const graceMs = opts.graceMs ?? DEFAULT_SWEEP_GRACE_MS;
  const cutoff = (opts.now ?? new Date()).getTime() - graceMs;
  const isOld = (o: StoredObject) => o.lastModified.getTime() < cutoff;

  const objects: StoredObject[] = [];
  for await (const object of storage.list(PDF_FOLDER)) objects.push(object);
  const named = await referencedFilePaths(
    db,
    objects.map((o) => o.key),
  );
  const removed: StoredObject[] = [];
  let fresh = 0;
  for (const object of objects) {
    if (named.has(object.key)) continue;
    if (!isOld(object)) {
      fresh++;
      continue;
    }
    const current = await storage.head(object.key);
    if (!current) continue; // removed meanwhile
    if (!isOld(current)) {
      fresh++;
      continue;
    }
    await storage.delete(object.key);
    removed.push(current);
  }
  return { location: storage.location, graceMs, checked: objects.length, removed, referenced: named.size, fresh };
}
