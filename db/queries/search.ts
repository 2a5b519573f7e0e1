import { type SQL, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";

// No `import "server-only"` here: the CLI and the benchmarks run these same queries outside Next.js.

/** The two searchable indexes: page chunks and summary passages. */
export type SearchTable = "chunks" | "summary_chunks";

export interface SearchFilters {
  paperIds?: string[];
  yearFrom?: number;
  yearTo?: number;
  category?: string;
}

/** Only lexemes of this shape reach a tsquery: letters, digits and combining marks — no tsquery syntax at all. */
const SAFE_LEXEME = /^[\p{L}\p{N}\p{M}]{1,64}$/u;

function tableSql(table: SearchTable): SQL {
  return sql.raw(table === "chunks" ? "chunks" : "summary_chunks");
}

function filterSql(f: SearchFilters): SQL {
  const parts: SQL[] = [sql`p.status = 'ready'`];
  if (f.paperIds && f.paperIds.length > 0) {
    parts.push(
      sql`c.paper_id in (${sql.join(
        f.paperIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  if (f.yearFrom !== undefined) parts.push(sql`p.year >= ${f.yearFrom}`);
  if (f.yearTo !== undefined) parts.push(sql`p.year <= ${f.yearTo}`);
  if (f.category) parts.push(sql`${f.category} = any(p.categories)`);
  return sql.join(parts, sql` and `);
}

function textArray(values: string[]): SQL {
  if (values.length === 0) return sql`array[]::text[]`;
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

function floatArray(values: number[]): SQL {
  if (values.length === 0) return sql`array[]::float8[]`;
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::float8[]`;
}

/** `'a' | 'b' | 'c'` over already-stemmed, validated lexemes: an OR query, parsed with the `simple` configuration. */
function orTsQuery(lexemes: string[]): SQL {
  const safe = lexemes.filter((l) => SAFE_LEXEME.test(l));
  const text = safe.map((l) => `'${l}'`).join(" | ");
  return sql`to_tsquery('simple', ${text})`;
}

/**
 * The English lexemes (stemmed, stop words removed) of each query text, in order of first appearance. The texts must
 * already be sanitised into plain words (lib/search/query.ts); this only asks Postgres for its stemmer.
 */
export async function getQueryLexemes(db: Database, { texts }: { texts: string[] }): Promise<string[][]> {
  if (texts.length === 0) return [];
  const r = await queryRows<{ i: number; lexemes: string[] | null }>(
    db,
    sql`
    select t.i::int as i,
      (select array_agg(u.lexeme order by u.first_pos)
         from (select lexeme, positions[1] as first_pos from unnest(to_tsvector('english', t.q))) u) as lexemes
    from unnest(${textArray(texts)}) with ordinality as t(q, i)
    order by t.i`,
  );
  const out: string[][] = texts.map(() => []);
  for (const row of r) {
    const lexemes = (row.lexemes ?? []).filter((l) => SAFE_LEXEME.test(l));
    out[Number(row.i) - 1] = lexemes;
  }
  return out;
}

export interface LexemeStats {
  /** Rows in the table (the N of IDF). */
  total: number;
  /** Mean number of distinct lexemes per row (BM25 length normalisation). */
  avgLength: number;
  /** Rows containing each lexeme. */
  df: Map<string, number>;
}

/** Rows in the table: cheap, and what the statistics cache is keyed on. */
export async function countRows(db: Database, { table }: { table: SearchTable }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${tableSql(table)}`);
  return Number(row?.n ?? 0);
}

/** Mean tsvector length (distinct lexemes per row). Reads every row: callers cache it. */
export async function getAverageLength(db: Database, { table }: { table: SearchTable }): Promise<number> {
  const [row] = await queryRows<{ avg: number | null }>(
    db,
    sql`select avg(length(tsv))::float8 as avg from ${tableSql(table)}`,
  );
  return Number(row?.avg ?? 0) || 1;
}

/** Document frequency of each lexeme, in one pass over the table (one `count(*) filter` per lexeme). */
export async function getDocumentFrequencies(
  db: Database,
  { table, lexemes }: { table: SearchTable; lexemes: string[] },
): Promise<Map<string, number>> {
  const safe = [...new Set(lexemes.filter((l) => SAFE_LEXEME.test(l)))];
  const out = new Map<string, number>();
  if (safe.length === 0) return out;
  const cols = safe.map(
    (l, i) => sql`count(*) filter (where tsv @@ to_tsquery('simple', ${`'${l}'`}))::int as ${sql.raw(`d${i}`)}`,
  );
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select ${sql.join(cols, sql`, `)} from ${tableSql(table)}`,
  );
  safe.forEach((l, i) => {
    out.set(l, Number(row?.[`d${i}`] ?? 0));
  });
  return out;
}

export interface FullTextHit {
  chunkUid: string;
  paperId: string;
  /** BM25 over the query's lexemes (IDF-weighted, length-normalised). */
  bm25: number;
  /** Postgres cover density (`ts_rank_cd`): rewards the query's terms appearing close together. */
  coverDensity: number;
  /** Query lexemes present in the row. */
  matched: string[];
}

/**
 * Full-text candidates: rows matching ANY of `matchLexemes` (an OR tsquery, through the GIN index), scored by BM25
 * over all the query's lexemes from the stored positions (term frequency = number of positions), and by `ts_rank_cd`
 * (cover density: the query's terms close together). Ranked by BM25.
 */
export async function searchFullText(
  db: Database,
  {
    table,
    lexemes,
    matchLexemes,
    idf,
    avgLength,
    filters,
    limit,
    k1 = 1.2,
    b = 0.5,
  }: {
    table: SearchTable;
    lexemes: string[];
    /** The lexemes that select candidates (the rarer ones); all of `lexemes` count in the score. */
    matchLexemes?: string[];
    idf: number[];
    avgLength: number;
    filters: SearchFilters;
    limit: number;
    k1?: number;
    b?: number;
  },
): Promise<FullTextHit[]> {
  const safe: string[] = [];
  const weights: number[] = [];
  lexemes.forEach((l, i) => {
    if (SAFE_LEXEME.test(l) && !safe.includes(l)) {
      safe.push(l);
      weights.push(idf[i] ?? 0);
    }
  });
  if (safe.length === 0) return [];
  const t = tableSql(table);
  const match = (matchLexemes ?? safe).filter((l) => safe.includes(l));
  // Candidates come through the GIN index: the planner, misled by wide rows, would rather scan (and detoast) every
  // tsvector, several times slower. The idf of each matched lexeme is looked up by its position in the query's list.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`,
    );
    return queryRows<{
      chunk_uid: string;
      paper_id: string;
      bm25: number;
      cover_density: number;
      matched: string[];
    }>(
      tx,
      sql`
    with cand as materialized (
      select c.chunk_uid, c.paper_id, c.tsv, greatest(length(c.tsv), 1)::float8 as dl
      from ${t} c join papers p on p.id = c.paper_id
      where c.tsv @@ ${orTsQuery(match.length > 0 ? match : safe)} and ${filterSql(filters)}
    ),
    scored as (
      select cand.chunk_uid, cand.paper_id, cand.tsv,
        sum((${floatArray(weights)})[array_position(${textArray(safe)}, u.lexeme)]
            * (u.tf * (${k1}::float8 + 1))
            / (u.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * cand.dl / ${avgLength}::float8))) as bm25,
        array_agg(u.lexeme) as matched
      from cand
      cross join lateral (
        select lexeme, coalesce(array_length(positions, 1), 1)::float8 as tf
        from unnest(cand.tsv) where lexeme = any(${textArray(safe)})
      ) u
      group by cand.chunk_uid, cand.paper_id, cand.tsv
    )
    select chunk_uid, paper_id, bm25::float8 as bm25,
      ts_rank_cd(tsv, ${orTsQuery(safe)}, 1)::float8 as cover_density, matched
    from scored
    order by bm25 desc, chunk_uid
    limit ${limit}::int`,
    );
  });
  return rows.map((row) => ({
    chunkUid: row.chunk_uid,
    paperId: row.paper_id,
    bm25: Number(row.bm25),
    coverDensity: Number(row.cover_density),
    matched: row.matched ?? [],
  }));
}

