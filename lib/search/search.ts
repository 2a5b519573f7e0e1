import type { Database } from "@/db";
import { getContentEpoch } from "@/db/queries/meta";
import {
  type ContentRow,
  type FullTextHit,
  getAverageLengths,
  getChunkTexts,
  getContentRows,
  getDocumentFrequencies,
  getPairwiseSimilarities,
  getPhraseFrequencies,
  getQueryLexemes,
  getSummaryRows,
  getTextWithTerm,
  getVocabulary,
  type LexemeStats,
  type SearchFilters,
  type SearchTable,
  searchFullText,
  searchVector,
  type VectorHit,
} from "@/db/queries/search";
import { EMBEDDING_META_KEY, ensureEmbeddingSignature } from "@/lib/embeddings/guard";
import type { EmbeddingProvider, EmbeddingSignature } from "@/lib/embeddings/types";
import { LecternError } from "@/lib/errors";
import { escapeRegExp } from "@/lib/text/regexp";
import { americanTerms, forEachWord, searchText, termOf, tokenize } from "@/lib/text/terms";
import { hubnessOrder, maximalMarginalRelevance, type RankedList, RRF_K, reciprocalRankFusion } from "./fusion";
import { classifyIntent, FACT_SEEKING } from "./intent";
import { type ParsedQuery, parseQueries, queryTerms } from "./query";
import { bestSentenceScore } from "./sentences";
import {
  correctable,
  correctionOf,
  cutForms,
  MIN_CORRECTION_ROWS,
  phraseCandidates,
  phraseCorrectable,
  type Vocabulary,
  vocabularyOf,
} from "./spelling";

export type Retriever = "fts" | "vector" | "hybrid";

export interface SearchOptions {
  /** Results wanted. */
  k?: number;
  /** MMR trade-off: 1 = pure relevance, lower = more diverse. */
  mmrAlpha?: number;
  /**
   * Minimum relevance in [0, 1] a result needs (see `relevance` on results); 0 keeps everything. The default is
   * calibrated so a question about a topic absent from the library returns nothing.
   */
  cutoff?: number;
  paperIds?: string[];
  /** Inclusive. */
  yearFrom?: number;
  yearTo?: number;
  /** An arXiv category, e.g. `cs.CL`. */
  category?: string;
  /**
   * Content search also searches the papers' reference lists (page chunks flagged `bibliography` at ingest,
   * lib/text/bibliography.ts), which it leaves out by default: a list of cited titles answers no question about the
   * paper. Summary search has none.
   */
  includeBibliography?: boolean;
  /** Which retrievers run; hybrid fuses both. */
  retriever?: Retriever;
  /**
   * Content search, hybrid: which queries also get the best-sentence ranking (`sentenceRankings`) — all of them
   * (true), none (false), or by default each one the rules of lib/search/intent.ts take for a question asking for one
   * stated fact. The research orchestrator decides it from its own query analysis, which a model may have made.
   */
  sentenceRanking?: boolean;
  /**
   * RRF weight of each ranking: full text by BM25, full text by "proximity" (Postgres cover density; for Lectern's OR
   * queries it counts the passage's positions of query words, not how close they are), vectors, and — content search, hybrid, fact-seeking questions only — the candidates' best
   * sentence (`sentenceRankings`). 0 leaves a ranking out. Defaults: DEFAULT_WEIGHTS.
   */
  weights?: { fts?: number; proximity?: number; vector?: number; sentence?: number };
  /**
   * Rank full text by proximity too (shown on results as `proximity`) even when it is not fused; the search page asks
   * for it. Off by default: it is fused only with a proximity weight.
   */
  showProximity?: boolean;
  /** Content search: chunks kept per page (the best ones), so one page does not fill the list; default 1. */
  perPage?: number;
  /** Candidates each retriever returns per query before fusion. */
  candidates?: number;
  /** HNSW `ef_search` for this search (≥ candidates); by default it grows with the table (defaultEfSearch). */
  efSearch?: number;
  /** Per-query retrieval results shared by the searches of one research run (see RetrievalCache). */
  cache?: RetrievalCache;
}

export interface RetrieverScore {
  /** The retriever's own score: BM25 for full text, cosine similarity for vectors. */
  score: number;
  /** 1-based rank in that retriever's list (best over the queries); vectors rank by hubness-corrected similarity. */
  rank: number;
}

export interface ContentResult {
  chunkUid: string;
  paperId: string;
  title: string;
  year: number | null;
  page: number;
  chunkIndex: number;
  charStart: number;
  charEnd: number;
  /** The section of the paper most of the chunk is in, outermost heading first ("4 Methodology › 4.2 Crawler"). */
  section: string | null;
  /** Part of the paper's list of references: only when the search asked for them (`includeBibliography`). */
  bibliography: boolean;
  text: string;
  /** Fused (RRF) score, the ranking key before diversification. */
  score: number;
  /** Calibrated relevance in [0, 1]: what the cutoff is compared with. */
  relevance: number;
  fts: RetrieverScore | null;
  /** The "proximity" ranking of full text: cover density, which for an OR query counts the positions of its words. */
  proximity: RetrieverScore | null;
  vector: RetrieverScore | null;
  /**
   * The chunk's best sentence: its BM25 with sentences as documents and its rank among the candidates (fact-seeking
   * questions in a hybrid content search only; null otherwise).
   */
  sentence: RetrieverScore | null;
  /** The queries (as given) whose retrievers found this chunk. */
  queries: string[];
}

export interface SummaryPassage {
  chunkUid: string;
  chunkIndex: number;
  charStart: number;
  charEnd: number;
  text: string;
  /** Pages of the paper the passage came from (extractive summaries); empty when unknown. */
  pages: number[];
  score: number;
  relevance: number;
  fts: RetrieverScore | null;
  proximity: RetrieverScore | null;
  vector: RetrieverScore | null;
  queries: string[];
}

export interface PaperResult {
  paperId: string;
  title: string;
  year: number | null;
  authors: string[];
  /** Best passage's fused score. */
  score: number;
  relevance: number;
  /** Matching summary passages, best first. */
  passages: SummaryPassage[];
  queries: string[];
}

export const CONTENT_DEFAULTS = { k: 15, mmrAlpha: 0.6 } as const;
export const SUMMARY_DEFAULTS = { k: 8, mmrAlpha: 0.5 } as const;

/**
 * Relevance calibration. Full text: the IDF-weighted share of the query's words found in the passage (a query whose
 * informative words are absent from the library scores low whatever the ranking). Vectors: cosine similarity mapped
 * linearly from [floor, ceiling] to [0, 1]; the floor is where unrelated text sits for that embedder.
 */
