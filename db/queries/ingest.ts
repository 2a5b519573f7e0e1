import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunks, type NewChunk, type NewPaper, type Paper, pages, papers, summaries, summaryChunks } from "@/db/schema";
import { setLocal, sqlArray } from "@/db/sql";
import { annotateChunks } from "@/lib/ingest/annotate";
import { extractMetadata } from "@/lib/ingest/metadata";
import { passageSearchText } from "@/lib/text/terms";
import { clearHubness } from "./hubness";
import { FIT_VERSION_META_KEY, getMeta, noteContentChanged, setMeta } from "./meta";
import { getPageTexts } from "./papers";

export interface PaperContent {
  paper: NewPaper;
  pages: { pageNumber: number; text: string }[];
  /** A null embedding: the vector comes later (the latent embedder's, once the batch is stored). */
  chunks: (Omit<NewChunk, "paperId" | "tsv" | "searchText"> & { embedding: number[] | null })[];
  summary: { text: string; method: "extractive" | "llm"; model: string | null };
  summaryChunks: {
    chunkUid: string;
    chunkIndex: number;
    text: string;
    charStart: number;
    charEnd: number;
    pages: number[];
    embedding: number[] | null;
  }[];
}

const BATCH = 200;

/**
 * pgvector stores float4; the full float64 text of a vector is twice as long for nothing and parsing it dominated
 * insert time on PGlite. Six decimals keep cosine similarities exact to about 1e-6.
 */
export function toStoredVector(v: number[]): number[] {
  return v.map((x) => Math.round(x * 1e6) / 1e6);
}

async function insertBatched<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/**
 * Writes a paper with everything that belongs to it in ONE transaction. When `replacePaperId` is given, that paper
 * (and by cascade its pages, chunks and summary) is deleted first, in the same transaction — so a failure anywhere
 * leaves the library exactly as it was. `keep` picks what of the replaced paper's row (read and locked in that
 * transaction: an edit committed meanwhile is seen) the new one keeps. Returns the title stored.
 */
export async function savePaperContent(
  db: Database,
  content: PaperContent,
  { replacePaperId, keep }: { replacePaperId?: string; keep?: (replaced: Paper) => Partial<NewPaper> } = {},
): Promise<{ title: string }> {
  const paperId = content.paper.id;
  const saved = await db.transaction(async (tx) => {
    let row: NewPaper = { ...content.paper, status: "ready", updatedAt: new Date() };
    if (replacePaperId) {
      const [replaced] = await tx.select().from(papers).where(eq(papers.id, replacePaperId)).for("update");
      if (replaced && keep) row = { ...row, ...keep(replaced) };
      await tx.delete(papers).where(eq(papers.id, replacePaperId));
    }
    const title = row.title;
    // both kinds of passage: indexed with the paper's title in front, vectors (when already made) as stored
    const passage = <T extends { text: string; embedding: number[] | null }>(c: T) => ({
      ...c,
      paperId,
      searchText: passageSearchText(title, c.text),
      embedding: c.embedding && toStoredVector(c.embedding),
    });
    await tx.insert(papers).values(row);
    await insertBatched(content.pages, (b) => tx.insert(pages).values(b.map((p) => ({ ...p, paperId }))));
    await insertBatched(content.chunks, (b) => tx.insert(chunks).values(b.map(passage)));
    await tx.insert(summaries).values({ paperId, ...content.summary });
    await insertBatched(content.summaryChunks, (b) => tx.insert(summaryChunks).values(b.map(passage)));
    return { title };
  });
  noteContentChanged();
  return saved;
}

export async function countPaperContent(db: Database, { paperId }: { paperId: string }) {
  const [row] = await db
    .select({
      pages: sql<number>`(select count(*)::int from ${pages} where ${pages.paperId} = ${paperId})`,
      chunks: sql<number>`(select count(*)::int from ${chunks} where ${chunks.paperId} = ${paperId})`,
    })
    .from(sql`(select 1) as one`);
  return { pages: row?.pages ?? 0, chunks: row?.chunks ?? 0 };
}

export type VectorTable = "chunks" | "summary_chunks";

/** The table of passages that carry vectors. */
export function vectorTable(table: VectorTable) {
  return table === "chunks" ? chunks : summaryChunks;
}