export interface VectorHit {
  chunkUid: string;
  paperId: string;
  /** Cosine similarity, 1 − cosine distance. */
  similarity: number;
}

/**
 * Nearest rows by cosine distance through the HNSW index. `ef_search` and iterative scans are set for this transaction
 * only (SET LOCAL via set_config), so filtered searches still find `limit` rows; the materialised CTE restores exact
 * distance order after the relaxed-order scan.
 */
export async function searchVector(
  db: Database,
  {
    table,
    embedding,
    filters,
    limit,
    efSearch = 100,
  }: { table: SearchTable; embedding: number[]; filters: SearchFilters; limit: number; efSearch?: number },
): Promise<VectorHit[]> {
  const t = tableSql(table);
  const vec = `[${embedding.map((x) => (Number.isFinite(x) ? x : 0)).join(",")}]`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('hnsw.ef_search', ${String(Math.max(limit, efSearch))}, true),
      set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
    const r = await queryRows<{ chunk_uid: string; paper_id: string; distance: number }>(
      tx,
      sql`
      with nearest as materialized (
        select c.chunk_uid, c.paper_id, c.embedding <=> ${vec}::vector as distance
        from ${t} c join papers p on p.id = c.paper_id
        where c.embedding is not null and ${filterSql(filters)}
        order by c.embedding <=> ${vec}::vector
        limit ${limit}
      )
      select chunk_uid, paper_id, distance::float8 as distance from nearest order by distance, chunk_uid`,
    );
    return r.map((row) => ({
      chunkUid: row.chunk_uid,
      paperId: row.paper_id,
      similarity: 1 - Number(row.distance),
    }));
  });
}