const VECTOR_CALIBRATION: Record<EmbeddingProvider["kind"], { floor: number; ceiling: number }> = {
  hashing: { floor: 0.45, ceiling: 0.75 },
  // floor: where the nearest passages of the dev set's two unanswerable questions sit (0.46–0.48)
  latent: { floor: 0.45, ceiling: 0.7 },
  openai: { floor: 0.2, ceiling: 0.6 },
};
export const DEFAULT_CUTOFF = 0.38;
/**
 * Default RRF weights. Proximity is shown on results (its own rank and score) but not fused by default: over the
 * library's light-stemmed terms it moved no evidence page into the top 5 on the dev set and pushed the first one down
 * (full-text MRR 0.45 without it, 0.31 with it at weight 1; docs/benchmarks.md).
 */
export const DEFAULT_WEIGHTS = { fts: 1, proximity: 0, vector: 1, sentence: 1 } as const;
/**
 * HNSW `ef_search` for a table of `rows` vectors, when the caller sets none: the graph walk has to widen as the table
 * grows to keep finding the exact nearest rows. 114 at the 1,934 chunks of the 40-paper corpus, 815 at 100,000, where
 * the index (db/schema.ts) finds 0.96 of the exact top 15 in ~41 ms (docs/benchmarks.md, "Retrieval at scale").
 */
export function defaultEfSearch(rows: number): number {
  return Math.min(1000, 100 + Math.ceil(Math.max(0, rows) / 140));
}

/** Content search: MMR chooses among the best `MMR_POOL_FACTOR × k` candidates. */
const MMR_POOL_FACTOR = 3;

interface QueryWork {
  query: ParsedQuery;
  lexemes: string[];
  /** The rarer lexemes, which select full-text candidates (common words only add to the score). */
  matchLexemes: string[];
  idf: number[];
  idfTotal: number;
}

function positiveInt(name: string, v: number | undefined, fallback: number, max: number): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 1 || v > max) {
    throw new LecternError("bad_request:query", `${name} must be a whole number from 1 to ${max}.`);
  }
  return v;
}

function unitInterval(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v < 0 || v > 1)
    throw new LecternError("bad_request:query", `${name} must be between 0 and 1.`);
  return v;
}

function toFilters(o: SearchOptions): SearchFilters {
  const year = (name: string, v: number | undefined) => {
    if (v === undefined) return undefined;
    if (!Number.isInteger(v) || v < 1000 || v > 3000)
      throw new LecternError("bad_request:query", `${name} must be a year.`);
    return v;
  };
  const yearFrom = year("yearFrom", o.yearFrom);
  const yearTo = year("yearTo", o.yearTo);
  if (yearFrom !== undefined && yearTo !== undefined && yearFrom > yearTo) {
    throw new LecternError("bad_request:query", `The year range ${yearFrom}–${yearTo} is empty.`);
  }
  const paperIds = o.paperIds?.map((id) => String(id).trim()).filter(Boolean);
  if (paperIds && paperIds.length > 1000) throw new LecternError("bad_request:query", "Too many paper ids (max 1000).");
  return {
    paperIds: paperIds && paperIds.length > 0 ? paperIds : undefined,
    yearFrom,
    yearTo,
    category: o.category?.trim() || undefined,
    includeBibliography: o.includeBibliography === true || undefined,
  };
}

/**
 * Vectors from another embedder cannot be compared with the library's: say so instead of returning noise. The latent
 * embedder, local and quick, re-embeds the library instead (once; e.g. a library made with the hashing embedder).
 */
async function assertSameEmbedder(
  db: Database,
  stored: EmbeddingSignature | null,
  embedder: EmbeddingProvider,
): Promise<boolean> {
  if (!stored) return false;
  if (stored.kind !== embedder.kind || stored.model !== embedder.model || stored.dimensions !== embedder.dimensions) {
    if (embedder.kind === "latent") {
      await ensureEmbeddingSignature(db, embedder);
      return true;
    }
    throw new LecternError(
      "conflict:embedding",
      `The library's vectors were made with ${stored.kind} ${stored.model} (${stored.dimensions} dimensions) but the ` +
        `search uses ${embedder.kind} ${embedder.model} (${embedder.dimensions}). Run \`npm run cli -- reembed\`.`,
    );
  }
  return false;
}

interface CachedStats {
  total: number;
  avgLength: number;
  /** Page chunks: their mean sentence length in search terms (null: no row has its sentences yet). */
  avgSentenceLength: number | null;
  df: Map<string, number>;
  /** When the row count was last read (performance.now()), and this process's content epoch then. */
  checkedAt: number;
  epoch: number;
}
const statsCache = new WeakMap<Database, Map<SearchTable, CachedStats>>();

/**
 * How long cached corpus statistics are trusted before the row count is read again. Writes by this process
 * (ingestion, deletion, the terms backfill) refresh them at once (noteContentChanged); this bounds how long another
 * process's writes (a CLI ingest beside the server, on PostgreSQL) go unnoticed. Reading the count costs ~20 ms at
 * 100k chunks on PostgreSQL: per search, it was a fifth of the end-to-end time there.
 */
const STATS_RECHECK_MS = 5_000;

/** The cached statistics of `table` when they can be used without reading the row count. */
function freshStats(db: Database, table: SearchTable): CachedStats | undefined {
  const c = statsCache.get(db)?.get(table);
  return c && c.epoch === getContentEpoch() && performance.now() - c.checkedAt < STATS_RECHECK_MS ? c : undefined;
}

/**
 * Corpus statistics for IDF and BM25, cached per database and table: `fresh` when they could be trusted without the
 * row count, else started over from `total` (the count just read) when the count or this process's content `epoch`
 * changed. Only lexemes not seen before cost a lookup (one GIN probe each).
 */
async function lexemeStats(
  db: Database,
  table: SearchTable,
  counted: { fresh: CachedStats } | { total: number; epoch: number },
  lexemes: string[],
): Promise<LexemeStats> {
  let stats: CachedStats;
  if ("fresh" in counted) stats = counted.fresh;
  else {
    const { total, epoch } = counted;
    let byTable = statsCache.get(db);
    if (!byTable) {
      byTable = new Map();
      statsCache.set(db, byTable);
    }
    const cached = byTable.get(table);
    if (cached && cached.total === total && cached.epoch === epoch) {
      cached.checkedAt = performance.now();
      stats = cached;
    } else {
      const { avgLength, avgSentenceLength } = await getAverageLengths(db, { table });
      stats = { total, avgLength, avgSentenceLength, df: new Map(), checkedAt: performance.now(), epoch };
      byTable.set(table, stats);
    }
  }
  const df = await fillBoundedCache(stats.df, lexemes, DF_CACHE_LIMIT, (missing) =>
    getDocumentFrequencies(db, { table, lexemes: missing }),
  );
  return { total: stats.total, avgLength: stats.avgLength, df };
}