/**
 * Serialises the writers of passage vectors and of their hubness (a fill computes from the vectors it reads: a writer
 * changing them meanwhile would leave values computed from a mix), across processes, until the end of the calling
 * transaction. The latent refit and fold-in take it, and so does the hubness fill (./hubness.ts).
 */
export async function lockVectorWrites(tx: Pick<Database, "execute">): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('lectern:vector_writes'))`);
}

/** Rows to re-embed, in pages of `limit`, ordered by key (keyset pagination: bounded memory on large libraries). */
export async function listChunkTexts(
  db: Database,
  { table, after, limit }: { table: VectorTable; after: string; limit: number },
): Promise<{ chunkUid: string; text: string }[]> {
  const t = vectorTable(table);
  return db
    .select({ chunkUid: t.chunkUid, text: t.text })
    .from(t)
    .where(sql`${t.chunkUid} > ${after}`)
    .orderBy(t.chunkUid)
    .limit(limit);
}

/**
 * Writes vectors in one statement. An all-zero vector (the latent embedder's, for a passage of words its model does
 * not know: nothing to compare by cosine) is stored as no vector.
 */
export async function updateEmbeddings(
  db: Database,
  { table, rows }: { table: VectorTable; rows: { chunkUid: string; embedding: number[] }[] },
): Promise<void> {
  if (rows.length === 0) return;
  const t = vectorTable(table);
  const uids = sqlArray(
    rows.map((r) => r.chunkUid),
    "text",
  );
  const vectors = sqlArray(
    rows.map((r) => (r.embedding.some((x) => x !== 0) ? `[${toStoredVector(r.embedding).join(",")}]` : null)),
    "text",
  );
  await db.execute(sql`
    update ${t} set embedding = u.v::vector
    from unnest(${uids}, ${vectors}) as u(uid, v)
    where ${t.chunkUid} = u.uid`);
  // a new vector has new neighbours
  await clearHubness(db, { table, chunkUids: rows.map((r) => r.chunkUid) });
}

// 2: the paper's title heads each passage's terms; 3: the tokenizer lower-cases after NFKC (mathematical letters)
export const SEARCH_TEXT_VERSION = 3;
const SEARCH_TEXT_META_KEY = "search_text_version";

/**
 * Fills `search_text` (the paper's title, then the passage: `passageSearchText`) of rows stored before the column
 * existed (migration 0003), and, when the library's `search_text_version` is older than SEARCH_TEXT_VERSION, of every
 * row whose terms the current tokenizer gives differently; returns how many rows it wrote. Quick when there is
 * nothing to do (one count per table). The rows are read once to count those whose terms change (recomputed, not
 * held in memory), then the changed ones are written, all in one transaction with what depends on them: the sentence
 * ends of their papers' chunks (`annotateChunks` counts these terms; unless the sections backfill will read all of
 * them anyway), the mark that has the latent model — fitted on
 * the terms, its vectors projected from them — fitted again (in the background after the server's start:
 * latent-index.ts), and the version. A failure leaves all of it as it was. Writing a row inserts its new version into
 * the HNSW and GIN indexes again — hours for 100k chunks — so when more than `rebuildIndexesAbove` rows of a table
 * change, its HNSW and GIN indexes are dropped, the rows written and the indexes recreated from their own definitions.
 * A tokenizer fix that alters few rows' terms writes only those.
 */
export async function backfillSearchText(
  db: Database,
  {
    batch = 500,
    rebuildIndexesAbove = 5_000,
    maintenanceWorkMem,
  }: {
    batch?: number;
    rebuildIndexesAbove?: number;
    /** For the index rebuild, e.g. `1GB` (an HNSW graph that does not fit builds several times slower). */
    maintenanceWorkMem?: string;
  } = {},
): Promise<number> {
  const version = (await getMeta<number>(db, { key: SEARCH_TEXT_META_KEY })) ?? 1;
  const stale = version < SEARCH_TEXT_VERSION;
  const tables = [
    ["chunks", chunks],
    ["summary_chunks", summaryChunks],
  ] as const;
  type Table = (typeof tables)[number][1];
  type Row = { chunkUid: string; paperId: string; terms: string; changed: boolean };
  const pendingIn = (table: Table) => (stale ? sql`true` : sql`${table.searchText} is null`);
  /** The pending rows of `table` in keyset order, batch by batch, with their terms as the tokenizer now gives them. */
  const scan = async (tx: Pick<Database, "select">, table: Table, each: (rows: Row[]) => Promise<void>) => {
    const pending = pendingIn(table);
    // keyset pagination: when every row is examined, "still pending" cannot be told from the rows themselves
    let after = "";
    for (;;) {
      const rows = await tx
        .select({
          chunkUid: table.chunkUid,
          paperId: table.paperId,
          text: table.text,
          title: papers.title,
          old: table.searchText,
        })
        .from(table)
        .innerJoin(papers, eq(papers.id, table.paperId))
        .where(sql`${pending} and ${table.chunkUid} > ${after}`)
        .orderBy(table.chunkUid)
        .limit(batch);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]?.chunkUid ?? after;
      await each(
        rows.map((r) => {
          const terms = passageSearchText(r.title, r.text);
          return { chunkUid: r.chunkUid, paperId: r.paperId, terms, changed: terms !== r.old };
        }),
      );
    }
  };
  const changedRows = new Map<string, number>();
  for (const [name, table] of tables) {
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${table} where ${pendingIn(table)}`,
    );
    if (Number(count?.n ?? 0) === 0) continue;
    let n = 0;
    await scan(db, table, async (rows) => {
      n += rows.filter((r) => r.changed).length;
    });
    if (n > 0) changedRows.set(name, n);
  }
  if (changedRows.size === 0) {
    if (stale) await setMeta(db, { key: SEARCH_TEXT_META_KEY, value: SEARCH_TEXT_VERSION });
    return 0;
  }
  const annotationsCurrent = ((await getMeta<number>(db, { key: SECTIONS_META_KEY })) ?? 0) >= SECTIONS_VERSION;
  const filled = await db.transaction(async (outer) => {
    const t = outer as unknown as Database;
    let written = 0;
    for (const [name, table] of tables) {
      const n = changedRows.get(name) ?? 0;
      if (n === 0) continue;
      const fill = async (tx: Database) => {
        const papersOfChunks = new Set<string>();
        await scan(tx, table, async (rows) => {
          const changed = rows.filter((r) => r.changed);
          if (changed.length === 0) return;
          const uids = sqlArray(
            changed.map((r) => r.chunkUid),
            "text",
          );
          const terms = sqlArray(
            changed.map((r) => r.terms),
            "text",
          );
          await tx.execute(sql`
            update ${table} set search_text = u.terms
            from unnest(${uids}, ${terms}) as u(uid, terms)
            where ${table.chunkUid} = u.uid`);
          written += changed.length;
          if (name === "chunks") for (const r of changed) papersOfChunks.add(r.paperId);
        });
        // the sentence ends of those papers' chunks count their terms; written here, before the indexes are
        // recreated. A library whose annotations are older gets all of them from the sections backfill, next.
        if (papersOfChunks.size > 0 && annotationsCurrent) {
          for (const paperId of papersOfChunks) await fillPaperSections(tx, paperId);
        }
      };
      if (n <= rebuildIndexesAbove) await fill(t);
      else await withIndexesRebuilt(t, name, { maintenanceWorkMem }, fill);
    }
    await setMeta(t, { key: FIT_VERSION_META_KEY, value: 1 });
    if (stale) await setMeta(t, { key: SEARCH_TEXT_META_KEY, value: SEARCH_TEXT_VERSION });
    return written;
  });
  if (filled > 0) noteContentChanged();
  return filled;
}