export interface ContentRow {
  chunkUid: string;
  paperId: string;
  pageNumber: number;
  chunkIndex: number;
  charStart: number;
  charEnd: number;
  text: string;
  title: string;
  year: number | null;
  embedding: number[] | null;
  /** Lexemes of the row, restricted to the ones asked about. */
  lexemes: string[];
}

function parseVector(v: unknown): number[] | null {
  if (v == null) return null;
  if (Array.isArray(v)) return v.map(Number);
  if (typeof v === "string") return JSON.parse(v) as number[];
  return null;
}

/** Page chunks by uid, with their paper's title, embedding, and which of `lexemes` they contain. */
export async function getContentRows(
  db: Database,
  { chunkUids, lexemes }: { chunkUids: string[]; lexemes: string[] },
): Promise<ContentRow[]> {
  if (chunkUids.length === 0) return [];
  const r = await queryRows<{
    chunk_uid: string;
    paper_id: string;
    page_number: number;
    chunk_index: number;
    char_start: number;
    char_end: number;
    text: string;
    title: string;
    year: number | null;
    embedding: string | null;
    lexemes: string[] | null;
  }>(
    db,
    sql`
    select c.chunk_uid, c.paper_id, c.page_number, c.chunk_index, c.char_start, c.char_end, c.text,
      p.title, p.year, c.embedding::text as embedding,
      array(select x from unnest(tsvector_to_array(c.tsv)) x where x = any(${textArray(lexemes)})) as lexemes
    from chunks c join papers p on p.id = c.paper_id
    where c.chunk_uid in (${sql.join(
      chunkUids.map((u) => sql`${u}`),
      sql`, `,
    )})`,
  );
  return r.map((row) => ({
    chunkUid: row.chunk_uid,
    paperId: row.paper_id,
    pageNumber: Number(row.page_number),
    chunkIndex: Number(row.chunk_index),
    charStart: Number(row.char_start),
    charEnd: Number(row.char_end),
    text: row.text,
    title: row.title,
    year: row.year == null ? null : Number(row.year),
    embedding: parseVector(row.embedding),
    lexemes: row.lexemes ?? [],
  }));
}

export interface SummaryRow {
  chunkUid: string;
  paperId: string;
  chunkIndex: number;
  charStart: number;
  charEnd: number;
  text: string;
  pages: number[];
  title: string;
  year: number | null;
  authors: string[];
  embedding: number[] | null;
  lexemes: string[];
}

/** Summary passages by uid, with their paper's title, year and authors. */
export async function getSummaryRows(
  db: Database,
  { chunkUids, lexemes }: { chunkUids: string[]; lexemes: string[] },
): Promise<SummaryRow[]> {
  if (chunkUids.length === 0) return [];
  const r = await queryRows<{
    chunk_uid: string;
    paper_id: string;
    chunk_index: number;
    char_start: number;
    char_end: number;
    text: string;
    pages: number[] | null;
    title: string;
    year: number | null;
    authors: string[] | null;
    embedding: string | null;
    lexemes: string[] | null;
  }>(
    db,
    sql`
    select c.chunk_uid, c.paper_id, c.chunk_index, c.char_start, c.char_end, c.text, c.pages,
      p.title, p.year, p.authors, c.embedding::text as embedding,
      array(select x from unnest(tsvector_to_array(c.tsv)) x where x = any(${textArray(lexemes)})) as lexemes
    from summary_chunks c join papers p on p.id = c.paper_id
    where c.chunk_uid in (${sql.join(
      chunkUids.map((u) => sql`${u}`),
      sql`, `,
    )})`,
  );
  return r.map((row) => ({
    chunkUid: row.chunk_uid,
    paperId: row.paper_id,
    chunkIndex: Number(row.chunk_index),
    charStart: Number(row.char_start),
    charEnd: Number(row.char_end),
    text: row.text,
    pages: (row.pages ?? []).map(Number),
    title: row.title,
    year: row.year == null ? null : Number(row.year),
    authors: row.authors ?? [],
    embedding: parseVector(row.embedding),
    lexemes: row.lexemes ?? [],
  }));
}

/** Which of `lexemes` occur in each paper's title (a field weight: the title names what the paper is about). */
export async function getTitleLexemes(
  db: Database,
  { paperIds, lexemes }: { paperIds: string[]; lexemes: string[] },
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (paperIds.length === 0 || lexemes.length === 0) return out;
  const r = await queryRows<{ id: string; lexemes: string[] | null }>(
    db,
    sql`
    select p.id, array(select x from unnest(tsvector_to_array(to_tsvector('english', p.title))) x
                       where x = any(${textArray(lexemes)})) as lexemes
    from papers p where p.id in (${sql.join(
      paperIds.map((u) => sql`${u}`),
      sql`, `,
    )})`,
  );
  for (const row of r) out.set(row.id, row.lexemes ?? []);
  return out;
}