/**
 * The values of `keys` (0 for a key `lookup` does not return), from `cache` where it has them, the others looked up
 * and added to it. The cache is kept to at most `limit` entries: emptied before it would grow past them. The values
 * come back as a map of their own, so that another caller emptying the cache meanwhile (concurrent searches) takes
 * none of them away.
 */
export async function fillBoundedCache(
  cache: Map<string, number>,
  keys: readonly string[],
  limit: number,
  lookup: (missing: string[]) => Promise<Map<string, number>>,
): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const k of keys) {
    const v = cache.get(k);
    if (v !== undefined) values.set(k, v);
  }
  const missing = [...new Set(keys.filter((k) => !values.has(k)))];
  if (missing.length === 0) return values;
  const found = await lookup(missing);
  if (cache.size + missing.length > limit) cache.clear();
  for (const k of missing) {
    const v = found.get(k) ?? 0;
    cache.set(k, v);
    values.set(k, v);
  }
  return values;
}

/** Lexemes whose document frequency a table's statistics keep at most. */
const DF_CACHE_LIMIT = 50_000;

/** At most this many passages of the library hold a word that is `rare` in it (`wordsAbsentFromLibrary`). */
export const RARE_IN_LIBRARY = 3;

/** How the library holds a question's words: what search looks them up as, and how often (`wordsAbsentFromLibrary`). */
type WordsInLibrary = { absent: string[]; rare: string[]; terms: number; passages: number };

/**
 * The words of a question that no passage of the library contains, nor in their American spelling ("neuromorphic",
 * "Loihi" asked of a library of NLP papers), as the question wrote them; those that at most RARE_IN_LIBRARY passages
 * contain (`rare`: "tours", "vehicle" in a library of NLP papers); and how many search terms the question has.
 * Counted as the full-text search counts them (its lexemes, reference lists included), from its cached frequencies.
 */
export async function wordsAbsentFromLibrary(db: Database, question: string): Promise<WordsInLibrary> {
  return wordsIn(await lookUpWords(db, "chunks", [question]));
}

/**
 * A search's words as `wordsAbsentFromLibrary` and `searchedRespelled` give them, from one lookup of the query's
 * lexemes (the search page says both above its results).
 */
export async function searchedWords(
  db: Database,
  question: string,
  table: SearchTable = "chunks",
): Promise<WordsInLibrary & { respelled: { written: string; searched: string }[] }> {
  const looked = await lookUpWords(db, table, [question]);
  return { ...wordsIn(looked), respelled: await respelledIn(db, table, looked) };
}

/** The queries' words, their lexemes and the table's statistics for them, and which of them search respells. */
async function lookUpWords(db: Database, table: SearchTable, input: string[]) {
  const texts = input.filter((t) => t.trim() !== "");
  const wordLists = texts.map(queryTerms);
  const { lexemeLists, stats, spelled } = await lexemesWithStats(db, table, wordLists, undefined, texts);
  return { texts, wordLists, lexemeLists, stats, spelled };
}

/** The first query's words absent from the table, or rare in it, each as the query wrote it ("Loihi", not "loihi"). */
function wordsIn({ texts, wordLists, lexemeLists, stats, spelled }: Awaited<ReturnType<typeof lookUpWords>>) {
  const words = wordLists[0] ?? [];
  const lexemes = lexemeLists[0] ?? [];
  const wordOf = new Map<string, string>();
  for (const w of words) {
    const t = termOf(w);
    if (t && !wordOf.has(t)) wordOf.set(t, w);
  }
  const normalized = (texts[0] ?? "").normalize("NFKC");
  const written = (l: string) => writtenAs(normalized, wordOf.get(l) ?? l);
  const dfOf = (l: string) => stats.df.get(spelled.get(l) ?? l) ?? 0;
  const absent = lexemes.filter((l) => dfOf(l) === 0).map(written);
  const rare = lexemes.filter((l) => dfOf(l) > 0 && dfOf(l) <= RARE_IN_LIBRARY).map(written);
  return {
    absent: [...new Set(absent)],
    rare: [...new Set(rare)],
    terms: new Set(lexemes).size,
    passages: stats.total,
  };
}

/**
 * The words of a search's queries it looks for under another term of the library — a British spelling by its American
 * one, a misspelt word by the term it was meant to be (lib/search/spelling.ts) — each as the queries wrote it and as a
 * word of the library that has that term ("atention" → "attention"). The same lookup as the search's (its
 * statistics are cached: this costs the queries' lexemes, one round trip, and a row's text per respelled word).
 */
export async function searchedRespelled(
  db: Database,
  input: string | string[],
  table: SearchTable = "chunks",
): Promise<{ written: string; searched: string }[]> {
  const texts = (Array.isArray(input) ? input : [input]).filter((t) => t.trim() !== "");
  if (texts.length === 0) return [];
  return respelledIn(db, table, await lookUpWords(db, table, texts));
}

async function respelledIn(
  db: Database,
  table: SearchTable,
  { texts, wordLists, lexemeLists, spelled }: Awaited<ReturnType<typeof lookUpWords>>,
): Promise<{ written: string; searched: string }[]> {
  if (spelled.size === 0) return [];
  const out: { written: string; searched: string }[] = [];
  for (const [from, to] of spelled) {
    const i = lexemeLists.findIndex((ls) => ls.includes(from));
    const words = wordLists[Math.max(0, i)] ?? [];
    const word = words.find((w) => termOf(w) === from) ?? from;
    const normalized = (texts[Math.max(0, i)] ?? "").normalize("NFKC");
    const written = writtenAs(normalized, word);
    if (!out.some((o) => o.written.toLowerCase() === written.toLowerCase())) {
      out.push({ written, searched: (await wordWithTerm(db, table, to)) ?? to });
    }
  }
  return out;
}

/** A word as the (NFKC-normalised) text writes it, whatever its case ("Loihi" for `loihi`); the word itself if absent. */
function writtenAs(normalized: string, word: string): string {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, "iu").exec(normalized)?.[0] ?? word;
}

/** A word of the library whose term is `term` ("attention" for `attention`, "difference" for `differenc`). */
async function wordWithTerm(db: Database, table: SearchTable, term: string): Promise<string | null> {
  const text = await getTextWithTerm(db, { table, term });
  if (!text) return null;
  let found: string | null = null;
  forEachWord(text, (w) => {
    if (found === null && termOf(w) === term) found = w;
  });
  return found;
}

