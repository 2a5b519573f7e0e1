import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { researchCitations, researchRuns, researchSteps } from "@/db/schema";
import { sqlArrayParam } from "@/db/sql";
import type {
  Citation,
  FeedbackRating,
  FinishedRunStatus,
  Reference,
  ResearchError,
  ResearchMode,
  ResearchRunState,
  ResearchStep,
  RetrievedRecord,
  RunFeedback,
  RunOptions,
  RunStatus,
} from "@/lib/research/types";

// No `import "server-only"` here: the CLI runs these same queries outside Next.js.

export async function insertRun(
  db: Database,
  run: {
    id: string;
    question: string;
    mode: ResearchMode;
    model: string;
    startedAt: string;
    steps: ResearchStep[];
    options?: RunOptions;
    parentId?: string | null;
    /** The account that asked (null: the command line, or a library from before accounts). */
    ownerId?: string | null;
    /** The process running it, and until when (lib/research/lease.ts). */
    lease?: { owner: string; expiresAt: Date };
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(researchRuns).values({
      leaseOwner: run.lease?.owner ?? null,
      leaseExpiresAt: run.lease?.expiresAt ?? null,
      id: run.id,
      question: run.question,
      status: "running",
      mode: run.mode,
      model: run.model,
      parentId: run.parentId ?? null,
      ownerId: run.ownerId ?? null,
      options: run.options ?? {},
      startedAt: new Date(run.startedAt),
    });
    if (run.steps.length > 0) {
      await tx.insert(researchSteps).values(
        run.steps.map((s, i) => ({
          runId: run.id,
          stepId: s.id,
          position: i,
          type: s.type,
          status: s.status,
          durationMs: s.durationMs,
          payload: s,
        })),
      );
    }
  });
}

/** Upserts a step as it now is (steps not in the plan are appended). */
export async function saveStep(db: Database, runId: string, step: ResearchStep): Promise<void> {
  await db
    .insert(researchSteps)
    .values({
      runId,
      stepId: step.id,
      position: sql`(select coalesce(max(position), -1) + 1 from research_steps where run_id = ${runId})`,
      type: step.type,
      status: step.status,
      durationMs: step.durationMs,
      payload: step,
    })
    .onConflictDoUpdate({
      target: [researchSteps.runId, researchSteps.stepId],
      set: { status: step.status, durationMs: step.durationMs, payload: step, updatedAt: new Date() },
    });
}

/** The final answer with its verified citations, in one transaction. */
export async function saveAnswer(
  db: Database,
  runId: string,
  answer: {
    markdown: string;
    citations: Citation[];
    references: Reference[];
    warnings: string[];
    retrieved: RetrievedRecord[];
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(researchRuns)
      .set({
        answerMarkdown: answer.markdown,
        references: answer.references,
        warnings: answer.warnings,
        retrieved: answer.retrieved,
      })
      .where(eq(researchRuns.id, runId));
    await tx.delete(researchCitations).where(eq(researchCitations.runId, runId));
    if (answer.citations.length > 0) {
      await tx.insert(researchCitations).values(
        answer.citations.map((c) => ({
          runId,
          position: c.index,
          paperId: c.paperId,
          page: c.page,
          chunkUid: c.chunkUid,
          marker: c.marker,
          claim: c.claim,
          quote: c.quote,
          charStart: c.charStart,
          charEnd: c.charEnd,
          supported: c.supported,
          support: c.support,
          reason: c.reason ?? null,
          relevance: c.relevance ?? null,
          relevanceReason: c.relevanceReason ?? null,
        })),
      );
    }
  });
}

/** Saves what was retrieved even when the run fails before an answer. */
export async function saveRetrieved(db: Database, runId: string, retrieved: RetrievedRecord[]): Promise<void> {
  await db.update(researchRuns).set({ retrieved }).where(eq(researchRuns.id, runId));
}

