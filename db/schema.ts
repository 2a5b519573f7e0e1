import type { InferInsertModel, InferSelectModel } from "drizzle-orm";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
  vector,
} from "drizzle-orm/pg-core";
import type {
  FeedbackRating,
  Reference,
  Relevance,
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
    /** Journal, proceedings or arXiv's journal reference, when a trusted source (arXiv, an imported export) gives it. */
    venue: text("venue"),
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
    /** The account that asked (its author: the run is private to it unless shared). Null when the account is gone. */
    ownerId: text("owner_id").references(() => users.id, { onDelete: "set null" }),
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
    /**
     * While running: the process executing it (lib/research/lease.ts) and until when it vouches for it; it renews
     * the lease as it goes. A running run whose lease has expired is dead, whichever instance sees it.
     */
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
  },
  (t) => [
    index("research_runs_started_idx").on(t.startedAt),
    index("research_runs_parent_idx").on(t.parentId),
    index("research_runs_owner_idx").on(t.ownerId, t.startedAt),
  ],
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
    /** Does the claim bear on the question (or its outline point)? Null for runs made before relevance was judged. */
    relevance: text("relevance").$type<Relevance>(),
    relevanceReason: text("relevance_reason"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.position] }), index("research_citations_paper_idx").on(t.paperId)],
);

// ---- accounts (Better Auth's tables: lib/auth/server.ts maps them; the property names are the ones it expects) ----