/** Robertson–Spärck Jones IDF, floored at a small positive value so very common words still count a little. */
function idfOf(stats: LexemeStats, lexeme: string): number {
  const n = stats.total;
  const df = Math.min(stats.df.get(lexeme) ?? 0, n);
  return Math.max(0.05, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
}

/**
 * The terms of the words the texts write in lower case (or capitalise only as their first word), and never otherwise:
 * a name one query writes ("Frobnicatr") stays a name in the lower-cased keywords of another.
 */
function plainTerms(texts: string[]): Set<string> {
  const plain = new Set<string>();
  const named = new Set<string>();
  for (const text of texts) {
    let first = true;
    for (const m of text.normalize("NFKC").matchAll(/[\p{L}\p{N}]+/gu)) {
      const w = m[0];
      const rest = first ? w.slice(1) : w;
      first = false;
      const t = termOf(w.toLowerCase());
      if (t) (rest === rest.toLowerCase() ? plain : named).add(t);
    }
  }
  for (const t of named) plain.delete(t);
  return plain;
}

/**
 * The library's vocabulary per database and table, for spelling correction: read once per row count and epoch. Once
 * read, a library change does not make searches wait for the next read (ts_stat over every row: about 4 s at 99,000
 * passages): they use the one they have while the new one is read, once, in the background (a word only the newest
 * papers hold is corrected to once that read is in; a correction to a word the library no longer holds is not made,
 * lexemesWithStats checks each against the library as it is).
 */
interface VocabularyEntry {
  key: string;
  vocabulary: Promise<Vocabulary | null>;
  /** The last vocabulary read, for searches while a newer one is being read. */
  settled: Vocabulary | null;
}
const vocabularyCache = new WeakMap<Database, Map<SearchTable, VocabularyEntry>>();
function vocabularyFor(db: Database, table: SearchTable, total: number, epoch: number): Promise<Vocabulary | null> {
  let byTable = vocabularyCache.get(db);
  if (!byTable) {
    byTable = new Map();
    vocabularyCache.set(db, byTable);
  }
  const key = `${total}:${epoch}`;
  const cached = byTable.get(table);
  if (cached && cached.key === key) return cached.settled ? Promise.resolve(cached.settled) : cached.vocabulary;
  const previous = cached?.settled ?? null;
  const entry: VocabularyEntry = {
    key,
    settled: previous,
    vocabulary: getVocabulary(db, { table, minRows: MIN_CORRECTION_ROWS })
      .then((terms) => {
        const vocabulary = vocabularyOf(terms);
        entry.settled = vocabulary;
        return vocabulary;
      })
      .catch((e: unknown) => {
        // not kept: the next search reads it again (this entry only: a newer one may have replaced it meanwhile)
        if (byTable.get(table) === entry) {
          if (previous) byTable.set(table, { key: "", settled: previous, vocabulary: Promise.resolve(previous) });
          else byTable.delete(table);
        }
        console.warn(
          previous
            ? `Spelling correction keeps the library's previous vocabulary: the new one could not be read (${String(e)})`
            : `Spelling correction is off for this search: the vocabulary could not be read (${String(e)})`,
        );
        return null;
      }),
  };
  byTable.set(table, entry);
  return previous ? Promise.resolve(previous) : entry.vocabulary;
}

/** Settles when the vocabulary being read for `table` (if any) is in: for tests of the background read. */
export async function vocabularyRead(db: Database, table: SearchTable): Promise<void> {
  await vocabularyCache.get(db)?.get(table)?.vocabulary;
}

/**
 * The search's lexemes of each list of words, the table's statistics for them (cached, started over when the library
 * changed), and which British-spelled lexemes are searched by their American one: a word whose term the library does
 * not hold ("realised": `realis`) is searched by the term of its American spelling (`realiz`) when the library holds
 * that one; the two terms' frequencies are looked up together (only British-spelled words have a second term).
 */
async function lexemesWithStats(
  db: Database,
  table: SearchTable,
  wordLists: string[][],
  metaKey?: string,
  texts: string[] = [],
): Promise<{ lexemeLists: string[][]; stats: LexemeStats; spelled: Map<string, string>; meta: unknown }> {
  const epoch = getContentEpoch();
  const fresh = freshStats(db, table);
  const {
    lexemes: lexemeLists,
    rows: total,
    meta,
  } = await getQueryLexemes(db, {
    texts: wordLists.map((words) => searchText(words.join(" "))),
    table,
    metaKey,
    withCount: !fresh,
  });
  const american = americanTerms(wordLists.flat());
  const asked = [
    ...new Set(lexemeLists.flat().flatMap((l) => [l, ...(american.has(l) ? [american.get(l) as string] : [])])),
  ];
  const stats = await lexemeStats(db, table, fresh ? { fresh } : { total: total ?? 0, epoch }, asked);
  const spelled = new Map<string, string>();
  for (const [l, a] of american) {
    if ((stats.df.get(l) ?? 0) === 0 && (stats.df.get(a) ?? 0) > 0) spelled.set(l, a);
  }
  // …and a misspelt word by the library's term it was meant to be (lib/search/spelling.ts): only words the query
  // writes in lower case (a name is what it is), looked up in the library's vocabulary only when one is missing
  const plain = plainTerms(texts);
  const missing = asked.filter(
    (l) => (stats.df.get(l) ?? 0) === 0 && !spelled.has(l) && plain.has(l) && (correctable(l) || phraseCorrectable(l)),
  );
  // (the vocabulary is a help, not a need: a search whose read of it fails goes on without respelling)
  const vocabulary = missing.length > 0 ? await vocabularyFor(db, table, stats.total, epoch) : null;
  if (vocabulary) {
    // the stemmer's longer forms of words the library holds ("stepping" → "stepp"; "step") are not typos: their cut
    // forms' frequencies, looked up with the corrections' own
    const cuts = await lexemeStats(db, table, { total: stats.total, epoch }, missing.flatMap(cutForms));
    const held = (t: string) => (cuts.df.get(t) ?? 0) > 0;
    const corrected = new Map<string, string>();
    for (const l of missing) {
      const c = correctionOf(l, vocabulary, held);
      if (c) corrected.set(l, c);
    }
    // a short word by the candidate the library writes beside the query's neighbouring word
    const short = missing.filter(phraseCorrectable);
    if (short.length > 0) {
      const known = (t: string) => ((stats.df.get(t) ?? 0) > 0 ? t : (corrected.get(t) ?? null));
      const phrases = short.flatMap((l) => {
        const list = lexemeLists.find((ls) => ls.includes(l)) ?? [];
        const at = list.indexOf(l);
        const before = known(list[at - 1] ?? "");
        const after = known(list[at + 1] ?? "");
        return phraseCandidates(l, vocabulary, held).flatMap((c) => [
          ...(before ? [{ l, c, phrase: [before, c] as [string, string] }] : []),
          ...(after ? [{ l, c, phrase: [c, after] as [string, string] }] : []),
        ]);
      });
      const counts =
        phrases.length > 0
          ? await getPhraseFrequencies(db, { table, phrases: phrases.map((p) => p.phrase) })
          : new Map<string, number>();
      const best = new Map<string, { c: string; rows: number }>();
      for (const { l, c, phrase } of phrases) {
        const rows = counts.get(phrase.join(" ")) ?? 0;
        if (rows >= MIN_CORRECTION_ROWS && rows > (best.get(l)?.rows ?? 0)) best.set(l, { c, rows });
      }
      for (const [l, { c }] of best) corrected.set(l, c);
    }
    if (corrected.size > 0) {
      const more = await lexemeStats(db, table, { total: stats.total, epoch }, [...corrected.values()]);
      for (const [l, c] of corrected) {
        // (a vocabulary read before the library last changed may name a word it no longer holds)
        if ((more.df.get(c) ?? 0) === 0) continue;
        stats.df.set(c, more.df.get(c) ?? 0);
        spelled.set(l, c);
      }
    }
  }
  return { lexemeLists, stats, spelled, meta };
}

async function prepareQueries(
  db: Database,
  table: SearchTable,
  queries: ParsedQuery[],
  metaKey?: string,
): Promise<{ works: QueryWork[]; avgLength: number; meta: unknown; rows: number }> {
  const { lexemeLists, stats, spelled, meta } = await lexemesWithStats(
    db,
    table,
    queries.map((q) => q.terms),
    metaKey,
    queries.map((q) => q.text),
  );
  const rows = stats.total;
  const works = queries.map((query, i) => {
    const lexemes = [...new Set((lexemeLists[i] ?? []).map((l) => spelled.get(l) ?? l))];
    const idf = lexemes.map((l) => idfOf(stats, l));
    return {
      query,
      lexemes,
      matchLexemes: selectMatchLexemes(stats, lexemes),
      idf,
      idfTotal: idf.reduce((a, b) => a + b, 0),
    };
  });
  return { works, avgLength: stats.avgLength, meta, rows };
}

/**
 * Candidate selection reads every row that contains a selecting lexeme, so we select with the rarest lexemes until
 * they cover about MATCH_BUDGET rows (a tenth of the table, up to MATCH_CAP rows); chunks holding only common words would rank
 * low anyway.
 */
const MATCH_BUDGET = 400;
/** Scoring reads each candidate's tsvector: at 100k chunks a tenth of the table took ~0.9 s (bench:scale). */
const MATCH_CAP = 2_000;
function selectMatchLexemes(stats: LexemeStats, lexemes: string[]): string[] {
  const budget = Math.min(MATCH_CAP, Math.max(MATCH_BUDGET, stats.total / 10));
  const present = lexemes.filter((l) => (stats.df.get(l) ?? 0) > 0);
  present.sort((a, b) => (stats.df.get(a) ?? 0) - (stats.df.get(b) ?? 0));
  const out: string[] = [];
  let rows = 0;
  for (const l of present) {
    const df = stats.df.get(l) ?? 0;
    if (out.length > 0 && rows + df > budget) break;
    out.push(l);
    rows += df;
  }
  return out;
}

/** The IDF-weighted share of a query's lexemes present in `present`. */
function coverage(work: QueryWork, present: ReadonlySet<string>): number {
  if (work.idfTotal <= 0) return 0;
  let s = 0;
  work.lexemes.forEach((l, i) => {
    if (present.has(l)) s += work.idf[i] ?? 0;
  });
  return s / work.idfTotal;
}

interface Candidate {
  id: string;
  paperId: string;
  fts: RetrieverScore | null;
  proximity: RetrieverScore | null;
  vector: RetrieverScore | null;
  queries: Set<number>;
}

interface RetrievalRun {
  works: QueryWork[];
  /** Per query: lexemes found by full text in each paper's retrieved chunks (paper-level coverage). */
  paperLexemes: Map<string, Set<string>>[];
  candidates: Map<string, Candidate>;
  fused: Map<string, number>;
  /** Best cosine per candidate per query, for relevance. */
  similarity: Map<string, number>;
}

function better(a: RetrieverScore | null, b: RetrieverScore): RetrieverScore {
  return !a || b.rank < a.rank ? b : a;
}

/** One query's retrieval: its full-text statistics and each retriever's ranked list, before fusion. */
interface QueryLists {
  work: QueryWork;
  fts: FullTextHit[];
  vec: VectorHit[];
}

/**
 * Per-query retrieval results shared across the searches of one research run, so a query searched once — for
 * instance ahead of time, while a model call is in flight — is not searched again. Keyed by everything that changes
 * a query's lists (index, retrievers, filters, candidate count, ef_search, the query text); fusion weights, k, MMR
 * and cutoffs apply afterwards and are not part of the key. Failed retrievals are not kept. Hold one per run, not
 * longer: the library may change.
 */
export class RetrievalCache {
  private readonly entries = new Map<string, Promise<QueryLists>>();
  get size(): number {
    return this.entries.size;
  }
  /** Queries answered from the cache (for tests and benchmarks). */
  hits = 0;
  get(key: string): Promise<QueryLists> | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: Promise<QueryLists>): void {
    this.entries.set(key, value);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
  }
}

