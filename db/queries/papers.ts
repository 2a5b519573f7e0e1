import { and, asc, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunks, type Paper, pages, papers, type Summary, summaries, summaryChunks } from "@/db/schema";
import { sqlArray, sqlList } from "@/db/sql";
import { noteContentChanged } from "./meta";
import { type VectorTable, vectorTable } from "./vectors";

// No `import "server-only"` here: the CLI runs these same queries outside Next.js.

export type PaperSort = "added" | "year" | "title";

export interface PaperListItem {
  id: string;
  title: string;
  authors: string[];
  year: number | null;
  arxivId: string | null;
  pageCount: number;
  status: Paper["status"];
  error: string | null;
  createdAt: Date;
  hasSummary: boolean;
}

/** Escape LIKE wildcards so a user's `%` or `_` is matched literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listPapers(
  db: Database,
  { query, sort = "added", limit = 500 }: { query?: string; sort?: PaperSort; limit?: number } = {},
): Promise<PaperListItem[]> {
  const q = query?.trim();
  const where = q
    ? or(
        ilike(papers.title, likePattern(q)),
        ilike(papers.id, likePattern(q)),
        sql`exists (select 1 from unnest(${papers.authors}) a where a ilike ${likePattern(q)})`,
      )
    : undefined;
  const order =
    sort === "year"
      ? [sql`${papers.year} desc nulls last`, desc(papers.createdAt)]
      : sort === "title"
        ? [asc(papers.title)]
        : [desc(papers.createdAt)];
  return db
    .select({
      id: papers.id,
      title: papers.title,
      authors: papers.authors,
      year: papers.year,
      arxivId: papers.arxivId,
      pageCount: papers.pageCount,
      status: papers.status,
      error: papers.error,
      createdAt: papers.createdAt,
      hasSummary: sql<boolean>`exists (select 1 from ${summaries} s where s.paper_id = ${papers.id})`,
    })
    .from(papers)
    .where(where)
    .orderBy(...order)
    .limit(limit);
}

export async function getPaper(db: Database, { id }: { id: string }): Promise<Paper | null> {
  const [row] = await db.select().from(papers).where(eq(papers.id, id)).limit(1);
  return row ?? null;
}

/** Every paper's id with the file name it was ingested from (question sets may name papers by file). */
export async function listPaperFileNames(db: Database): Promise<{ id: string; fileName: string }[]> {
  return db.select({ id: papers.id, fileName: papers.fileName }).from(papers);
}

/** Papers by id (missing ids are left out). */
export async function getPapersByIds(db: Database, { ids }: { ids: string[] }): Promise<Paper[]> {
  if (ids.length === 0) return [];
  return db.select().from(papers).where(inArray(papers.id, ids));
}

export async function getPaperByDocId(db: Database, { docId }: { docId: string }): Promise<Paper | null> {
  const [row] = await db.select().from(papers).where(eq(papers.docId, docId)).limit(1);
  return row ?? null;
}

export async function getPaperDetail(
  db: Database,
  { id }: { id: string },
): Promise<{ paper: Paper; summary: Summary | null; chunkCount: number } | null> {
  const paper = await getPaper(db, { id });
  if (!paper) return null;
  const [[summary], [count]] = await Promise.all([
    db.select().from(summaries).where(eq(summaries.paperId, id)).limit(1),
    db.select({ n: sql<number>`count(*)::int` }).from(chunks).where(eq(chunks.paperId, id)),
  ]);
  return { paper, summary: summary ?? null, chunkCount: count?.n ?? 0 };
}

export async function getPageText(
  db: Database,
  { paperId, pageNumber }: { paperId: string; pageNumber: number },
): Promise<string | null> {
  const [row] = await db
    .select({ text: pages.text })
    .from(pages)
    .where(and(eq(pages.paperId, paperId), eq(pages.pageNumber, pageNumber)))
    .limit(1);
  return row?.text ?? null;
}

/** The stored texts of the given pages (of any papers), keyed `paperId|pageNumber`; pages not stored are absent. */
export async function getPageTextsByKey(
  db: Database,
  { keys }: { keys: { paperId: string; pageNumber: number }[] },
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (keys.length === 0) return out;
  const rows = await db
    .select({ paperId: pages.paperId, pageNumber: pages.pageNumber, text: pages.text })
    .from(pages)
    .where(or(...keys.map((k) => and(eq(pages.paperId, k.paperId), eq(pages.pageNumber, k.pageNumber)))));
  for (const r of rows) out.set(`${r.paperId}|${r.pageNumber}`, r.text);
  return out;
}

/** The passages (page chunks, reference lists left out) of the pages named, in page and chunk order. */
export async function getPageChunks(
  db: Database,
  { keys }: { keys: { paperId: string; pageNumber: number }[] },
): Promise<
  { chunkUid: string; paperId: string; pageNumber: number; charStart: number; charEnd: number; text: string }[]
> {
  if (keys.length === 0) return [];
  return db
    .select({
      chunkUid: chunks.chunkUid,
      paperId: chunks.paperId,
      pageNumber: chunks.pageNumber,
      charStart: chunks.charStart,
      charEnd: chunks.charEnd,
      text: chunks.text,
    })
    .from(chunks)
    .where(
      and(
        eq(chunks.bibliography, false),
        or(...keys.map((k) => and(eq(chunks.paperId, k.paperId), eq(chunks.pageNumber, k.pageNumber)))),
      ),
    )
    .orderBy(asc(chunks.paperId), asc(chunks.pageNumber), asc(chunks.chunkIndex));
}

