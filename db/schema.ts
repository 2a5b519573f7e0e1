import type { InferInsertModel, InferSelectModel } from "drizzle-orm";
import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  vector,
} from "drizzle-orm/pg-core";
import type {
  FeedbackRating,
  Reference,
  ResearchError,
  ResearchMode,
  ResearchStep,
  RetrievedRecord,
  RunOptions,
  RunStatus,
} from "@/lib/research/types";

/**
 * Dimension of the embedding columns as created by the migrations. A provider with another dimension is detected at
 * start (see lib/embeddings/guard.ts) and `npm run cli -- reembed` changes the columns and rebuilds the indexes.
 */
export const EMBEDDING_DIMENSIONS = 512;

/**
 * HNSW index settings. A denser graph than pgvector's defaults (m 16, ef_construction 64), which never reached recall@15
 * 0.95 against exact search at 100k chunks; with these it does (docs/benchmarks.md, "Retrieval at scale").
 */
export const HNSW_OPTIONS = { m: 32, ef_construction: 128 } as const;

/**
 * The precision of the HNSW index's key. On PostgreSQL the vectors are indexed cast to half precision (`halfvec`):
 * an index 40 % smaller (156 MB instead of 260 MB at 100k chunks) and 35 % faster at the same recall (0.96 of the
 * exact top 15 in 43 ms instead of 69 ms), and up to 4,000 dimensions instead of 2,000. On PGlite (WebAssembly, no
 * hardware half-float conversion) half precision is the slower one: 18.6 ms instead of 3.5 ms per query and 34 s
 * instead of 4.5 s to build at the corpus's 1,934 chunks, so there the key stays full precision. Migration 0004 picks
 * by the server (PGlite reports `wasm32` in `version()`); search orders by the index's own key expression
 * (db/queries/search.ts) and always returns full-precision distances.
 */
export type HnswPrecision = "half" | "full";

/**
 * The type the HNSW index keys `dimensions`-wide vectors as: what both the index's key expression and the search's
 * ORDER BY cast the column (and the query vector) to, so the planner can walk the index.
 */
export function hnswKeyType(dimensions: number, precision: HnswPrecision): string {
  const max = precision === "half" ? 4000 : 2000;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > max) {
    throw new Error(`Invalid embedding dimension for the HNSW index: ${dimensions} (at most ${max})`);
  }
  return precision === "half" ? `halfvec(${dimensions})` : "vector";
}

/** The HNSW index's key expression and operator class for `dimensions`-wide vectors. */
export function hnswKeySql(dimensions: number, precision: HnswPrecision): string {
  const type = hnswKeyType(dimensions, precision);
  return precision === "half" ? `(embedding::${type}) halfvec_cosine_ops` : "embedding vector_cosine_ops";
}

/** CREATE INDEX for an embedding table's HNSW index (used by re-embedding when the dimension changes). */
export function hnswIndexSql(table: "chunks" | "summary_chunks", dimensions: number, precision: HnswPrecision): string {
  const opts = Object.entries(HNSW_OPTIONS)
    .map(([k, v]) => `${k} = ${v}`)
    .join(", ");
  return `create index "${table}_embedding_hnsw" on "${table}" using hnsw (${hnswKeySql(dimensions, precision)}) with (${opts})`;
}

const tsvector = customType<{ data: string }>({
  dataType() {
    return "tsvector";
  },
});

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType() {
    return "bytea";
  },
});

export const paperStatuses = ["processing", "ready", "error"] as const;
export type PaperStatus = (typeof paperStatuses)[number];