/**
 * Version of what is read off the library's chunks at ingest (`annotateChunks`, lib/ingest/annotate.ts: the section
 * finder, the reference-list flag, the sentences' ends): raise it when any of them changes, and libraries read their
 * chunks again at the next start.
 */
// 3: chunks of the reference lists are flagged (`chunks.bibliography`); 4: and their sentences' ends are stored
export const SECTIONS_VERSION = 4;
const SECTIONS_META_KEY = "chunk_sections_version";

/**
 * Finds the `section` of every page chunk again, from each paper's stored pages, when the library's sections come
 * from an older section finder or from none (libraries indexed before migration 0007) — and with it what else is read
 * off a chunk at ingest: its reference-list flag and its sentences' ends (migrations 0009, 0010); the library's
 * `chunk_sections_version` records it (a chunk before its paper's first heading has a null section, so null cannot
 * mark what is left to do). Returns how many chunks changed. One transaction, which first takes an advisory
 * lock and checks the version again: two processes starting at once do the work once (the second waits, then finds
 * it done), and a failure leaves the sections and the version as they were (the next start tries again). A paper
 * whose sections cannot be written (its own savepoint fails) keeps its old ones and is logged; the others go on.
 * Above `rebuildIndexesAbove` chunks the table's HNSW and GIN indexes are dropped first and recreated after (every
 * rewritten row would otherwise be inserted into them again: see backfillSearchText). `onStart` hears the number of
 * chunks when there is work to do.
 */
