import { and, asc, desc, eq, gt, inArray, isNotNull, notInArray, or, sql } from "drizzle-orm";
import type { Database } from "@/db";
import {
  type IngestBatchRow,
  type IngestFileRow,
  type IngestFileStatus,
  ingestBatches,
  ingestFiles,
  type NewIngestFile,
} from "@/db/schema";

/** The statuses a file's job ends in. */
export const FINAL_FILE_STATUSES: IngestFileStatus[] = ["ingested", "unchanged", "replaced", "error"];

export type IngestBatchWithFiles = IngestBatchRow & { files: IngestFileRow[] };

/** The channel on which a new batch is announced (its id as the payload), once it is committed. */
export const QUEUE_CHANNEL = "lectern_ingest_queue";

/**
 * A batch and its files, written together (a batch is never seen without its files), announced on QUEUE_CHANNEL (a
 * NOTIFY is delivered when its transaction commits: a listener that reads the queue then finds the batch).
 */
export async function insertIngestBatch(
  db: Database,
  batch: { id: string; actorId: string | null; origin: string },
  files: Omit<NewIngestFile, "batchId">[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(ingestBatches).values({ ...batch, total: files.length });
    if (files.length > 0) await tx.insert(ingestFiles).values(files.map((f) => ({ ...f, batchId: batch.id })));
    await tx.execute(sql`select pg_notify(${QUEUE_CHANNEL}, ${batch.id})`);
  });
}

export async function getIngestBatch(db: Database, { id }: { id: string }): Promise<IngestBatchWithFiles | null> {
  const [batch] = await db.select().from(ingestBatches).where(eq(ingestBatches.id, id));
  if (!batch) return null;
  const files = await db
    .select()
    .from(ingestFiles)
    .where(eq(ingestFiles.batchId, id))
    .orderBy(asc(ingestFiles.position));
  return { ...batch, files };
}

export async function getIngestFile(db: Database, { id }: { id: string }): Promise<IngestFileRow | null> {
  const [row] = await db.select().from(ingestFiles).where(eq(ingestFiles.id, id));
  return row ?? null;
}

/**
 * Takes a file for one attempt: `running`, attempts + 1. Null when the file has already ended (a job delivered again
 * after its work was recorded) or is gone.
 */
export async function claimIngestFile(db: Database, { id }: { id: string }): Promise<IngestFileRow | null> {
  const [row] = await db
    .update(ingestFiles)
    .set({
      status: "running",
      attempts: sql`${ingestFiles.attempts} + 1`,
      stage: null,
      stageDone: null,
      stageOf: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(ingestFiles.id, id), notInArray(ingestFiles.status, FINAL_FILE_STATUSES)))
    .returning();
  return row ?? null;
}

export async function setIngestFileStage(
  db: Database,
  {
    id,
    attempt,
    stage,
    done,
    of,
  }: { id: string; attempt: number; stage: string; done: number | null; of: number | null },
): Promise<void> {
  await db
    .update(ingestFiles)
    .set({ stage, stageDone: done, stageOf: of, updatedAt: sql`now()` })
    .where(and(eq(ingestFiles.id, id), eq(ingestFiles.status, "running"), eq(ingestFiles.attempts, attempt)));
}

/** Puts a file whose attempt failed (to be retried) back in the queue, keeping its error for the user to see. */
export async function requeueIngestFile(
  db: Database,
  { id, attempt, error }: { id: string; attempt: number; error: string },
): Promise<void> {
  await db
    .update(ingestFiles)
    .set({ status: "queued", error, updatedAt: sql`now()` })
    .where(
      and(
        eq(ingestFiles.id, id),
        eq(ingestFiles.attempts, attempt),
        notInArray(ingestFiles.status, FINAL_FILE_STATUSES),
      ),
    );
}

/**
 * Hands a downloaded file on to its ingest-file job: the upload's key and size recorded, the file queued again. Only
 * the attempt that holds the file may (false otherwise: a later attempt took it over).
 */
export async function setIngestFileUpload(
  db: Database,
  { id, attempt, uploadKey, size }: { id: string; attempt: number; uploadKey: string; size: number },
): Promise<boolean> {
  const rows = await db
    .update(ingestFiles)
    .set({ uploadKey, size, status: "queued", stage: null, stageDone: null, stageOf: null, updatedAt: sql`now()` })
    .where(and(eq(ingestFiles.id, id), eq(ingestFiles.status, "running"), eq(ingestFiles.attempts, attempt)))
    .returning({ id: ingestFiles.id });
  return rows.length > 0;
}