interface RetrievalParams {
  useFts: boolean;
  /** Cover density (the proximity ranking) is computed. */
  proximity: boolean;
  useVector: boolean;
  filters: SearchFilters;
  limit: number;
  /** null: by the table's size (defaultEfSearch). */
  efSearch: number | null;
}

function retrievalParams(opts: SearchOptions): RetrievalParams {
  const retriever = opts.retriever ?? "hybrid";
  return {
    useFts: retriever !== "vector",
    proximity: (opts.weights?.proximity ?? DEFAULT_WEIGHTS.proximity) > 0 || opts.showProximity === true,
    useVector: retriever !== "fts",
    filters: toFilters(opts),
    limit: positiveInt("candidates", opts.candidates, 60, 1000),
    efSearch: opts.efSearch === undefined ? null : positiveInt("efSearch", opts.efSearch, 100, 1000),
  };
}

function cacheKey(table: SearchTable, p: RetrievalParams, query: ParsedQuery): string {
  const f = p.filters;
  return JSON.stringify([
    table,
    p.useFts,
    p.proximity,
    p.useVector,
    f.paperIds ? [...f.paperIds].sort() : null,
    f.yearFrom ?? null,
    f.yearTo ?? null,
    f.category ?? null,
    f.includeBibliography ?? false,
    p.limit,
    p.efSearch,
    query.text,
  ]);
}