export async function finishRun(
  db: Database,
  runId: string,
  fin: { status: FinishedRunStatus; durationMs: number; error?: ResearchError },
): Promise<void> {
  await db
    .update(researchRuns)
    .set({
      status: fin.status,
      durationMs: fin.durationMs,
      error: fin.error ?? null,
      finishedAt: new Date(),
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(eq(researchRuns.id, runId));
}

/** The channel on which a saved change of a run is announced (its id as the payload). */
export const RUN_CHANNEL = "lectern_run";

/** Tells the instances listening on RUN_CHANNEL that `runId` changed (they read it again). */
export async function notifyRun(db: Database, runId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${RUN_CHANNEL}, ${runId})`);
}

/** Extends the leases of `owner`'s running runs among `ids` to `expiresAt`. Returns how many were extended. */
export async function renewLeases(
  db: Database,
  { owner, ids, expiresAt }: { owner: string; ids: string[]; expiresAt: Date },
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(researchRuns)
    .set({ leaseExpiresAt: expiresAt })
    .where(and(inArray(researchRuns.id, ids), eq(researchRuns.status, "running"), eq(researchRuns.leaseOwner, owner)))
    .returning({ id: researchRuns.id });
  return rows.length;
}

/**
 * Marks runs still `running` that started before `startedBefore` as `interrupted` with `error` — runs whose process
 * is gone (lib/research/recovery.ts decides which) — their steps that were in progress as failed with it, and those
 * still pending as skipped, in one transaction. Returns their ids.
 */
export async function markInterruptedRuns(
  db: Database,
  {
    startedBefore,
    leaseExpiredBefore,
    error,
  }: {
    /** Runs without a lease (started before leases existed) that started before this. */
    startedBefore: Date;
    /** Runs whose lease expired before this (all of them: `startedBefore` decides for the lease-less only). */
    leaseExpiredBefore?: Date;
    error: ResearchError;
  },
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const dead = leaseExpiredBefore
      ? or(
          and(isNull(researchRuns.leaseExpiresAt), lt(researchRuns.startedAt, startedBefore)),
          lt(researchRuns.leaseExpiresAt, leaseExpiredBefore),
        )
      : lt(researchRuns.startedAt, startedBefore);
    const rows = await tx
      .update(researchRuns)
      .set({ status: "interrupted", finishedAt: new Date(), error, leaseOwner: null, leaseExpiresAt: null })
      .where(and(eq(researchRuns.status, "running"), dead))
      .returning({ id: researchRuns.id });
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) {
      await tx
        .update(researchSteps)
        .set({
          status: "failed",
          payload: sql`${researchSteps.payload} || jsonb_build_object('status', 'failed', 'error', ${JSON.stringify(error)}::jsonb)`,
          updatedAt: new Date(),
        })
        .where(and(inArray(researchSteps.runId, ids), eq(researchSteps.status, "in_progress")));
      // and the steps they never reached are skipped, as a run that ends in its own process leaves them
      await tx
        .update(researchSteps)
        .set({
          status: "skipped",
          payload: sql`${researchSteps.payload} || jsonb_build_object('status', 'skipped')`,
          updatedAt: new Date(),
        })
        .where(and(inArray(researchSteps.runId, ids), eq(researchSteps.status, "pending")));
    }
    return ids;
  });
}

export interface StoredRun extends ResearchRunState {
  parentId: string | null;
  /** Its author's account (null: asked at the command line, or the account was removed). */
  ownerId: string | null;
  /** What the run was started with (deep research: `{ deep: true, outline, answers, feedback }`). */
  options: RunOptions;
  retrieved: RetrievedRecord[];
  feedback: RunFeedback | null;
}

export async function getRun(db: Database, runId: string): Promise<StoredRun | null> {
  const [run] = await db.select().from(researchRuns).where(eq(researchRuns.id, runId));
  if (!run) return null;
  const [steps, citations] = await Promise.all([
    db.select().from(researchSteps).where(eq(researchSteps.runId, runId)).orderBy(asc(researchSteps.position)),
    db
      .select()
      .from(researchCitations)
      .where(eq(researchCitations.runId, runId))
      .orderBy(asc(researchCitations.position)),
  ]);
  return {
    runId: run.id,
    question: run.question,
    mode: run.mode,
    model: run.model,
    status: run.status,
    startedAt: run.startedAt.toISOString(),
    durationMs: run.durationMs,
    steps: steps.map((s) => s.payload),
    answer: run.answerMarkdown,
    citations: citations.map((c) => ({
      index: c.position,
      marker: c.marker,
      paperId: c.paperId,
      page: c.page,
      claim: c.claim,
      chunkUid: c.chunkUid,
      quote: c.quote,
      charStart: c.charStart,
      charEnd: c.charEnd,
      supported: c.supported,
      support: c.support,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.relevance ? { relevance: c.relevance } : {}),
      ...(c.relevanceReason ? { relevanceReason: c.relevanceReason } : {}),
    })),
    references: run.references,
    warnings: run.warnings,
    ...(run.error ? { error: run.error } : {}),
    parentId: run.parentId,
    ownerId: run.ownerId,
    options: run.options,
    retrieved: run.retrieved,
    feedback:
      run.feedbackRating && run.feedbackAt
        ? {
            rating: run.feedbackRating,
            comment: run.feedbackComment,
            at: run.feedbackAt.toISOString(),
          }
        : null,
  };
}

export interface RunListItem {
  id: string;
  question: string;
  status: RunStatus;
  mode: ResearchMode;
  startedAt: string;
  durationMs: number | null;
  /** The run this one improves (a later version of it), or null. */
  parentId: string | null;
  /** Why a failed run ended (`no_answer`: the library does not answer its question), or null. */
  errorCode: string | null;
  /**
   * Its number among the versions of its question (1 for a run that is no version of another), as the run page's
   * versions list numbers them: by start, over the whole family of its first run.
   */
  version: number;
  /** The "Improve: …" feedback it was made with, or null. */
  feedback: string | null;
}

/** The latest runs, newest first; with `ownerId`, only that author's. */
export async function listRuns(
  db: Database,
  { limit = 20, ownerId }: { limit?: number; ownerId?: string } = {},
): Promise<RunListItem[]> {
  const rows = await db
    .select({
      id: researchRuns.id,
      question: researchRuns.question,
      status: researchRuns.status,
      mode: researchRuns.mode,
      startedAt: researchRuns.startedAt,
      durationMs: researchRuns.durationMs,
      parentId: researchRuns.parentId,
      error: researchRuns.error,
      // (the feedback alone: a deep run's options hold its whole outline)
      feedback: sql<string | null>`${researchRuns.options}->>'feedback'`,
    })
    .from(researchRuns)
    .where(ownerId === undefined ? undefined : eq(researchRuns.ownerId, ownerId))
    .orderBy(desc(researchRuns.startedAt))
    .limit(limit);
  const numbers = await versionNumbers(
    db,
    rows.filter((r) => r.parentId !== null).map((r) => r.id),
  );
  return rows.map(({ error, ...r }) => ({
    ...r,
    startedAt: r.startedAt.toISOString(),
    errorCode: error?.code ?? null,
    version: numbers.get(r.id) ?? 1,
  }));
}

/**
 * Each run's number among the versions of its family (its first run's and every descendant's, ordered by start as
 * `listVersions` orders them), for runs that are versions of another. One statement for all of them.
 */
async function versionNumbers(db: Database, runIds: readonly string[]): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const rows = await queryRows<{ id: string; version: number | string }>(
    db,
    sql`
    ${familiesOf(runIds)}
    select family.start as id, count(*) as version
    from family
    join research_runs member on member.id = family.id
    join research_runs self on self.id = family.start
    where (member.started_at, member.id) <= (self.started_at, self.id)
    group by family.start`,
  );
  return new Map(rows.map((r) => [r.id, Number(r.version)]));
}

/**
 * `with recursive … family(start, id)`: for each of `runIds` (start), every run of its family — its first run (up
 * the parent links) and all that run's descendants, itself included. Parent links are at most 100 deep.
 */
function familiesOf(runIds: readonly string[]) {
  return sql`
    with recursive up as (
      select id as start, id, parent_id, 0 as depth from research_runs where id = any(${sqlArrayParam(runIds, "text")})
      union all
      select up.start, r.id, r.parent_id, up.depth + 1 from research_runs r join up on r.id = up.parent_id
      where up.depth < 100
    ),
    roots as (select distinct on (start) start, id as root from up order by start, depth desc),
    down as (
      select r.id as root, r.id, 0 as depth from research_runs r where r.id in (select root from roots)
      union all
      select down.root, r.id, down.depth + 1 from research_runs r join down on r.parent_id = down.id
      where down.depth < 100
    ),
    family as (select roots.start, down.id from roots join down on down.root = roots.root)`;
}

/** Stores feedback on a run; false when the run does not exist. */
export async function setFeedback(
  db: Database,
  runId: string,
  feedback: { rating: FeedbackRating; comment?: string | null },
): Promise<boolean> {
  const rows = await db
    .update(researchRuns)
    .set({ feedbackRating: feedback.rating, feedbackComment: feedback.comment ?? null, feedbackAt: new Date() })
    .where(eq(researchRuns.id, runId))
    .returning({ id: researchRuns.id });
  return rows.length > 0;
}

export interface RunVersion {
  id: string;
  parentId: string | null;
  status: RunStatus;
  startedAt: string;
  options: RunOptions;
}

/** Every version in the family of a run (its root and all the root's descendants), oldest first. */
export async function listVersions(db: Database, runId: string): Promise<RunVersion[]> {
  const rows = await queryRows<{
    id: string;
    parent_id: string | null;
    status: string;
    started_at: string | Date;
    options: RunOptions | string;
  }>(
    db,
    sql`
    ${familiesOf([runId])}
    select r.id, r.parent_id, r.status, r.started_at, r.options
    from research_runs r where r.id in (select id from family)
    order by r.started_at, r.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    parentId: r.parent_id,
    status: r.status as RunStatus,
    startedAt: new Date(r.started_at).toISOString(),
    // a raw query's jsonb arrives parsed from node-postgres, as text from PGlite
    options: typeof r.options === "string" ? (JSON.parse(r.options) as RunOptions) : r.options,
  }));
}

/** A run and the versions made from it (its descendants) that have the same author. */
export async function listRunAndVersionIds(
  db: Database,
  { runId, ownerId }: { runId: string; ownerId: string | null },
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
    with recursive down as (
      select id, 0 as depth from research_runs where id = ${runId}
      union all
      select r.id, down.depth + 1 from research_runs r join down on r.parent_id = down.id where down.depth < 100
    )
    select r.id from research_runs r
    where r.id in (select id from down) and r.owner_id is not distinct from ${ownerId}`,
  );
  return rows.map((r) => r.id);
}

/** Deletes runs (their steps, citations and share links go with them); returns how many. */
export async function deleteRuns(db: Database, { ids }: { ids: string[] }): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db.delete(researchRuns).where(inArray(researchRuns.id, ids)).returning({ id: researchRuns.id });
  return rows.length;
}