export async function backfillSections(
  db: Database,
  {
    rebuildIndexesAbove = 5_000,
    maintenanceWorkMem,
    onStart,
  }: { rebuildIndexesAbove?: number; maintenanceWorkMem?: string; onStart?: (chunks: number) => void } = {},
): Promise<number> {
  const current = async (d: Database) => (await getMeta<number>(d, { key: SECTIONS_META_KEY })) ?? 0;
  if ((await current(db)) >= SECTIONS_VERSION) return 0;
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${chunks}`);
  const n = Number(count?.n ?? 0);
  if (n > 0) onStart?.(n);
  const fill = async (tx: Database) => {
    let changed = 0;
    let flagsChanged = 0;
    const paperIds = await tx.select({ id: papers.id }).from(papers).orderBy(papers.id);
    for (const { id } of paperIds) {
      try {
        const r = await tx.transaction((sp) => fillPaperSections(sp as unknown as Database, id));
        changed += r.changed;
        flagsChanged += r.flagsChanged;
      } catch (e) {
        console.error(`[db] sections of paper ${id} not found: ${(e as Error).message}`);
      }
    }
    // the latent model is fitted without the reference lists: once they are flagged differently, it is fitted again
    // at the library's next step
    if (flagsChanged > 0) await setMeta(tx, { key: FIT_VERSION_META_KEY, value: 1 });
    await setMeta(tx, { key: SECTIONS_META_KEY, value: SECTIONS_VERSION });
    return changed;
  };
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.execute(sql`select pg_advisory_xact_lock(hashtext('lectern:sections_backfill'))`);
    if ((await current(t)) >= SECTIONS_VERSION) return 0; // another process did it meanwhile
    return n > rebuildIndexesAbove ? withIndexesRebuilt(t, "chunks", { maintenanceWorkMem }, fill) : fill(t);
  });
}

/**
 * Writes the annotations of one paper's chunks (`annotateChunks`: section, reference-list flag, sentences' ends), in
 * batches of four bind parameters per chunk; returns how many changed, and how many of those changed their flag.
 */
async function fillPaperSections(db: Database, paperId: string): Promise<{ changed: number; flagsChanged: number }> {
  const [paperPages, paperChunks] = await Promise.all([
    getPageTexts(db, { paperId }),
    db
      .select({
        chunkUid: chunks.chunkUid,
        pageNumber: chunks.pageNumber,
        charStart: chunks.charStart,
        charEnd: chunks.charEnd,
        text: chunks.text,
      })
      .from(chunks)
      .where(eq(chunks.paperId, paperId)),
  ]);
  const annotations = annotateChunks(paperPages, paperChunks);
  const labels = annotations.map((a) => a.section);
  const bibliography = annotations.map((a) => a.bibliography);
  // as array literals: unnest flattens a two-dimensional array, and these are of different lengths
  const ends = annotations.map((a) => `{${a.sentenceEnds.join(",")}}`);
  let changed = 0;
  let flagsChanged = 0;
  for (let i = 0; i < paperChunks.length; i += SECTION_BATCH) {
    const uids = paperChunks.slice(i, i + SECTION_BATCH).map((c) => c.chunkUid);
    const rows = await queryRows<{ n: number; flags: number }>(
      db,
      sql`
      with u as (
        select * from unnest(${sqlArray(uids, "text")}, ${sqlArray(labels.slice(i, i + SECTION_BATCH), "text")},
          ${sqlArray(bibliography.slice(i, i + SECTION_BATCH), "bool")},
          ${sqlArray(ends.slice(i, i + SECTION_BATCH), "text")}) as u(uid, section, bibliography, ends)
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
    changed += Number(rows[0]?.n ?? 0);
    flagsChanged += Number(rows[0]?.flags ?? 0);
  }
  return { changed, flagsChanged };
}