/** Runs the retrievers for `queries` (all of them in one full-text statement), one result per query, in order. */
async function retrieveLists(
  db: Database,
  table: SearchTable,
  queries: ParsedQuery[],
  embedder: EmbeddingProvider,
  p: RetrievalParams,
): Promise<QueryLists[]> {
  const { useFts, useVector, filters, limit, efSearch, proximity } = p;
  // the query embeddings are computed (or requested from the embedding server) while the database works; the
  // library's embedding signature comes back with the query lexemes
  const embed = () =>
    embedder.embed(
      queries.map((q) => q.text),
      { db },
    );
  const [{ works, avgLength, meta, rows }, first] = await Promise.all([
    prepareQueries(db, table, queries, useVector ? EMBEDDING_META_KEY : undefined),
    useVector ? embed() : Promise.resolve([] as number[][]),
  ]);
  // the latent embedder adopts a library made by another embedder, fitting its model: the queries are embedded again
  const adopted = useVector && (await assertSameEmbedder(db, meta as EmbeddingSignature | null, embedder));
  const embeddings = adopted ? await embed() : first;
  const ef = efSearch ?? defaultEfSearch(rows);

  const ftsWorks = useFts ? works.map((w) => (w.matchLexemes.length > 0 ? w : { ...w, lexemes: [], idf: [] })) : [];
  const [ftsLists, vecLists] = await Promise.all([
    useFts && ftsWorks.some((w) => w.lexemes.length > 0)
      ? searchFullText(db, { table, queries: ftsWorks, avgLength, filters, limit, coverDensity: proximity })
      : Promise.resolve(works.map(() => [] as FullTextHit[])),
    Promise.all(
      works.map((_, qi) =>
        useVector && embeddings[qi]?.some((x) => x !== 0)
          ? searchVector(db, { table, embedding: embeddings[qi] as number[], filters, limit, efSearch: ef })
          : Promise.resolve([] as VectorHit[]),
      ),
    ),
  ]);
  return works.map((work, qi) => ({ work, fts: ftsLists[qi] ?? [], vec: vecLists[qi] ?? [] }));
}

/** Each query's lists, from `cache` where present; the missing queries are retrieved together (and cached). */
async function queryLists(
  db: Database,
  table: SearchTable,
  queries: ParsedQuery[],
  embedder: EmbeddingProvider,
  p: RetrievalParams,
  cache: RetrievalCache | undefined,
): Promise<QueryLists[]> {
  if (!cache) return retrieveLists(db, table, queries, embedder, p);
  const keys = queries.map((q) => cacheKey(table, p, q));
  const missing = queries.flatMap((_, i) => (cache.get(keys[i] as string) ? [] : [i]));
  cache.hits += queries.length - missing.length;
  if (missing.length > 0) {
    const fresh = retrieveLists(
      db,
      table,
      missing.map((i) => queries[i] as ParsedQuery),
      embedder,
      p,
    );
    missing.forEach((i, j) => {
      cache.set(
        keys[i] as string,
        fresh.then((lists) => lists[j] as QueryLists),
      );
    });
  }
  // a query whose earlier retrieval failed (say, a prefetch while the database was away) is retrieved again
  return Promise.all(
    keys.map((key, i) => {
      const entry = cache.get(key) as Promise<QueryLists>;
      if (missing.includes(i)) return entry;
      const retry = () => retrieveLists(db, table, [queries[i] as ParsedQuery], embedder, p);
      return entry.catch(() => retry().then((lists) => lists[0] as QueryLists));
    }),
  );
}

/**
 * Runs the retrievers for `input` on the summary or content index and keeps their lists in `opts.cache` without
 * fusing or reading rows: a later search with the same options and cache finds them there. The research orchestrator
 * calls it while a model call is in flight.
 */
export async function prefetchRetrieval(
  db: Database,
  index: "summaries" | "content",
  input: string | string[],
  embedder: EmbeddingProvider,
  opts: SearchOptions & { cache: RetrievalCache },
): Promise<void> {
  await queryLists(
    db,
    index === "summaries" ? "summary_chunks" : "chunks",
    parseQueries(input),
    embedder,
    retrievalParams(opts),
    opts.cache,
  );
}

async function retrieve(
  db: Database,
  table: SearchTable,
  input: string | string[],
  embedder: EmbeddingProvider,
  opts: SearchOptions,
): Promise<RetrievalRun> {
  const queries = parseQueries(input);
  const wFts = opts.weights?.fts ?? DEFAULT_WEIGHTS.fts;
  const wVec = opts.weights?.vector ?? DEFAULT_WEIGHTS.vector;
  const wProx = opts.weights?.proximity ?? DEFAULT_WEIGHTS.proximity;
  const perQuery = await queryLists(db, table, queries, embedder, retrievalParams(opts), opts.cache);
  const works = perQuery.map((l) => l.work);

  const candidates = new Map<string, Candidate>();
  const similarity = new Map<string, number>();
  const lists: RankedList[] = [];
  const touch = (id: string, paperId: string) => {
    let c = candidates.get(id);
    if (!c) {
      c = { id, paperId, fts: null, proximity: null, vector: null, queries: new Set() };
      candidates.set(id, c);
    }
    return c;
  };
  const paperLexemes = works.map(() => new Map<string, Set<string>>());
  perQuery.forEach(({ fts, vec }, qi) => {
    fts.forEach((h, i) => {
      const set = paperLexemes[qi]?.get(h.paperId) ?? new Set<string>();
      for (const l of h.matched) set.add(l);
      paperLexemes[qi]?.set(h.paperId, set);
      const c = touch(h.chunkUid, h.paperId);
      c.fts = better(c.fts, { score: h.bm25, rank: i + 1 });
      c.queries.add(qi);
    });
    // the vector list ranks by hubness-corrected similarity (CSLS); the score shown stays the cosine
    const byVector = hubnessOrder(vec);
    byVector.forEach((h, i) => {
      const c = touch(h.chunkUid, h.paperId);
      c.vector = better(c.vector, { score: h.similarity, rank: i + 1 });
      c.queries.add(qi);
      similarity.set(h.chunkUid, Math.max(similarity.get(h.chunkUid) ?? -1, h.similarity));
    });
    if (fts.length > 0) lists.push({ ids: fts.map((h) => h.chunkUid), weight: wFts });
    if (fts.length > 0 && fts[0]?.coverDensity != null) {
      // shown on results when computed; fused only with a weight
      const byProximity = [...fts].sort((a, b) => (b.coverDensity ?? 0) - (a.coverDensity ?? 0));
      byProximity.forEach((h, i) => {
        const c = touch(h.chunkUid, h.paperId);
        c.proximity = better(c.proximity, { score: h.coverDensity ?? 0, rank: i + 1 });
      });
      if (wProx > 0) lists.push({ ids: byProximity.map((h) => h.chunkUid), weight: wProx });
    }
    if (byVector.length > 0) lists.push({ ids: byVector.map((h) => h.chunkUid), weight: wVec });
  });
  return { works, paperLexemes, candidates, fused: reciprocalRankFusion(lists), similarity };
}