/**
 * Records a file's outcome — once: a file already ended is left as it is, and with `attempt`, only the attempt that
 * holds the file (the latest claim) may end it; an older one that outlived its claim is refused (false).
 */
export async function finishIngestFile(
  db: Database,
  {
    id,
    attempt,
    ...outcome
  }: {
    id: string;
    attempt?: number;
    status: Extract<IngestFileStatus, "ingested" | "unchanged" | "replaced" | "error">;
    paperId: string | null;
    title: string | null;
    pages: number;
    chunks: number;
    error: string | null;
    errorCode: string | null;
  },
): Promise<boolean> {
  const rows = await db
    .update(ingestFiles)
    .set({ ...outcome, stage: null, uploadKey: null, updatedAt: sql`now()`, finishedAt: sql`now()` })
    .where(
      and(
        eq(ingestFiles.id, id),
        notInArray(ingestFiles.status, FINAL_FILE_STATUSES),
        attempt === undefined ? undefined : eq(ingestFiles.attempts, attempt),
      ),
    )
    .returning({ id: ingestFiles.id });
  return rows.length > 0;
}

/** The batches whose files have all ended and whose library step has not run (any batch: the step is global). */
export async function batchesReadyForLibrary(db: Database): Promise<{ id: string; changed: number }[]> {
  const rows = await db
    .select({
      id: ingestBatches.id,
      open: sql<number>`count(*) filter (where ${notInArray(ingestFiles.status, FINAL_FILE_STATUSES)})::int`,
      changed: sql<number>`count(*) filter (where ${inArray(ingestFiles.status, ["ingested", "replaced"])})::int`,
    })
    .from(ingestBatches)
    .leftJoin(ingestFiles, eq(ingestFiles.batchId, ingestBatches.id))
    .where(inArray(ingestBatches.libraryStatus, ["waiting", "running"]))
    .groupBy(ingestBatches.id);
  return rows.filter((r) => r.open === 0).map((r) => ({ id: r.id, changed: r.changed }));
}

export async function setLibraryStep(
  db: Database,
  ids: string[],
  fields: Partial<
    Pick<
      IngestBatchRow,
      "libraryStatus" | "libraryStage" | "libraryDone" | "libraryOf" | "libraryResult" | "libraryError"
    >
  >,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(ingestBatches)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(inArray(ingestBatches.id, ids));
}

/**
 * What the library page shows as the queue: batches with work left, and those finished in the last `recentMs`
 * (newest first), with their files.
 */
export async function listActiveIngestBatches(
  db: Database,
  { recentMs, limit }: { recentMs: number; limit: number },
): Promise<IngestBatchWithFiles[]> {
  const since = new Date(Date.now() - recentMs);
  const batches = await db
    .select()
    .from(ingestBatches)
    .where(or(inArray(ingestBatches.libraryStatus, ["waiting", "running"]), gt(ingestBatches.updatedAt, since)))
    .orderBy(desc(ingestBatches.createdAt))
    .limit(limit);
  if (batches.length === 0) return [];
  const files = await db
    .select()
    .from(ingestFiles)
    .where(
      inArray(
        ingestFiles.batchId,
        batches.map((b) => b.id),
      ),
    )
    .orderBy(asc(ingestFiles.position));
  return batches.map((b) => ({ ...b, files: files.filter((f) => f.batchId === b.id) }));
}

/** Upload keys still needed: the files whose job has not ended. */
export async function pendingUploadKeys(db: Database): Promise<Set<string>> {
  const rows = await db
    .select({ key: ingestFiles.uploadKey })
    .from(ingestFiles)
    .where(and(isNotNull(ingestFiles.uploadKey), notInArray(ingestFiles.status, FINAL_FILE_STATUSES)));
  return new Set(rows.map((r) => r.key as string));
}

/** Files not finished (queued or running) whose row has not changed since `updatedBefore`: what the sweep checks. */
export async function listStaleIngestFiles(
  db: Database,
  { updatedBefore, limit = 500 }: { updatedBefore: Date; limit?: number },
): Promise<Pick<IngestFileRow, "id" | "uploadKey" | "status">[]> {
  return db
    .select({ id: ingestFiles.id, uploadKey: ingestFiles.uploadKey, status: ingestFiles.status })
    .from(ingestFiles)
    .where(
      and(
        inArray(ingestFiles.status, ["queued", "running"]),
        sql`${ingestFiles.updatedAt} < ${updatedBefore.toISOString()}`,
      ),
    )
    .orderBy(asc(ingestFiles.updatedAt))
    .limit(limit);
}