export const papers = pgTable(
  "papers",
  {
    /** arXiv id with version (`1706.03762v5`) when the PDF shows one, else a slug of the title or file name. */
    id: text("id").primaryKey(),
    /** sha256 of the PDF bytes. */
    docId: text("doc_id").notNull().unique(),
    arxivId: text("arxiv_id"),
    title: text("title").notNull(),
    authors: text("authors").array().notNull().default(sql`'{}'::text[]`),
    abstract: text("abstract"),
    publishedDate: date("published_date"),
    year: integer("year"),
    categories: text("categories").array().notNull().default(sql`'{}'::text[]`),
    doi: text("doi"),
    /** Path of the stored PDF, relative to the data directory (never a user-supplied path). */
    filePath: text("file_path").notNull(),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull(),
    pageCount: integer("page_count").notNull(),
    /**
     * Metadata fields the user corrected (`title`, `authors`, `year`, `publishedDate`, `categories`, `doi`, `arxivId`):
     * kept when a new version of the PDF replaces the paper, never overwritten by a re-reading of the stored pages.
     */
    editedFields: text("edited_fields").array().notNull().default(sql`'{}'::text[]`),
    status: text("status", { enum: paperStatuses }).notNull().default("processing"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("papers_year_idx").on(t.year), index("papers_created_idx").on(t.createdAt)],
);
export type Paper = InferSelectModel<typeof papers>;
export type NewPaper = InferInsertModel<typeof papers>;

export const pages = pgTable(
  "pages",
  {
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    /** 1-based physical page, as pdf.js counts. */
    pageNumber: integer("page_number").notNull(),
    text: text("text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.paperId, t.pageNumber] })],
);
export type Page = InferSelectModel<typeof pages>;

export const chunks = pgTable(
  "chunks",
  {
    /** sha256(doc_id:page:index:char_start:char_end), hex, first 32 chars. */
    chunkUid: text("chunk_uid").primaryKey(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    pageNumber: integer("page_number").notNull(),
    chunkIndex: integer("chunk_index").notNull(),
    /** Exactly `page.text.slice(char_start, char_end)`. */
    text: text("text").notNull(),
    charStart: integer("char_start").notNull(),
    charEnd: integer("char_end").notNull(),
    tokenCount: integer("token_count").notNull(),
    /**
     * The section most of the chunk's text is in, outermost heading first ("4 Methodology › 4.2 Crawler"; lib/text/sections.ts),
     * null before the paper's first heading or when none was found. Shown with results; not part of the search text.
     */
    section: text("section"),
    /**
     * Part of the paper's list of references, not its content (lib/text/bibliography.ts): left out of content search
     * unless asked for, and out of the latent model's fit.
     */
    bibliography: boolean("bibliography").notNull().default(false),
    /**
     * Where each of the chunk's sentences ends, counted in its search terms after the title's (`sentenceTermEnds`,
     * lib/ingest/chunk.ts): with the tsvector's positions, the sentence each query word is in. Null for rows stored
     * before it existed, until the sections backfill (lib/library/upgrades/sections.ts) fills them.
     */
    sentenceEnds: integer("sentence_ends").array(),
    embedding: vector("embedding", { dimensions: EMBEDDING_DIMENSIONS }),
    /**
     * The terms full-text search indexes (`searchText` of lib/text/terms.ts: the text's words without stop words,
     * lightly stemmed), written with the row; null only for rows stored before it existed, until the library's
     * upgrade (lib/library/upgrades/search-text.ts, after the migrations) fills them.
     */
    searchText: text("search_text"),
    tsv: tsvector("tsv").generatedAlwaysAs(sql`to_tsvector('simple', coalesce("search_text", ''))`),
  },
  (t) => [
    index("chunks_paper_page_idx").on(t.paperId, t.pageNumber),
    // PostgreSQL's key; PGlite's is full precision (see HnswPrecision; migration 0004)
    index("chunks_embedding_hnsw")
      .using("hnsw", sql.raw(hnswKeySql(EMBEDDING_DIMENSIONS, "half")))
      .with(HNSW_OPTIONS),
    index("chunks_tsv_gin").using("gin", t.tsv),
  ],
);
export type Chunk = InferSelectModel<typeof chunks>;
export type NewChunk = InferInsertModel<typeof chunks>;

export const summaryMethods = ["extractive", "llm"] as const;
export type SummaryMethod = (typeof summaryMethods)[number];

export const summaries = pgTable("summaries", {
  paperId: text("paper_id")
    .primaryKey()
    .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
  /** Markdown. */
  text: text("text").notNull(),
  method: text("method", { enum: summaryMethods }).notNull(),
  /** The model when method = llm, e.g. `gpt-4o-mini`; null for extractive. */
  model: text("model"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
export type Summary = InferSelectModel<typeof summaries>;

/** The summary index: passages of each summary, searched first by research. */
export const summaryChunks = pgTable(
  "summary_chunks",
  {
    chunkUid: text("chunk_uid").primaryKey(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    chunkIndex: integer("chunk_index").notNull(),
    text: text("text").notNull(),
    charStart: integer("char_start").notNull(),
    charEnd: integer("char_end").notNull(),
    /** Pages of the paper the passage's sentences came from (extractive summaries); empty when unknown. */
    pages: integer("pages").array().notNull().default(sql`'{}'::int[]`),
    embedding: vector("embedding", { dimensions: EMBEDDING_DIMENSIONS }),
    /** As for chunks: the indexed terms of `text`. */
    searchText: text("search_text"),
    tsv: tsvector("tsv").generatedAlwaysAs(sql`to_tsvector('simple', coalesce("search_text", ''))`),
  },
  (t) => [
    index("summary_chunks_paper_idx").on(t.paperId),
    index("summary_chunks_embedding_hnsw")
      .using("hnsw", sql.raw(hnswKeySql(EMBEDDING_DIMENSIONS, "half")))
      .with(HNSW_OPTIONS),
    index("summary_chunks_tsv_gin").using("gin", t.tsv),
  ],
);
export type SummaryChunk = InferSelectModel<typeof summaryChunks>;

/**
 * Hubness of each passage's vector: the mean cosine similarity to its HUBNESS_NEIGHBOURS nearest passages of the same
 * table (lib/embeddings/hubness.ts). Vector search subtracts half of it from the similarity (CSLS), so a passage close
 * to many others (a paper's abstract or introduction, which restate the whole paper) stops outranking the one that
 * answers. Kept beside the passages, not in them: writing a column of a passage row rewrites the row and inserts it
 * again into its HNSW and GIN indexes. A row is dropped with its passage, and whenever the passage's vector changes.
 */
export const chunkHubness = pgTable("chunk_hubness", {
  chunkUid: text("chunk_uid")
    .primaryKey()
    .references(() => chunks.chunkUid, { onDelete: "cascade" }),
  hubness: real("hubness").notNull(),
});

export const summaryChunkHubness = pgTable("summary_chunk_hubness", {
  chunkUid: text("chunk_uid")
    .primaryKey()
    .references(() => summaryChunks.chunkUid, { onDelete: "cascade" }),
  hubness: real("hubness").notNull(),
});

/** Library-wide settings, e.g. which embedding provider and dimension the stored vectors were made with. */
export const libraryMeta = pgTable("library_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The offline latent embedder's model (lib/embeddings/latent.ts): LSA fitted to the library's passages. One row, the
 * current model; replaced with all the vectors it made in one transaction (lib/embeddings/latent-index.ts).
 */
export const latentModels = pgTable("latent_models", {
  id: text("id").primaryKey(),
  model: text("model").notNull(),
  dimensions: integer("dimensions").notNull(),
  rank: integer("rank").notNull(),
  /** Passages in the library when it was fitted. */
  rows: integer("rows").notNull(),
  terms: text("terms").array().notNull(),
  /** float32, one per term. */
  idf: bytea("idf").notNull(),
  /** float32, terms × dimensions, row-major. */
  projection: bytea("projection").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---- Research runs ------------------------------------------------------------------------------------------------

/**
 * A research run: the question, what it ran on, its answer and what evaluation needs (retrieved chunk ids with their
 * ranks, per-step latency in research_steps). The id is random and unguessable: it is the shareable URL.
 */
export const researchRuns = pgTable(
  "research_runs",
  {
    id: text("id").primaryKey(),
    question: text("question").notNull(),
    /** running | completed | failed | cancelled | interrupted (lib/research/types.ts RunStatus). */
    status: text("status").$type<RunStatus>().notNull(),
    mode: text("mode").$type<ResearchMode>().notNull(),
    model: text("model").notNull(),
    /** The version this one was derived from (deep research reruns), if any. */
    parentId: text("parent_id"),
    /** Options the run was started with (timeouts, outline, …). */
    options: jsonb("options").$type<RunOptions>().notNull().default(sql`'{}'::jsonb`),
    answerMarkdown: text("answer_markdown").notNull().default(""),
    references: jsonb("references").$type<Reference[]>().notNull().default(sql`'[]'::jsonb`),
    warnings: jsonb("warnings").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** `[{ chunkUid, paperId, page, stage, rank, score }]`: what the searches returned, best first per stage. */
    retrieved: jsonb("retrieved").$type<RetrievedRecord[]>().notNull().default(sql`'[]'::jsonb`),
    error: jsonb("error").$type<ResearchError>(),
    feedbackRating: text("feedback_rating").$type<FeedbackRating>(),
    feedbackComment: text("feedback_comment"),
    feedbackAt: timestamp("feedback_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    durationMs: integer("duration_ms"),
  },
  (t) => [index("research_runs_started_idx").on(t.startedAt), index("research_runs_parent_idx").on(t.parentId)],
);
export type ResearchRunRow = InferSelectModel<typeof researchRuns>;

/** Each step of a run as it last was; `payload` is the whole ResearchStep (sources, reasoning, data). */
export const researchSteps = pgTable(
  "research_steps",
  {
    runId: text("run_id")
      .notNull()
      .references(() => researchRuns.id, { onDelete: "cascade" }),
    stepId: text("step_id").notNull(),
    position: integer("position").notNull(),
    type: text("type").$type<ResearchStep["type"]>().notNull(),
    status: text("status").$type<ResearchStep["status"]>().notNull(),
    durationMs: integer("duration_ms"),
    payload: jsonb("payload").$type<ResearchStep>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.stepId] })],
);

/** The answer's citations, resolved and verified. No foreign key to papers: a run outlives a deleted paper. */
export const researchCitations = pgTable(
  "research_citations",
  {
    runId: text("run_id")
      .notNull()
      .references(() => researchRuns.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    paperId: text("paper_id").notNull(),
    page: integer("page").notNull(),
    chunkUid: text("chunk_uid"),
    marker: text("marker").notNull(),
    claim: text("claim").notNull(),
    quote: text("quote").notNull(),
    charStart: integer("char_start"),
    charEnd: integer("char_end"),
    supported: boolean("supported").notNull(),
    support: real("support").notNull(),
    reason: text("reason"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.position] }), index("research_citations_paper_idx").on(t.paperId)],
);
