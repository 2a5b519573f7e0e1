import { type SQL, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { hnswKeyType } from "@/db/schema";
import { setLocal, sqlArray, sqlArrayParam, sqlList } from "@/db/sql";
import { hubnessTable } from "./hubness";
import { getHnswPrecision } from "./meta";

// No `import "server-only"` here: the CLI and the benchmarks run these same queries outside Next.js.

/** The two searchable indexes: page chunks and summary passages. */
export type SearchTable = "chunks" | "summary_chunks";

export interface SearchFilters {
  paperIds?: string[];
  yearFrom?: number;
  yearTo?: number;
  category?: string;
  /** Page chunks of the papers' reference lists are searched too (`chunks.bibliography`); content search leaves them out. */
  includeBibliography?: boolean;
}

/** Only lexemes of this shape reach a tsquery: letters, digits and combining marks — no tsquery syntax at all. */
const SAFE_LEXEME = /^[\p{L}\p{N}\p{M}]{1,64}$/u;

function tableSql(table: SearchTable): SQL {
  return sql.raw(table === "chunks" ? "chunks" : "summary_chunks");
}

function filterSql(f: SearchFilters, table: SearchTable): SQL {
  const parts: SQL[] = [sql`p.status = 'ready'`];
  if (table === "chunks" && !f.includeBibliography) parts.push(sql`not c.bibliography`);
  if (f.paperIds && f.paperIds.length > 0) {
    parts.push(sql`c.paper_id in (${sqlList(f.paperIds)})`);
  }
  if (f.yearFrom !== undefined) parts.push(sql`p.year >= ${f.yearFrom}`);
  if (f.yearTo !== undefined) parts.push(sql`p.year <= ${f.yearTo}`);
  if (f.category) parts.push(sql`${f.category} = any(p.categories)`);
  return sql.join(parts, sql` and `);
}

/**
 * A tsvector cut down to the lexemes among `lexemes`, positions kept: they are marked with weight A (stored vectors
 * carry none: `to_tsvector` gives D) and filtered on it, all in C — unnesting the whole vector to compare each lexeme
 * costs several times more.
 */
function termCut(tsv: SQL, lexemes: string[]): SQL {
  return sql`ts_filter(setweight(${tsv}, 'A', ${sqlArrayParam(lexemes, "text")}), '{a}')`;
}

/** `'a' | 'b' | 'c'` over already-stemmed, validated lexemes: an OR query, parsed with the `simple` configuration. */
function orTsQuery(lexemes: string[]): SQL {
  const safe = lexemes.filter((l) => SAFE_LEXEME.test(l));
  const text = safe.map((l) => `'${l}'`).join(" | ");
  return sql`to_tsquery('simple', ${text})`;
}

/**
 * The index lexemes of each query, in order of first appearance, and (unless `withCount` is false) the row count of
 * `table` (what the statistics cache is checked against) in the same round trip — plus, when `metaKey` is given, that library_meta value (the search reads
 * the embedding signature this way instead of in a round trip of its own). `texts` are the queries' terms as the
 * index stores them (`searchText` of lib/text/terms.ts); Postgres's `simple` parser turns them into lexemes exactly as
 * it did for the stored rows, so both sides always agree.
 */
export async function getQueryLexemes(
  db: Database,
  {
    texts,
    table,
    metaKey,
    withCount = true,
  }: { texts: string[]; table: SearchTable; metaKey?: string; withCount?: boolean },
): Promise<{ lexemes: string[][]; rows: number | null; meta: unknown }> {
  const r = await queryRows<{ i: number | null; lexemes: string[] | null; n: number | null; meta: unknown }>(
    db,
    sql`
    select t.i::int as i, ${withCount ? sql`(select count(*) from ${tableSql(table)})::int` : sql`null::int`} as n,
      ${metaKey ? sql`(select m.value from library_meta m where m.key = ${metaKey})` : sql`null::jsonb`} as meta,
      (select array_agg(u.lexeme order by u.first_pos)
         from (select lexeme, positions[1] as first_pos from unnest(to_tsvector('simple', t.q))) u) as lexemes
    from (select null::text as q, null::bigint as i union all
          select * from unnest(${sqlArray(texts, "text")}) with ordinality) as t(q, i)
    order by t.i nulls first`,
  );
  const lexemes: string[][] = texts.map(() => []);
  for (const row of r) {
    if (row.i == null) continue;
    lexemes[Number(row.i) - 1] = (row.lexemes ?? []).filter((l) => SAFE_LEXEME.test(l));
  }
  const meta = r[0]?.meta ?? null;
  const n = r[0]?.n;
  return {
    lexemes,
    rows: withCount ? Number(n ?? 0) : null,
    meta: typeof meta === "string" ? JSON.parse(meta) : meta,
  };
}

export interface LexemeStats {
  /** Rows in the table (the N of IDF). */
  total: number;
  /** Mean number of distinct lexemes per row (BM25 length normalisation). */
  avgLength: number;
  /** Rows containing each lexeme. */
  df: Map<string, number>;
}

/**
 * Mean tsvector length (distinct lexemes per row) and, for page chunks, mean sentence length in search terms
 * (`sentence_ends`, reference lists left out: the length normalisation of a best-sentence score; null before any row
 * has its sentences). One pass over every row: callers cache them.
 */
export async function getAverageLengths(
  db: Database,
  { table }: { table: SearchTable },
): Promise<{ avgLength: number; avgSentenceLength: number | null }> {
  const sentences =
    table === "chunks"
      ? sql`(sum(c.sentence_ends[cardinality(c.sentence_ends)]) filter (where not c.bibliography))::float8
            / nullif(sum(cardinality(c.sentence_ends)) filter (where not c.bibliography), 0)`
      : sql`null::float8`;
  const [row] = await queryRows<{ avg: number | null; sentence: number | null }>(
    db,
    sql`select avg(length(c.tsv))::float8 as avg, (${sentences})::float8 as sentence from ${tableSql(table)} c`,
  );
  const sentence = row?.sentence == null ? null : Number(row.sentence);
  return { avgLength: Number(row?.avg ?? 0) || 1, avgSentenceLength: sentence && sentence > 0 ? sentence : null };
}

/**
 * How many rows of the table match each tsquery (`simple` configuration; each `query` built from lexemes that passed
 * SAFE_LEXEME), by key. One GIN lookup per query, forced: a single pass with a count per query reads every row's
 * tsvector, 4–5× slower here and linear in the library's size. `withoutBibliography`: page chunks outside reference
 * lists only.
 */
async function countMatches(
  db: Database,
  table: SearchTable,
  queries: { key: string; query: string }[],
  { withoutBibliography = false }: { withoutBibliography?: boolean } = {},
): Promise<{ key: string; n: number }[]> {
  const notBibliography = withoutBibliography && table === "chunks" ? sql` and not bibliography` : sql``;
  return db.transaction(async (tx) => {
    await setLocal(tx, { enable_seqscan: "off", jit: "off" });
    return queryRows<{ key: string; n: number }>(
      tx,
      sql.join(
        queries.map(
          ({ key, query }) =>
            sql`select ${key}::text as key, count(*)::int as n from ${tableSql(table)} where tsv @@ to_tsquery('simple', ${query})${notBibliography}`,
        ),
        sql` union all `,
      ),
    );
  });
}

/** Document frequency of each lexeme (rows containing it), through the GIN index. */
export async function getDocumentFrequencies(
  db: Database,
  { table, lexemes }: { table: SearchTable; lexemes: string[] },
): Promise<Map<string, number>> {
  const safe = [...new Set(lexemes.filter((l) => SAFE_LEXEME.test(l)))];
  const out = new Map<string, number>();
  if (safe.length === 0) return out;
  const rows = await countMatches(
    db,
    table,
    safe.map((l) => ({ key: l, query: `'${l}'` })),
  );
  for (const row of rows) out.set(row.key, Number(row.n));
  for (const l of safe) if (!out.has(l)) out.set(l, 0);
  return out;
}

/**
 * How many rows hold each two-term phrase (`[first, second]`: the terms side by side, in that order), keyed
 * `"first second"`: one GIN lookup per phrase, positions checked on the rows it finds. Page chunks without their
 * reference lists (as the spelling vocabulary: authors' and venues' names are no words to respell to).
 */
export async function getPhraseFrequencies(
  db: Database,
  { table, phrases }: { table: SearchTable; phrases: [string, string][] },
): Promise<Map<string, number>> {
  const safe = [
    ...new Map(
      phrases.filter(([a, b]) => SAFE_LEXEME.test(a) && SAFE_LEXEME.test(b)).map((p) => [p.join(" "), p] as const),
    ).values(),
  ];
  const out = new Map<string, number>();
  if (safe.length === 0) return out;
  const rows = await countMatches(
    db,
    table,
    safe.map(([a, b]) => ({ key: `${a} ${b}`, query: `'${a}' <-> '${b}'` })),
    { withoutBibliography: true },
  );
  for (const row of rows) out.set(row.key, Number(row.n));
  return out;
}

/**
 * The table's search terms that at least `minRows` rows hold (page chunks: outside reference lists), with how many
 * rows hold each (Postgres's `ts_stat`: one pass over every row's tsvector; the caller caches it).
 */
export async function getVocabulary(
  db: Database,
  { table, minRows }: { table: SearchTable; minRows: number },
): Promise<Map<string, number>> {
  const rows = await queryRows<{ word: string; ndoc: number }>(
    db,
    // (page chunks without their reference lists, which search leaves out: authors' and venues' names are no words
    // to correct a question to)
    sql`select word, ndoc from ts_stat(${table === "chunks" ? "select tsv from chunks where not bibliography" : "select tsv from summary_chunks"}) where ndoc >= ${minRows}`,
  );
  return new Map(rows.map((r) => [r.word, Number(r.ndoc)]));
}

/** The text of one row that holds the search term (null: none does). */
export async function getTextWithTerm(
  db: Database,
  { table, term }: { table: SearchTable; term: string },
): Promise<string | null> {
  if (!SAFE_LEXEME.test(term)) return null;
  const r = await queryRows<{ text: string }>(
    db,
    sql`select text from ${tableSql(table)} where tsv @@ to_tsquery('simple', ${`'${term}'`}) limit 1`,
  );
  return r[0]?.text ?? null;
}

export interface FullTextHit {
  chunkUid: string;
  paperId: string;
  /** BM25 over the query's lexemes (IDF-weighted, length-normalised). */
  bm25: number;
  /**
   * Postgres cover density (`ts_rank_cd` of the query's terms, divided by ln(1 + distinct lexemes of the row)):
   * rewards the query's terms appearing close together. Null when not asked for (`coverDensity: false`).
   */
  coverDensity: number | null;
  /** Query lexemes present in the row. */
  matched: string[];
}

/** One query of a full-text search: its lexemes with their IDF, and the (rarer) ones that select candidates. */
export interface FullTextQuery {
  lexemes: string[];
  /** The lexemes that select candidates (the rarer ones); all of `lexemes` count in the score. Default: all. */
  matchLexemes?: string[];
  /** IDF of each of `lexemes`, same order. */
  idf: number[];
}

/**
 * Full-text candidates for several queries in ONE statement (the research orchestrator sends up to six expanded
 * queries; they share most words, so one candidate pass and one tsvector read serve them all): rows matching ANY
 * query's selecting lexemes (an OR tsquery, through the GIN index), scored for each query by BM25 over that query's
 * lexemes from the stored positions (term frequency = number of positions), best `limit` per query, each with its
 * cover density when `coverDensity` is on (its default). Returns one list per query, by BM25.
 *
 * Cover density is `ts_rank_cd` of the query's OR tsquery over the row's positions (all weighted A by the cut),
 * normalised by ln(1 + distinct lexemes) — but computed as the number of the query's term positions in the row, which
 * is what `ts_rank_cd` returns for such a query: any one occurrence satisfies an OR, so each cover it finds
 * (PostgreSQL's tsrank.c, `Cover`) is a single position, scoring 1 / (1 + 0 noise) at weight A (`calc_rank_cd`,
 * normalisation 0). The term frequencies are counted for BM25 anyway, where `ts_rank_cd` re-read the top rows' cut
 * vectors (stored vectors always carry positions: `to_tsvector` makes them). search.test.ts checks the two agree; on
 * the corpus they agree for every row and question of bench/questions and the dev set (164,728 pairs).
 */
export async function searchFullText(
  db: Database,
  {
    table,
    queries,
    avgLength,
    filters,
    limit,
    coverDensity = true,
    k1 = 1.2,
    b = 0.75,
  }: {
    table: SearchTable;
    queries: FullTextQuery[];
    avgLength: number;
    filters: SearchFilters;
    limit: number;
    coverDensity?: boolean;
    k1?: number;
    b?: number;
  },
): Promise<FullTextHit[][]> {
  const out: FullTextHit[][] = queries.map(() => []);
  // (query index, lexeme, idf, selecting?) rows of the safe lexemes; the OR of every query's selecting lexemes
  const qi: number[] = [];
  const qLexeme: string[] = [];
  const qIdf: number[] = [];
  /** 1 when the lexeme is one of its query's selecting lexemes. */
  const qSel: number[] = [];
  const selecting = new Set<string>();
  queries.forEach((q, i) => {
    const safe = [...new Set(q.lexemes.filter((l) => SAFE_LEXEME.test(l)))];
    const match = (q.matchLexemes ?? safe).filter((l) => safe.includes(l));
    const own = new Set(match.length > 0 ? match : safe);
    for (const l of safe) {
      qi.push(i + 1);
      qLexeme.push(l);
      qIdf.push(q.idf[q.lexemes.indexOf(l)] ?? 0);
      qSel.push(own.has(l) ? 1 : 0);
    }
    for (const l of own) selecting.add(l);
  });
  if (selecting.size === 0) return out;
  const all = [...new Set(qLexeme)];
  const t = tableSql(table);
  // Candidates come through the GIN index: the planner, misled by wide rows, would rather scan (and detoast) every
  // tsvector, several times slower. Each candidate's vector is cut down to the queries' lexemes once (in C); BM25
  // and cover density read only that cut (cover density depends only on the query terms' positions; it is
  // normalised by the log of the row's distinct lexemes), for the rows that make a query's top `limit`.
  // No nested loops either: the planner, costing the CTEs at a couple of rows, joined the top rows back to the
  // candidates by rescanning them for each row (60 × 300 comparisons: 23 → 13 ms per statement on PGlite).
  const rows = await db.transaction(async (tx) => {
    await setLocal(tx, { enable_seqscan: "off", enable_indexscan: "off", enable_nestloop: "off", jit: "off" });
    return queryRows<{
      qi: number;
      chunk_uid: string;
      paper_id: string;
      bm25: number;
      cover_density: number | null;
      matched: string[];
    }>(
      tx,
      sql`
    with q as (
      select * from unnest(${sqlArrayParam(qi, "int")}, ${sqlArrayParam(qLexeme, "text")},
        ${sqlArrayParam(qIdf, "float8")}, ${sqlArrayParam(qSel, "int")}) as q(qi, lexeme, idf, sel)
    ),
    cand as materialized (
      select c.chunk_uid, c.paper_id, greatest(length(c.tsv), 1)::float8 as dl,
        ${termCut(sql`c.tsv`, all)} as qv
      from ${t} c join papers p on p.id = c.paper_id
      where c.tsv @@ ${orTsQuery([...selecting])} and ${filterSql(filters, table)}
    ),
    scored as (
      select q.qi, cand.chunk_uid,
        sum(q.idf * (u.tf * (${k1}::float8 + 1))
            / (u.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * cand.dl / ${avgLength}::float8))) as bm25,
        array_agg(u.lexeme) as matched,
        sum(u.tf) as positions
      from cand
      cross join lateral (
        select lexeme, coalesce(array_length(positions, 1), 1)::float8 as tf from unnest(cand.qv)
      ) u
      join q on q.lexeme = u.lexeme
      group by q.qi, cand.chunk_uid
      -- a query's own list holds only rows one of its own selecting lexemes brought in, whichever queries share the
      -- statement (so a query's list is the same searched alone or with others: the research run's cache relies on it)
      having bool_or(q.sel = 1)
    ),
    top as (
      select * from (
        select scored.*, row_number() over (partition by scored.qi order by scored.bm25 desc, scored.chunk_uid) as rn
        from scored
      ) r where r.rn <= ${limit}::int
    )
    select top.qi::int as qi, top.chunk_uid, cand.paper_id, top.bm25::float8 as bm25,
      ${coverDensity ? sql`(top.positions / ln(cand.dl + 1))::float8` : sql`null::float8`} as cover_density,
      top.matched
    from top join cand on cand.chunk_uid = top.chunk_uid
    order by top.qi, top.rn`,
    );
  });
  for (const row of rows) {
    out[Number(row.qi) - 1]?.push({
      chunkUid: row.chunk_uid,
      paperId: row.paper_id,
      // the database sums a row's terms in whatever order its plan produces them, which moves the last bits: rounded,
      // a query's scores are the same whichever queries share the statement
      bm25: Math.round(Number(row.bm25) * 1e9) / 1e9,
      coverDensity: row.cover_density == null ? null : Number(row.cover_density),
      matched: row.matched ?? [],
    });
  }
  return out;
}

export interface VectorHit {
  chunkUid: string;
  paperId: string;
  /** Cosine similarity, 1 − cosine distance. */
  similarity: number;
  /** The row's hubness (lib/embeddings/hubness.ts); null until computed. */
  hubness: number | null;
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
  const precision = await getHnswPrecision(db);
  return db.transaction(async (tx) => {
    // Over the whole library the HNSW index is the plan we want, but the planner, costing it by ef_search, prefers to
    // compute and sort every distance until the table is large (30 ms instead of 7 at 2,000 chunks on PGlite). Within
    // a few papers (a paper-id filter) the exact scan through the paper index is both faster and exact: left to it.
    // The disabled plans' penalty costs would switch Postgres's JIT on (190 ms of compiling for a 2 ms query): off.
    await setLocal(tx, {
      "hnsw.ef_search": String(Math.max(limit, efSearch)),
      "hnsw.iterative_scan": "relaxed_order",
      ...(filters.paperIds ? {} : { enable_seqscan: "off", enable_sort: "off", jit: "off" }),
    });
    // The walk orders by the index's key (half precision on PostgreSQL: db/schema.ts, HnswPrecision); the distances
    // returned, and the final order, are full precision. A paper filter's exact scan orders by full precision.
    const key = sql.raw(filters.paperIds ? "vector" : hnswKeyType(embedding.length, precision));
    const order = sql`c.embedding::${key} <=> ${vec}::${key}`;
    const r = await queryRows<{ chunk_uid: string; paper_id: string; distance: number; hubness: number | null }>(
      tx,
      sql`
      with nearest as materialized (
        select c.chunk_uid, c.paper_id, c.embedding <=> ${vec}::vector as distance
        from ${t} c join papers p on p.id = c.paper_id
        where c.embedding is not null and ${filterSql(filters, table)}
        order by ${order}
        limit ${limit}
      )
      select n.chunk_uid, n.paper_id, n.distance::float8 as distance, h.hubness::float8 as hubness
      from nearest n left join ${hubnessTable(table)} h on h.chunk_uid = n.chunk_uid
      order by n.distance, n.chunk_uid`,
    );
    return r.map((row) => ({
      chunkUid: row.chunk_uid,
      paperId: row.paper_id,
      similarity: 1 - Number(row.distance),
      hubness: row.hubness === null ? null : Number(row.hubness),
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
  /** The section the chunk starts in ("4 Methodology › 4.2 Crawler"), when the paper's headings were found. */
  section: string | null;
  /** Part of the paper's list of references (searched only when asked for). */
  bibliography: boolean;
  title: string;
  year: number | null;
  /** Lexemes of the row, restricted to the ones asked about. */
  lexemes: string[];
  /**
   * Where in the row's search text each of those lexemes stands (1-based term positions, the title's terms first);
   * empty unless asked for (`withPositions`).
   */
  positions: ReadonlyMap<string, number[]>;
  /** Where each sentence of the chunk ends, in search terms after the title's; null for rows stored before it existed. */
  sentenceEnds: number[] | null;
}

/**
 * Cosine similarity between every pair of the given rows' stored vectors, computed by pgvector, as a symmetric map
 * (rows without a vector are left out). Diversification (MMR) needs only these numbers: reading the vectors
 * themselves, as text, cost more to transfer and parse than the rest of the search (45 vectors of 512 dimensions
 * are ~250 kB of text; their ~1,000 pairwise similarities ~20 kB). The rows come back as their places in `chunkUids`
 * (small integers), not their 32-character uids: 60 rows have 1,770 pairs, and parsing their uids cost the driver
 * more than the similarities did.
 */
export async function getPairwiseSimilarities(
  db: Database,
  { table, chunkUids }: { table: SearchTable; chunkUids: string[] },
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const ids = [...new Set(chunkUids)];
  if (ids.length < 2) return out;
  const r = await queryRows<{ a: number; bs: number[]; sims: number[] }>(
    db,
    sql`
    with v as materialized (
      select u.i::int as i, c.chunk_uid, c.embedding
      from ${tableSql(table)} c join unnest(${sqlArrayParam(ids, "text")}) with ordinality as u(id, i) on u.id = c.chunk_uid
      where c.embedding is not null
    )
    select a.i as a, array_agg(b.i) as bs, array_agg((1 - (a.embedding <=> b.embedding))::float8) as sims
    from v a join v b on b.chunk_uid > a.chunk_uid
    group by a.i`,
  );
  const put = (x: string, y: string, sim: number) => {
    let m = out.get(x);
    if (!m) {
      m = new Map();
      out.set(x, m);
    }
    m.set(y, sim);
  };
  for (const row of r) {
    const a = ids[Number(row.a) - 1];
    if (a === undefined) continue;
    (row.bs ?? []).forEach((bi, i) => {
      const b = ids[Number(bi) - 1];
      const sim = Number(row.sims?.[i]);
      if (b === undefined || !Number.isFinite(sim)) return;
      put(a, b, sim);
      put(b, a, sim);
    });
  }
  return out;
}

/** The text of page chunks by uid (read for the results only: the ranking needs no text). */
export async function getChunkTexts(
  db: Database,
  { chunkUids }: { chunkUids: string[] },
): Promise<Map<string, string>> {
  if (chunkUids.length === 0) return new Map();
  const r = await queryRows<{ chunk_uid: string; text: string }>(
    db,
    sql`select c.chunk_uid, c.text from chunks c where c.chunk_uid = any(${sqlArrayParam(chunkUids, "text")})`,
  );
  return new Map(r.map((row) => [row.chunk_uid, row.text]));
}

/** Whether any of the papers has a searchable page chunk (text and vector; its reference list aside). */
export async function hasSearchableChunks(db: Database, { paperIds }: { paperIds: string[] }): Promise<boolean> {
  if (paperIds.length === 0) return false;
  const r = await queryRows<{ found: boolean }>(
    db,
    sql`select exists (select 1 from chunks c where c.paper_id = any(${sqlArrayParam(paperIds, "text")})
      and not c.bibliography and c.embedding is not null) as found`,
  );
  return r[0]?.found === true;
}

/** Page chunks by uid, with their paper's title and which of `lexemes` they contain (not their text: getChunkTexts). */
export async function getContentRows(
  db: Database,
  { chunkUids, lexemes, withPositions = false }: { chunkUids: string[]; lexemes: string[]; withPositions?: boolean },
): Promise<ContentRow[]> {
  if (chunkUids.length === 0) return [];
  const r = await queryRows<{
    chunk_uid: string;
    paper_id: string;
    page_number: number;
    chunk_index: number;
    char_start: number;
    char_end: number;
    section: string | null;
    bibliography: boolean;
    title: string;
    year: number | null;
    lexemes: string[] | null;
    positions: Record<string, number[]> | string | null;
    sentence_ends: number[] | null;
  }>(
    db,
    sql`
    select c.chunk_uid, c.paper_id, c.page_number, c.chunk_index, c.char_start, c.char_end, c.section, c.bibliography,
      p.title, p.year, c.sentence_ends,
      tsvector_to_array(x.cut) as lexemes,
      ${withPositions ? sql`(select json_object_agg(u.lexeme, u.positions) from unnest(x.cut) u)` : sql`null::json`} as positions
    from chunks c join papers p on p.id = c.paper_id
      cross join lateral (select ${termCut(sql`c.tsv`, lexemes)} as cut) x
    where c.chunk_uid = any(${sqlArrayParam(chunkUids, "text")})`,
  );
  return r.map((row) => ({
    chunkUid: row.chunk_uid,
    paperId: row.paper_id,
    pageNumber: Number(row.page_number),
    chunkIndex: Number(row.chunk_index),
    charStart: Number(row.char_start),
    charEnd: Number(row.char_end),
    section: row.section ?? null,
    bibliography: row.bibliography === true,
    title: row.title,
    year: row.year == null ? null : Number(row.year),
    lexemes: row.lexemes ?? [],
    positions: positionsOf(row.positions),
    sentenceEnds: row.sentence_ends ? row.sentence_ends.map(Number) : null,
  }));
}

/**
 * The JSON object of lexeme → positions as a Map: looked up by the query's words, a plain object would answer
 * "constructor" or "toString" with Object's own members.
 */
function positionsOf(json: Record<string, number[]> | string | null): Map<string, number[]> {
  const parsed = typeof json === "string" ? (JSON.parse(json) as Record<string, number[]>) : json;
  const out = new Map<string, number[]>();
  if (!parsed) return out;
  for (const [lexeme, positions] of Object.entries(parsed)) {
    if (Array.isArray(positions)) out.set(lexeme, positions.map(Number));
  }
  return out;
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
    lexemes: string[] | null;
  }>(
    db,
    sql`
    select c.chunk_uid, c.paper_id, c.chunk_index, c.char_start, c.char_end, c.text, c.pages,
      p.title, p.year, p.authors,
      tsvector_to_array(${termCut(sql`c.tsv`, lexemes)}) as lexemes
    from summary_chunks c join papers p on p.id = c.paper_id
    where c.chunk_uid = any(${sqlArrayParam(chunkUids, "text")})`,
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
    lexemes: row.lexemes ?? [],
  }));
}