/**
 * Lexical relevance: the mean of the passage's and its paper's IDF-weighted coverage of the query (the paper's
 * coverage counts the lexemes of all its retrieved passages and its title). A topic the library holds is covered by
 * some paper as a whole even when the question paraphrases the passage; an absent topic leaves its specific words
 * uncovered everywhere.
 */
function lexicalRelevance(run: RetrievalRun, paperId: string, lexemes: string[], titleLexemes: string[]): number {
  return Math.max(
    0,
    ...run.works.map((w, qi) => {
      const passage = new Set([...lexemes, ...titleLexemes]);
      const paper = new Set([...passage, ...(run.paperLexemes[qi]?.get(paperId) ?? [])]);
      return 0.5 * coverage(w, passage) + 0.5 * coverage(w, paper);
    }),
  );
}

/**
 * What ranking reads off a paper title, cached (titles repeat): its terms (a field weight: the title names what the
 * paper is about), and how many search terms it puts in front of each of its passages' search text
 * (`passageSearchText`: the best-sentence ranking counts positions after them).
 */
const titleCache = new Map<string, { terms: string[]; headerTerms: number }>();
function titleOf(title: string): { terms: string[]; headerTerms: number } {
  let t = titleCache.get(title);
  if (!t) {
    const header = searchText(title);
    t = { terms: tokenize(title), headerTerms: header ? header.split(" ").length : 0 };
    if (titleCache.size > 10_000) titleCache.clear();
    titleCache.set(title, t);
  }
  return t;
}

function vectorRelevance(kind: EmbeddingProvider["kind"], similarity: number | undefined): number {
  if (similarity === undefined) return 0;
  const { floor, ceiling } = VECTOR_CALIBRATION[kind];
  return Math.min(1, Math.max(0, (similarity - floor) / (ceiling - floor)));
}

