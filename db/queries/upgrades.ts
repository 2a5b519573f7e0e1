import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunks, papers } from "@/db/schema";
import { sqlArray } from "@/db/sql";
import { type VectorTable, vectorTable } from "./vectors";

// The queries of the library's upgrades (lib/library/upgrades): what they read and write. What they compute — the
// search terms, the chunks' annotations, the authors — is lib's.

/**
 * Takes the advisory lock `name` until the end of the calling transaction: two processes starting at once run an
 * upgrade one after the other (the second then finds it done).
 */
export async function lockUpgrade(tx: Pick<Database, "execute">, { name }: { name: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`);
}

/** The passages of `table` whose search terms are to be examined: all of them (`every`), or those without any. */
function pendingSearchText(table: VectorTable, every: boolean) {
  return every ? sql`true` : sql`${vectorTable(table).searchText} is null`;
}

export async function countPendingSearchText(
  db: Database,
  { table, every }: { table: VectorTable; every: boolean },
): Promise<number> {
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${vectorTable(table)} where ${pendingSearchText(table, every)}`,
  );
  return Number(count?.n ?? 0);
}

/**
 * The next `limit` of those passages after the key `after`, in key order (keyset pagination: when every row is
 * examined, "still pending" cannot be told from the rows themselves), with their paper's title and their stored terms.
 */
export async function listPendingSearchText(
  db: Pick<Database, "select">,
  { table, every, after, limit }: { table: VectorTable; every: boolean; after: string; limit: number },
): Promise<{ chunkUid: string; paperId: string; text: string; title: string; searchText: string | null }[]> {
  const t = vectorTable(table);
  return db
    .select({
      chunkUid: t.chunkUid,
      paperId: t.paperId,
      text: t.text,
      title: papers.title,
      searchText: t.searchText,
    })
    .from(t)
    .innerJoin(papers, eq(papers.id, t.paperId))
    .where(sql`${pendingSearchText(table, every)} and ${t.chunkUid} > ${after}`)
    .orderBy(t.chunkUid)
    .limit(limit);
}

/** Every paper's id, in order. */
export async function listPaperIds(db: Database): Promise<string[]> {
  const rows = await db.select({ id: papers.id }).from(papers).orderBy(papers.id);
  return rows.map((r) => r.id);
}

/** A paper's page chunks: where each lies on its page, and its text. */
export async function listChunkSpans(
  db: Database,
  { paperId }: { paperId: string },
): Promise<{ chunkUid: string; pageNumber: number; charStart: number; charEnd: number; text: string }[]> {
  return db
    .select({
      chunkUid: chunks.chunkUid,
      pageNumber: chunks.pageNumber,
      charStart: chunks.charStart,
      charEnd: chunks.charEnd,
      text: chunks.text,
    })
    .from(chunks)
    .where(eq(chunks.paperId, paperId));
}

const ANNOTATION_BATCH = 5_000;

/**
 * Writes what is read off page chunks (section, reference-list flag, sentences' ends), in batches of four bind
 * parameters per chunk, leaving rows that already hold them untouched; returns how many changed, and how many of those
 * changed their flag.
 */
export async function writeChunkAnnotations(
  db: Database,
  { rows }: { rows: { chunkUid: string; section: string | null; bibliography: boolean; sentenceEnds: number[] }[] },
): Promise<{ changed: number; flagsChanged: number }> {
  let changed = 0;
  let flagsChanged = 0;
  for (let i = 0; i < rows.length; i += ANNOTATION_BATCH) {
    const batch = rows.slice(i, i + ANNOTATION_BATCH);
    const uids = sqlArray(
      batch.map((r) => r.chunkUid),
      "text",
    );
    const sections = sqlArray(
      batch.map((r) => r.section),
      "text",
    );
    const flags = sqlArray(
      batch.map((r) => r.bibliography),
      "bool",
    );
    // as array literals: unnest flattens a two-dimensional array, and these are of different lengths
    const ends = sqlArray(
      batch.map((r) => `{${r.sentenceEnds.join(",")}}`),
      "text",
    );
    const counts = await queryRows<{ n: number; flags: number }>(
      db,
      sql`
      with u as (
        select * from unnest(${uids}, ${sections}, ${flags}, ${ends}) as u(uid, section, bibliography, ends)
      ),
      old as (
        select c.chunk_uid, c.bibliography from ${chunks} c join u on u.uid = c.chunk_uid
      ),
      updated as (
        update ${chunks} set section = u.section, bibliography = u.bibliography, sentence_ends = u.ends::int[]
        from u
        where ${chunks.chunkUid} = u.uid
          and (${chunks.section} is distinct from u.section or ${chunks.bibliography} is distinct from u.bibliography
            or ${chunks.sentenceEnds} is distinct from u.ends::int[])
        returning ${chunks.chunkUid} as uid, u.bibliography
      )
      select count(*)::int as n,
        (count(*) filter (where o.bibliography is distinct from updated.bibliography))::int as flags
      from updated join old o on o.chunk_uid = updated.uid`,
    );
    changed += Number(counts[0]?.n ?? 0);
    flagsChanged += Number(counts[0]?.flags ?? 0);
  }
  return { changed, flagsChanged };
}

/** Whose authors are read again: no authors stored, and not a list the user cleared on purpose. */
const withoutAuthors = sql`cardinality(${papers.authors}) = 0 and not ('authors' = any(${papers.editedFields}))`;

/** The papers stored without any authors (a list the user cleared on purpose excepted). */
export async function listPapersWithoutAuthors(db: Database): Promise<{ id: string; fileName: string }[]> {
  return db.select({ id: papers.id, fileName: papers.fileName }).from(papers).where(withoutAuthors);
}

/**
 * Stores the authors of a paper found without any — the condition checked again on the row as it is now: a user's
 * edit committed meanwhile wins. Returns whether they were written.
 */
export async function setMissingAuthors(
  db: Database,
  { paperId, authors }: { paperId: string; authors: string[] },
): Promise<boolean> {
  const updated = await db
    .update(papers)
    .set({ authors })
    .where(sql`${papers.id} = ${paperId} and ${withoutAuthors}`)
    .returning({ id: papers.id });
  return updated.length > 0;
}