export const ROLES = ["owner", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** A person with an account. `role` is the instance's: owner, member or viewer (lib/auth/roles.ts). */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role").$type<Role>().notNull().default("viewer"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
export type UserRow = InferSelectModel<typeof users>;

/** Signed-in sessions (the cookie holds the token, signed). */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** How a person signs in: here always `credential` (email and a hashed password). */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

export const verifications = pgTable("verifications", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** An invitation to join with a role: the link carries a random token, stored here only as its SHA-256. */
export const invites = pgTable("invites", {
  tokenHash: text("token_hash").primaryKey(),
  email: text("email").notNull(),
  role: text("role").$type<Role>().notNull(),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

/**
 * A share link of a research run: `/s/<token>` opens a read-only snapshot. The token (256 random bits) is stored only
 * as its SHA-256; revoking sets `revoked_at` (the link is dead at once), `expires_at` is optional.
 */
export const shareLinks = pgTable(
  "share_links",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => researchRuns.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("share_links_run_idx").on(t.runId)],
);
export type ShareLinkRow = InferSelectModel<typeof shareLinks>;

/** Requests counted per key (an account and an action) and fixed window, so limits hold across app instances. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** Who did what to the library and to people: uploads, replacements, edits, deletions, role changes. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id"),
    /** Kept as it was when the action happened (the account may be removed later). */
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    subject: text("subject").notNull(),
    detail: jsonb("detail")
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [index("audit_log_at_idx").on(t.at)],
);
export type AuditRow = InferSelectModel<typeof auditLog>;

// ---- Knowledge graph (lib/graph) -----------------------------------------------------------------------------------

export const graphEntityTypes = ["Method", "Model", "Dataset", "Metric", "Task", "Concept"] as const;
export type GraphEntityType = (typeof graphEntityTypes)[number];

export const graphRelations = ["improves_on", "extends", "uses", "evaluates_on", "introduces", "compares_to"] as const;
export type GraphRelation = (typeof graphRelations)[number];

export const graphEdgeStatuses = ["accepted", "review", "rejected"] as const;
export type GraphEdgeStatus = (typeof graphEdgeStatuses)[number];

/** How an alias link was made: A = exact, normalised or an acronym the paper defines; B = embedding + shared alias; manual = review. */
export const graphAliasTiers = ["A", "B", "manual"] as const;
export type GraphAliasTier = (typeof graphAliasTiers)[number];

/**
 * An entity of the graph's ontology. One row per canonical name (lib/graph/normalize.ts `canonicalName`); names that
 * denote the same thing are linked, never merged: `alias_of` points at the entity that stands for the group (one
 * level: a root has no alias_of), and queries resolve it when they read. Unlinking sets it back to null.
 */
export const graphEntities = pgTable(
  "graph_entities",
  {
    id: serial("id").primaryKey(),
    /** As a paper writes it ("Dense Passage Retriever"). */
    name: text("name").notNull(),
    /** The lookup key: lower case, dashes and spaces folded, a leading article dropped. */
    canonicalName: text("canonical_name").notNull().unique(),
    type: text("type").$type<GraphEntityType>().notNull(),
    description: text("description"),
    /** The library's embedder's vector of the name (and description); null when it has none (offline, unknown words). */
    embedding: vector("embedding", { dimensions: EMBEDDING_DIMENSIONS }),
    aliasOf: integer("alias_of").references((): AnyPgColumn => graphEntities.id, { onDelete: "set null" }),
    aliasTier: text("alias_tier").$type<GraphAliasTier>(),
    /** Why it was linked ("defined as DPR in 2004.04906", "similarity 0.97, shared acronym BERT"). */
    aliasReason: text("alias_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("graph_entities_alias_idx").on(t.aliasOf), index("graph_entities_type_idx").on(t.type)],
);
export type GraphEntityRow = InferSelectModel<typeof graphEntities>;

/** Which papers mention an entity (found by the extractor in that paper), and the first page it was seen on. */
export const graphMentions = pgTable(
  "graph_mentions",
  {
    entityId: integer("entity_id")
      .notNull()
      .references(() => graphEntities.id, { onDelete: "cascade" }),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    page: integer("page"),
    count: integer("count").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.paperId] }), index("graph_mentions_paper_idx").on(t.paperId)],
);

/**
 * A typed relation claimed by a paper, with its evidence: `quote` is verbatim page text (≤ 300 characters) at
 * `char_start`..`char_end` of `pages.text` for (`paper_id`, `page`). Replaced whenever its paper is extracted again;
 * gone with its paper.
 */
export const graphEdges = pgTable(
  "graph_edges",
  {
    id: serial("id").primaryKey(),
    sourceId: integer("source_id")
      .notNull()
      .references(() => graphEntities.id, { onDelete: "cascade" }),
    targetId: integer("target_id")
      .notNull()
      .references(() => graphEntities.id, { onDelete: "cascade" }),
    relation: text("relation").$type<GraphRelation>().notNull(),
    paperId: text("paper_id")
      .notNull()
      .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
    page: integer("page").notNull(),
    quote: text("quote").notNull(),
    charStart: integer("char_start").notNull(),
    charEnd: integer("char_end").notNull(),
    confidence: real("confidence").notNull(),
    status: text("status").$type<GraphEdgeStatus>().notNull(),
    /** Why it is in review or was rejected (a person's reason, or the rule's). */
    reason: text("reason"),
    /** `rules` or the model's name. */
    extractor: text("extractor").notNull(),
    /** Set when a person accepted or rejected it in review: kept over a re-extraction of the same claim. */
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("graph_edges_target_idx").on(t.targetId, t.relation),
    index("graph_edges_source_idx").on(t.sourceId, t.relation),
    index("graph_edges_paper_idx").on(t.paperId),
  ],
);
export type GraphEdgeRow = InferSelectModel<typeof graphEdges>;

export const graphSuggestionStatuses = ["pending", "accepted", "rejected"] as const;
export type GraphSuggestionStatus = (typeof graphSuggestionStatuses)[number];

/**
 * Alias links proposed for a person to confirm (tier B below the auto-link bar). A rejected pair is never proposed or
 * linked again; splitting an automatic link records one.
 */
export const graphAliasSuggestions = pgTable(
  "graph_alias_suggestions",
  {
    id: serial("id").primaryKey(),
    entityId: integer("entity_id")
      .notNull()
      .references(() => graphEntities.id, { onDelete: "cascade" }),
    candidateId: integer("candidate_id")
      .notNull()
      .references(() => graphEntities.id, { onDelete: "cascade" }),
    similarity: real("similarity"),
    reason: text("reason").notNull(),
    status: text("status").$type<GraphSuggestionStatus>().notNull().default("pending"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("graph_alias_suggestions_pair_idx").on(t.entityId, t.candidateId)],
);
export type GraphAliasSuggestionRow = InferSelectModel<typeof graphAliasSuggestions>;

// ---- Ingestion jobs (lib/jobs) ---------------------------------------------------------------------------------------

export const ingestFileStatuses = ["queued", "running", "ingested", "unchanged", "replaced", "error"] as const;
export type IngestFileStatus = (typeof ingestFileStatuses)[number];
export const libraryStepStatuses = ["waiting", "running", "done", "error", "skipped"] as const;

/**
 * One upload (a web request, a CLI command): its files are jobs of their own (any worker takes any file); the library
 * step (vectors, hubness, the knowledge graph) runs once its files are done, for this batch and any other waiting.
 */
export const ingestBatches = pgTable(
  "ingest_batches",
  {
    id: text("id").primaryKey(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** "web" or "cli" (or an importer: "arxiv", "bibliography"). */
    origin: text("origin").notNull(),
    total: integer("total").notNull(),
    libraryStatus: text("library_status", { enum: libraryStepStatuses }).notNull().default("waiting"),
    libraryStage: text("library_stage"),
    libraryDone: integer("library_done"),
    libraryOf: integer("library_of"),
    /** The library step's outcome (`LibraryVectorsRefresh` and the graph's counts) or its error. */
    libraryResult: jsonb("library_result").$type<Record<string, unknown>>(),
    libraryError: text("library_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ingest_batches_created_idx").on(t.createdAt)],
);
export type IngestBatchRow = InferSelectModel<typeof ingestBatches>;

export const ingestFiles = pgTable(
  "ingest_files",
  {
    id: text("id").primaryKey(),
    batchId: text("batch_id")
      .notNull()
      .references(() => ingestBatches.id, { onDelete: "cascade" }),
    /** Position in its batch (the order the files were given in). */
    position: integer("position").notNull(),
    /** The name the user gave (a file name; the CLI's path). */
    fileName: text("file_name").notNull(),
    size: integer("size"),
    /** Where the upload waits in the PDF store (`uploads/<id>.pdf`) until its job is done; null once removed. */
    uploadKey: text("upload_key"),
    /** Metadata from a trusted source (arXiv, a bibliography) that overrides the PDF's guesses. */
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    status: text("status", { enum: ingestFileStatuses }).notNull().default("queued"),
    stage: text("stage"),
    stageDone: integer("stage_done"),
    stageOf: integer("stage_of"),
    attempts: integer("attempts").notNull().default(0),
    paperId: text("paper_id"),
    title: text("title"),
    pages: integer("pages"),
    chunks: integer("chunks"),
    error: text("error"),
    errorCode: text("error_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("ingest_files_batch_idx").on(t.batchId, t.position),
    index("ingest_files_status_idx").on(t.status, t.updatedAt),
  ],
);
export type IngestFileRow = InferSelectModel<typeof ingestFiles>;
export type NewIngestFile = InferInsertModel<typeof ingestFiles>;

/**
 * Which papers the graph has been built for, and from which version of the PDF (`doc_id`): a paper with no row, or
 * whose doc_id changed (replaced), is built by the next library step. Gone with its paper.
 */
export const graphPapers = pgTable("graph_papers", {
  paperId: text("paper_id")
    .primaryKey()
    .references(() => papers.id, { onDelete: "cascade", onUpdate: "cascade" }),
  docId: text("doc_id").notNull(),
  extractor: text("extractor").notNull(),
  edges: integer("edges").notNull(),
  builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
});