/** Keeps the first `perPage` entries of each (paper, page) in a best-first list. */
export function bestPerPage<T extends { row: { paperId: string; pageNumber: number } }>(
  list: T[],
  perPage: number,
): T[] {
  const seen = new Map<string, number>();
  return list.filter((s) => {
    const key = `${s.row.paperId}\u0000${s.row.pageNumber}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n < perPage;
  });
}

/** The library's mean sentence length (page chunks), from its cached statistics (read once when there are none). */
async function sentenceLengthOf(db: Database): Promise<number | null> {
  const cached = statsCache.get(db)?.get("chunks");
  if (cached) return cached.avgSentenceLength;
  return (await getAverageLengths(db, { table: "chunks" })).avgSentenceLength;
}

/**
 * The best-sentence ranking (lib/search/sentences.ts): for each of `works` (the queries that get it: see
 * `sentenceRanking`), the candidates ranked by their best sentence (those with a query word in one), as RRF
 * contributions of `weight`, and each candidate's best (score, rank) for display; `order` is the fused order, which
 * breaks ties. Over six fits of the latent model on the dev and held-out questions (33) it took hybrid
 * page R@5 0.768 → 0.808, MRR 0.626 → 0.636, nDCG 0.679 → 0.693 (the dev set's MRR alone 0.595 → 0.581, its R@5
 * 0.750 → 0.778); for every question, comparisons included, it cost the multi-paper questions their second paper's
 * page (docs/benchmarks.md, eighth session).
 */
function sentenceRankings(
  works: QueryWork[],
  rows: ContentRow[],
  order: Map<string, number>,
  averageLength: number,
  weight: number,
): { added: Map<string, number>; best: Map<string, RetrieverScore> } {
  const added = new Map<string, number>();
  const best = new Map<string, RetrieverScore>();
  for (const w of works) {
    const scored = rows
      .flatMap((row) => {
        if (!row.sentenceEnds || row.sentenceEnds.length === 0) return [];
        const score = bestSentenceScore({
          lexemes: w.lexemes,
          idf: w.idf,
          positions: row.positions,
          headerTerms: titleOf(row.title).headerTerms,
          sentenceEnds: row.sentenceEnds,
          averageLength,
        });
        return score > 0 ? [{ id: row.chunkUid, score }] : [];
      })
      .sort((a, b) => b.score - a.score || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    scored.forEach(({ id, score }, i) => {
      added.set(id, (added.get(id) ?? 0) + weight / (RRF_K + i + 1));
      best.set(id, better(best.get(id) ?? null, { score, rank: i + 1 }));
    });
  }
  return { added, best };
}

/**
 * Searches page chunks: full text and vectors per query, fused by RRF, cut at the calibrated relevance, diversified by
 * MMR. Each result carries both retrievers' own scores and ranks, and the queries that found it.
 */
export async function searchContent(
  db: Database,
  input: string | string[],
  embedder: EmbeddingProvider,
  opts: SearchOptions = {},
): Promise<ContentResult[]> {
  const k = positiveInt("k", opts.k, CONTENT_DEFAULTS.k, 200);
  const alpha = unitInterval("mmrAlpha", opts.mmrAlpha, CONTENT_DEFAULTS.mmrAlpha);
  const cutoff = unitInterval("cutoff", opts.cutoff, DEFAULT_CUTOFF);
  const run = await retrieve(db, "chunks", input, embedder, opts);
  const { works, candidates, fused, similarity } = run;
  if (candidates.size === 0) return [];
  const allLexemes = [...new Set(works.flatMap((w) => w.lexemes))];
  let ranked = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, Math.max(k * 6, 60));
  // questions asking for a fact: the candidates' best sentences are a third ranking, fused with the others
  const wSentence = opts.weights?.sentence ?? DEFAULT_WEIGHTS.sentence;
  const sentenceWorks =
    (opts.retriever ?? "hybrid") === "hybrid" && wSentence > 0
      ? works.filter((w) => opts.sentenceRanking ?? FACT_SEEKING.has(classifyIntent(w.query.text).intent))
      : [];
  const averageLength = sentenceWorks.length > 0 ? await sentenceLengthOf(db) : null;
  const rows = await getContentRows(db, {
    chunkUids: ranked.map(([id]) => id),
    lexemes: allLexemes,
    withPositions: averageLength !== null,
  });
  const byId = new Map(rows.map((r) => [r.chunkUid, r]));
  let sentence = new Map<string, RetrieverScore>();
  if (averageLength !== null) {
    const order = new Map(ranked.map(([id], i) => [id, i]));
    const { added, best } = sentenceRankings(sentenceWorks, rows, order, averageLength, wSentence);
    sentence = best;
    ranked = ranked
      .map(([id, score]): [string, number] => [id, score + (added.get(id) ?? 0)])
      .sort((a, b) => b[1] - a[1] || (order.get(a[0]) ?? 0) - (order.get(b[0]) ?? 0));
  }
  const scored = ranked.flatMap(([id, score]) => {
    const row = byId.get(id);
    const cand = candidates.get(id);
    if (!row || !cand) return [];
    const lexical = lexicalRelevance(run, row.paperId, row.lexemes, titleOf(row.title).terms);
    const relevance = Math.max(lexical, vectorRelevance(embedder.kind, similarity.get(id)));
    return [{ row, cand, score, relevance }];
  });
  const kept = bestPerPage(
    scored.filter((s) => s.relevance >= cutoff),
    positiveInt("perPage", opts.perPage, 1, 1000),
  );
  // MMR compares the best MMR_POOL_FACTOR × k candidates: further down, a candidate's fused score is too far below
  // the leaders' for diversity to pick it. Their pairwise similarities come from the database (not their vectors).
  const pool = alpha < 1 ? kept.slice(0, k * MMR_POOL_FACTOR) : kept;
  const sims =
    alpha < 1
      ? await getPairwiseSimilarities(db, { table: "chunks", chunkUids: pool.map((s) => s.row.chunkUid) })
      : null;
  const order = maximalMarginalRelevance(
    pool.map((s) => ({ id: s.row.chunkUid, relevance: s.score })),
    { k, alpha, similarity: sims ? (a, b) => sims.get(a)?.get(b) : undefined },
  );
  // only the results' text is read
  const texts = await getChunkTexts(db, { chunkUids: order });
  const byKept = new Map(kept.map((s) => [s.row.chunkUid, s]));
  return order.flatMap((id) => {
    const s = byKept.get(id);
    const text = texts.get(id);
    if (!s || text === undefined) return [];
    return [
      {
        chunkUid: s.row.chunkUid,
        paperId: s.row.paperId,
        title: s.row.title,
        year: s.row.year,
        page: s.row.pageNumber,
        chunkIndex: s.row.chunkIndex,
        charStart: s.row.charStart,
        charEnd: s.row.charEnd,
        section: s.row.section,
        bibliography: s.row.bibliography,
        text,
        score: s.score,
        relevance: s.relevance,
        fts: s.cand.fts,
        proximity: s.cand.proximity,
        vector: s.cand.vector,
        sentence: sentence.get(s.row.chunkUid) ?? null,
        queries: [...s.cand.queries].sort((a, b) => a - b).map((i) => works[i]?.query.text ?? ""),
      },
    ];
  });
}

/**
 * Searches the summary index and returns papers (each once) with their matching summary passages. MMR runs over
 * passages with papers already picked counted as redundancy, so the list spreads over the library.
 */
export async function searchSummaries(
  db: Database,
  input: string | string[],
  embedder: EmbeddingProvider,
  opts: SearchOptions = {},
): Promise<PaperResult[]> {
  const k = positiveInt("k", opts.k, SUMMARY_DEFAULTS.k, 200);
  const alpha = unitInterval("mmrAlpha", opts.mmrAlpha, SUMMARY_DEFAULTS.mmrAlpha);
  const cutoff = unitInterval("cutoff", opts.cutoff, DEFAULT_CUTOFF);
  const run = await retrieve(db, "summary_chunks", input, embedder, opts);
  const { works, candidates, fused, similarity } = run;
  if (candidates.size === 0) return [];
  const allLexemes = [...new Set(works.flatMap((w) => w.lexemes))];
  const ranked = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, Math.max(k * 8, 60));
  const rows = await getSummaryRows(db, { chunkUids: ranked.map(([id]) => id), lexemes: allLexemes });
  const byId = new Map(rows.map((r) => [r.chunkUid, r]));
  const passages = ranked.flatMap(([id, score]) => {
    const row = byId.get(id);
    const cand = candidates.get(id);
    if (!row || !cand) return [];
    const lexical = lexicalRelevance(run, row.paperId, row.lexemes, titleOf(row.title).terms);
    const relevance = Math.max(lexical, vectorRelevance(embedder.kind, similarity.get(id)));
    return relevance >= cutoff ? [{ row, cand, score, relevance }] : [];
  });
  // one entry per paper: its best passage stands for it in MMR
  const papersById = new Map<string, typeof passages>();
  for (const p of passages) {
    const list = papersById.get(p.row.paperId) ?? [];
    list.push(p);
    papersById.set(p.row.paperId, list);
  }
  const bestIds = [...papersById.values()].flatMap((list) => (list[0] ? [list[0].row.chunkUid] : []));
  const sims = alpha < 1 ? await getPairwiseSimilarities(db, { table: "summary_chunks", chunkUids: bestIds }) : null;
  const bestOf = new Map([...papersById.entries()].map(([paperId, list]) => [paperId, list[0]?.row.chunkUid]));
  const order = maximalMarginalRelevance(
    [...papersById.entries()].map(([paperId, list]) => ({ id: paperId, relevance: list[0]?.score ?? 0 })),
    {
      k,
      alpha,
      similarity: sims
        ? (a, b) => {
            const x = bestOf.get(a);
            const y = bestOf.get(b);
            return x && y ? sims.get(x)?.get(y) : undefined;
          }
        : undefined,
    },
  );
  return order.flatMap((paperId) => {
    const list = papersById.get(paperId);
    const best = list?.[0];
    if (!list || !best) return [];
    const queries = new Set(list.flatMap((p) => [...p.cand.queries]));
    return [
      {
        paperId,
        title: best.row.title,
        year: best.row.year,
        authors: best.row.authors,
        score: best.score,
        relevance: Math.max(...list.map((p) => p.relevance)),
        passages: list.slice(0, 3).map((p) => ({
          chunkUid: p.row.chunkUid,
          chunkIndex: p.row.chunkIndex,
          charStart: p.row.charStart,
          charEnd: p.row.charEnd,
          text: p.row.text,
          pages: p.row.pages,
          score: p.score,
          relevance: p.relevance,
          fts: p.cand.fts,
          proximity: p.cand.proximity,
          vector: p.cand.vector,
          queries: [...p.cand.queries].sort((a, b) => a - b).map((i) => works[i]?.query.text ?? ""),
        })),
        queries: [...queries].sort((a, b) => a - b).map((i) => works[i]?.query.text ?? ""),
      },
    ];
  });
}