/** A paper's stored page texts, in page order. */
export async function getPageTexts(
  db: Database,
  { paperId }: { paperId: string },
): Promise<{ pageNumber: number; text: string }[]> {
  return db
    .select({ pageNumber: pages.pageNumber, text: pages.text })
    .from(pages)
    .where(eq(pages.paperId, paperId))
    .orderBy(pages.pageNumber);
}

/** Deletes the paper; pages, chunks and summaries go with it (ON DELETE CASCADE). Returns the stored file's path. */
export async function deletePaper(db: Database, { id }: { id: string }): Promise<{ filePath: string } | null> {
  const [row] = await db.delete(papers).where(eq(papers.id, id)).returning({ filePath: papers.filePath });
  if (row) noteContentChanged();
  return row ?? null;
}

export async function countPapersUsingFile(db: Database, { filePath }: { filePath: string }): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(papers).where(eq(papers.filePath, filePath));
  return row?.n ?? 0;
}

export interface LibraryStats {
  papers: number;
  pages: number;
  chunks: number;
  summaryChunks: number;
  embeddedChunks: number;
  /** Page chunks of the papers' reference lists (left out of content search unless asked for). */
  bibliographyChunks: number;
  /** Bytes on disk per table (with its TOAST) and per index. */
  tables: { name: string; bytes: number }[];
  indexes: { name: string; table: string; bytes: number }[];
}

export async function getLibraryStats(db: Database): Promise<LibraryStats> {
  const [counts] = await db
    .select({
      papers: sql<number>`(select count(*)::int from ${papers})`,
      pages: sql<number>`(select count(*)::int from ${pages})`,
      chunks: sql<number>`(select count(*)::int from ${chunks})`,
      summaryChunks: sql<number>`(select count(*)::int from ${summaryChunks})`,
      embeddedChunks: sql<number>`(select count(*)::int from ${chunks} where ${chunks.embedding} is not null)`,
      bibliographyChunks: sql<number>`(select count(*)::int from ${chunks} where ${chunks.bibliography})`,
    })
    .from(sql`(select 1) as one`);
  const tableNames = ["papers", "pages", "chunks", "summaries", "summary_chunks"];
  const rows = await queryRows<{ name: string; table: string | null; kind: string; bytes: string }>(
    db,
    sql`
    select c.relname as name, t.relname as table, c.relkind as kind, pg_total_relation_size(c.oid)::text as bytes
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    left join pg_index i on i.indexrelid = c.oid
    left join pg_class t on t.oid = i.indrelid
    where (c.relkind = 'r' and c.relname in (${sqlList(tableNames)}))
       or (c.relkind = 'i' and t.relname in (${sqlList(tableNames)}))
    order by c.relkind desc, c.relname`,
  );
  return {
    papers: counts?.papers ?? 0,
    pages: counts?.pages ?? 0,
    chunks: counts?.chunks ?? 0,
    summaryChunks: counts?.summaryChunks ?? 0,
    embeddedChunks: counts?.embeddedChunks ?? 0,
    bibliographyChunks: counts?.bibliographyChunks ?? 0,
    tables: rows.filter((r) => r.kind === "r").map((r) => ({ name: r.name, bytes: Number(r.bytes) })),
    indexes: rows
      .filter((r) => r.kind === "i")
      .map((r) => ({ name: r.name, table: r.table ?? "", bytes: Number(r.bytes) })),
  };
}

/** A paper's correctable metadata (lib/library/metadata.ts). */
export interface MetadataFields {
  title: string;
  authors: string[];
  year: number | null;
  publishedDate: string | null;
  categories: string[];
  doi: string | null;
  arxivId: string | null;
}

/** The paper's metadata, its row locked until the end of the calling transaction (edits of one paper queue). */
export async function getPaperMetadataForUpdate(
  tx: Database,
  { id }: { id: string },
): Promise<(MetadataFields & { editedFields: string[] }) | null> {
  const [row] = await tx
    .select({
      title: papers.title,
      authors: papers.authors,
      year: papers.year,
      publishedDate: papers.publishedDate,
      categories: papers.categories,
      doi: papers.doi,
      arxivId: papers.arxivId,
      editedFields: papers.editedFields,
    })
    .from(papers)
    .where(eq(papers.id, id))
    .for("update");
  return row ?? null;
}

export async function writePaperMetadata(
  tx: Database,
  { id, fields, editedFields }: { id: string; fields: MetadataFields; editedFields: string[] },
): Promise<void> {
  await tx
    .update(papers)
    .set({ ...fields, editedFields, updatedAt: new Date() })
    .where(eq(papers.id, id));
}

/** The texts of a paper's passages in `table` (page chunks or summary passages). */
export async function listPassageTexts(
  db: Database,
  { table, paperId }: { table: VectorTable; paperId: string },
): Promise<{ chunkUid: string; text: string }[]> {
  const t = vectorTable(table);
  return db.select({ chunkUid: t.chunkUid, text: t.text }).from(t).where(eq(t.paperId, paperId));
}

/**
 * Writes the search terms of passages of `table` in one statement; their text-search vectors follow (a generated
 * column). The terms come computed (`passageSearchText`, lib/text/terms.ts). The caller calls noteContentChanged
 * once its transaction has committed.
 */
export async function writeSearchText(
  db: Pick<Database, "execute">,
  { table, rows }: { table: VectorTable; rows: { chunkUid: string; searchText: string }[] },
): Promise<void> {
  if (rows.length === 0) return;
  const t = vectorTable(table);
  const uids = sqlArray(
    rows.map((r) => r.chunkUid),
    "text",
  );
  const terms = sqlArray(
    rows.map((r) => r.searchText),
    "text",
  );
  await db.execute(sql`
    update ${t} set search_text = u.terms
    from unnest(${uids}, ${terms}) as u(uid, terms)
    where ${t.chunkUid} = u.uid`);
}