const SECTION_BATCH = 5_000;

/**
 * Version of the author reading (lib/ingest/metadata.ts) that `backfillAuthors` has applied: raise it when the reading
 * learns to find authors it used to miss, and papers stored without authors are read again at the next start.
 */
// 2: a collective author under a title of one line (it was read as the title's second line)
export const AUTHORS_VERSION = 2;
const AUTHORS_META_KEY = "paper_authors_version";

/**
 * Reads the authors again, from the stored first pages, of every paper stored without any — only those: authors
 * found before are never overwritten. Re-ingesting an unchanged file is a no-op, so
 * without this a paper would keep "Unknown authors" after the reading improved. The PDF's own Author field is not
 * stored, but a paper with an empty author list had none that counted. One transaction with an advisory lock and the
 * version checked again inside it (as `backfillSections`). Returns how many papers gained authors.
 */
export async function backfillAuthors(db: Database): Promise<number> {
  const current = async (d: Database) => (await getMeta<number>(d, { key: AUTHORS_META_KEY })) ?? 0;
  if ((await current(db)) >= AUTHORS_VERSION) return 0;
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.execute(sql`select pg_advisory_xact_lock(hashtext('lectern:authors_backfill'))`);
    if ((await current(t)) >= AUTHORS_VERSION) return 0;
    const missing = await t
      .select({ id: papers.id, fileName: papers.fileName })
      .from(papers)
      // a list the user cleared on purpose stays empty
      .where(sql`cardinality(${papers.authors}) = 0 and not ('authors' = any(${papers.editedFields}))`);
    let found = 0;
    for (const paper of missing) {
      const stored = await getPageTexts(t, { paperId: paper.id });
      const { authors } = extractMetadata({
        pages: stored.slice(0, 8).map((p) => p.text),
        info: {},
        fileName: paper.fileName,
      });
      if (authors.length === 0) continue;
      // the condition again on the row as it is now: a user's edit committed meanwhile wins
      const updated = await t
        .update(papers)
        .set({ authors })
        .where(
          sql`${papers.id} = ${paper.id} and cardinality(${papers.authors}) = 0 and not ('authors' = any(${papers.editedFields}))`,
        )
        .returning({ id: papers.id });
      found += updated.length;
    }
    await setMeta(t, { key: AUTHORS_META_KEY, value: AUTHORS_VERSION });
    return found;
  });
}

/**
 * Runs `fill` — a rewrite of many rows of `table` — with the table's HNSW and GIN indexes dropped, then recreates them
 * from their own definitions, all in one transaction (a failure leaves the table and its indexes as they were).
 * Rewriting a row inserts its new version into every index again; for thousands of rows, rebuilding is much faster.
 */
export async function withIndexesRebuilt<T>(
  db: Database,
  table: VectorTable,
  { maintenanceWorkMem }: { maintenanceWorkMem?: string },
  fill: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const indexes = await queryRows<{ indexname: string; indexdef: string }>(
      tx,
      sql`select indexname, indexdef from pg_indexes
          where schemaname = current_schema() and tablename = ${table}
            and (indexdef ilike '% using hnsw %' or indexdef ilike '% using gin %')`,
    );
    for (const ix of indexes) await tx.execute(sql`drop index ${sql.identifier(ix.indexname)}`);
    const out = await fill(tx as unknown as Database);
    // serial: a parallel HNSW build holds the graph in shared memory of that size, more than a container's
    // default /dev/shm (64 MB) allows
    if (maintenanceWorkMem) {
      await setLocal(tx, { maintenance_work_mem: maintenanceWorkMem, max_parallel_maintenance_workers: "0" });
    }
    for (const ix of indexes) await tx.execute(sql.raw(ix.indexdef));
    return out;
  });
}
