/**
 * Retrieval at scale on a real PostgreSQL: N synthetic chunks (default 100,000) with vectors from the project's
 * configured embedder (offline: the latent embedder, 256-d, its model fitted on 20,000 chunks of the same generator),
 * in a database of its own. Measures bulk load, GIN and HNSW build time (the indexes exactly as the migration
 * defines them), index sizes, incremental ingestion with the indexes in place, the passages' hubness (the library step
 * after an ingest), vector query latency through `searchVector` (the app's query path) at its default ef_search and an
 * ef_search sweep, recall@15 and recall@60 of HNSW against exact search, and end-to-end `searchContent` (BM25 + vector
 * + RRF + MMR) latency.
 *
 *   DATABASE_URL=postgres://lectern:lectern@127.0.0.1:5432/lectern npm run bench:scale -- [--chunks 100000] [--json]
 *     [--keep] [--reuse] [--queries 300] [--ef 40,100,200,400] [--maintenance-work-mem 1GB] [--hnsw-with "m = 24"]
 *     [--incremental 1000] [--database lectern_bench_scale] [--no-corpus] [--seed 42] [--vector-only]
 *
 * PostgreSQL only: PGlite (single-threaded WebAssembly, one process) is refused — the target is for a server.
 * The database named by DATABASE_URL is only used to CREATE/DROP the bench database (`lectern_bench_scale`, dropped
 * and recreated, and dropped again at the end unless --keep). --reuse measures an existing kept bench database
 * without reloading it (e.g. after rebuilding the index by hand); --vector-only skips the searchContent passes.
 * Progress goes to stderr; with --json, stdout carries exactly one JSON document. Figures: docs/benchmarks.md.
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { openDatabase } from "@/db";
import { replaceLatentModel } from "@/db/queries/latent";
import { getHnswPrecision } from "@/db/queries/meta";
import { searchVector } from "@/db/queries/search";
import { toStoredVector } from "@/db/queries/vectors";
import { EMBEDDING_DIMENSIONS, type HnswPrecision } from "@/db/schema";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { ensureEmbeddingSignature } from "@/lib/embeddings/guard";
import { refreshHubness } from "@/lib/embeddings/hubness";
import { fitLatentModel, LATENT_MODEL, type LatentModel, latentVector } from "@/lib/embeddings/latent";
import { getEnv } from "@/lib/env";
import { sentenceTermEnds } from "@/lib/ingest/chunk";
import { savePaperContent } from "@/lib/ingest/save";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import { createRng } from "@/lib/random";
import { percentile } from "@/lib/search/eval";
import { defaultEfSearch, searchContent } from "@/lib/search/search";
import { searchText } from "@/lib/text/terms";
import {
  createPaperGenerator,
  createZipfSource,
  loadCorpusSource,
  perturbedExcerpt,
  type SynthChunk,
  type SynthPaper,
  type TextSource,
} from "./scale-text";

const { values: args } = parseArgs({
  options: {
    chunks: { type: "string", default: "100000" },
    queries: { type: "string", default: "300" },
    ef: { type: "string", default: "40,100,200,400" },
    incremental: { type: "string", default: "1000" },
    database: { type: "string", default: "lectern_bench_scale" },
    seed: { type: "string", default: "42" },
    corpus: { type: "string", default: path.resolve("../shared/corpus/papers") },
    "no-corpus": { type: "boolean", default: false },
    "maintenance-work-mem": { type: "string" },
    "hnsw-with": { type: "string" },
    json: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    reuse: { type: "boolean", default: false },
    "vector-only": { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(`bench:scale: ${message}`);
  process.exit(1);
}
const int = (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be a whole number ≥ ${min} (got ${v}).`);
  return n;
};
const N = int("chunks", args.chunks, 100);
const QUERIES = int("queries", args.queries, 10);
const INCREMENTAL = Math.min(int("incremental", args.incremental, 0), Math.floor(N / 10));
const SEED = int("seed", args.seed, 0);
const LATENT_FIT_ROWS = 20_000;
const EF_SWEEP = (args.ef as string).split(",").map((s) => int("ef", s.trim(), 1));
const DB_NAME = args.database as string;
const K_VALUES = [15, 60] as const; // the results the app shows, and the candidates each retriever hands to fusion
const MAX_K = 60;
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(DB_NAME)) fail(`--database must be a plain lower-case identifier.`);
if (["lectern", "lectern_e2e", "postgres", "template0", "template1"].includes(DB_NAME)) {
  fail(`refusing to use the database "${DB_NAME}": the bench drops and recreates its database.`);
}
if (args["hnsw-with"] && !/^[a-z_ =,0-9]+$/.test(args["hnsw-with"]))
  fail("--hnsw-with takes e.g. 'm = 24, ef_construction = 128'.");
if (args["maintenance-work-mem"] && !/^\d+\s*(kB|MB|GB)$/.test(args["maintenance-work-mem"])) {
  fail("--maintenance-work-mem takes e.g. 256MB or 1GB.");
}

const env = getEnv();
if (!env.DATABASE_URL) {
  fail(
    "needs PostgreSQL: set DATABASE_URL (e.g. postgres://lectern:lectern@127.0.0.1:5432/lectern). " +
      "PGlite is not supported: the scale target is for a PostgreSQL server.",
  );
}
const adminUrl = env.DATABASE_URL;
const benchUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

const log = (msg: string) => process.stderr.write(`[bench:scale] ${msg}\n`);
const ms = (t0: number) => performance.now() - t0;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const vectorLiteral = (v: number[]) => `[${toStoredVector(v).join(",")}]`;

interface LatencyStats {
  n: number;
  p50: number;
  p95: number;
  mean: number;
}
function stats(times: number[]): LatencyStats {
  return {
    n: times.length,
    p50: round(percentile(times, 50), 2),
    p95: round(percentile(times, 95), 2),
    mean: round(times.reduce((a, b) => a + b, 0) / Math.max(1, times.length), 2),
  };
}

// --- database setup ---------------------------------------------------------------------------------------------

async function adminQuery(text: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

// --- load -------------------------------------------------------------------------------------------------------

interface Batch {
  papers: SynthPaper[];
  chunks: (SynthChunk & { paperId: string })[];
}

function paperRow(p: SynthPaper) {
  return [
    p.id,
    p.docId,
    p.title,
    p.authors,
    p.pages[0]?.text.slice(0, 600) ?? null,
    p.year,
    p.categories,
    `papers/${p.docId}.pdf`,
    `${p.id}.pdf`,
    200_000 + p.pages.length * 40_000,
    p.pages.length,
  ];
}

/** Multi-row INSERT of `rows` (each `cols` wide) with `$n` parameters, optionally casting some columns. */
function multiInsert(table: string, columns: string[], rows: unknown[][], casts: Record<number, string> = {}) {
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const cells = row.map((v, i) => {
      params.push(v);
      return `$${params.length}${casts[i] ? `::${casts[i]}` : ""}`;
    });
    return `(${cells.join(",")})`;
  });
  return { text: `insert into ${table} (${columns.join(",")}) values ${tuples.join(",")}`, values: params };
}

async function insertBatch(pool: pg.Pool, batch: Batch, vectors: number[][]) {
  const client = await pool.connect();
  try {
    await client.query(
      multiInsert(
        "papers",
        [
          "id",
          "doc_id",
          "title",
          "authors",
          "abstract",
          "year",
          "categories",
          "file_path",
          "file_name",
          "file_size",
          "page_count",
          "status",
        ],
        batch.papers.map((p) => [...paperRow(p), "ready"]),
      ),
    );
    const pageRows = batch.papers.flatMap((p) => p.pages.map((pg) => [p.id, pg.pageNumber, pg.text]));
    for (let i = 0; i < pageRows.length; i += 1000) {
      await client.query(multiInsert("pages", ["paper_id", "page_number", "text"], pageRows.slice(i, i + 1000)));
    }
    const chunkRows = batch.chunks.map((c, i) => [
      c.chunkUid,
      c.paperId,
      c.pageNumber,
      c.chunkIndex,
      c.text,
      c.charStart,
      c.charEnd,
      c.tokenCount,
      // what savePaperContent stores: the full-text index is built from it (migration 0003)
      searchText(c.text),
      vectorLiteral(vectors[i] as number[]),
      // and where its sentences end, as ingestion writes them (the best-sentence ranking reads them)
      `{${sentenceTermEnds(c.text).join(",")}}`,
    ]);
    for (let i = 0; i < chunkRows.length; i += 500) {
      await client.query(
        multiInsert(
          "chunks",
          [
            "chunk_uid",
            "paper_id",
            "page_number",
            "chunk_index",
            "text",
            "char_start",
            "char_end",
            "token_count",
            "search_text",
            "embedding",
            "sentence_ends",
          ],
          chunkRows.slice(i, i + 500),
          { 9: "vector", 10: "int[]" },
        ),
      );
    }
  } finally {
    client.release();
  }
}

// --- measurement helpers ----------------------------------------------------------------------------------------

/** Set once the database is open (getHnswPrecision). */
let HNSW_PRECISION: HnswPrecision = "half";

const NEAREST_SQL = `
  with nearest as materialized (
    select c.chunk_uid, c.paper_id, c.embedding <=> $1::vector as distance
    from chunks c join papers p on p.id = c.paper_id
    where c.embedding is not null and p.status = 'ready'
    order by c.embedding <=> $1::vector
    limit $2
  )
  select chunk_uid, distance::float8 as distance from nearest order by distance, chunk_uid`;

/** Exact nearest neighbours: searchVector's query with index scans off (a parallel sequential scan and a top-N sort). */
async function exactSearch(client: pg.PoolClient, vec: string, k: number) {
  await client.query("begin");
  try {
    await client.query("set local enable_indexscan = off");
    const r = await client.query<{ chunk_uid: string; distance: number }>(NEAREST_SQL, [vec, k]);
    return r.rows.map((row) => ({ id: row.chunk_uid, distance: Number(row.distance) }));
  } finally {
    await client.query("commit");
  }
}

/** The vectors' dimension: the configured embedder's (set in main). */
let dims = EMBEDDING_DIMENSIONS;
/** searchVector's walk: ordered by the index's key (half precision on PostgreSQL: db/schema.ts, HnswPrecision). */
const nearestHalfSql = () =>
  NEAREST_SQL.replace(
    "order by c.embedding <=> $1::vector",
    `order by c.embedding::halfvec(${dims}) <=> $1::halfvec(${dims})`,
  );

/** The plan of the nearest-neighbour query (as searchVector sets it up, or exact), the vector literal elided. */
async function explain(client: pg.PoolClient, vec: string, k: number, efSearch: number | "exact"): Promise<string> {
  await client.query("begin");
  try {
    if (efSearch === "exact") await client.query("set local enable_indexscan = off");
    else {
      await client.query(
        "select set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
        [String(efSearch)],
      );
    }
    const query = efSearch === "exact" || HNSW_PRECISION === "full" ? NEAREST_SQL : nearestHalfSql();
    const r = await client.query<{ "QUERY PLAN": string }>(`explain ${query}`, [vec, k]);
    return r.rows.map((row) => row["QUERY PLAN"].replace(/'\[[^\]]*\]'/g, "'<query vector>'")).join("\n");
  } finally {
    await client.query("commit");
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/**
 * Recall@k with ties: an HNSW hit counts when its distance is within 1e-6 of the exact k-th distance (equal-distance
 * rows are interchangeable); `strict` is plain id overlap.
 */
function recallAt(exact: { id: string; distance: number }[], hnsw: { id: string; distance: number }[], k: number) {
  const truth = exact.slice(0, k);
  if (truth.length === 0) return { tolerant: 1, strict: 1, similarityGap: 0 };
  const kth = (truth[truth.length - 1] as { distance: number }).distance;
  const ids = new Set(truth.map((t) => t.id));
  const top = hnsw.slice(0, k);
  const tolerant = top.filter((h) => h.distance <= kth + 1e-6).length;
  const strict = top.filter((h) => ids.has(h.id)).length;
  const meanSim = (xs: { distance: number }[]) => 1 - mean(xs.map((x) => x.distance));
  return {
    tolerant: Math.min(1, tolerant / truth.length),
    strict: strict / truth.length,
    /** Mean cosine similarity of the exact top k minus that of the returned top k (what the misses cost). */
    similarityGap: top.length > 0 ? meanSim(truth) - meanSim(top) : meanSim(truth),
  };
}

// --- main -------------------------------------------------------------------------------------------------------

async function main() {
  const embedder = getEmbeddingProvider(env);
  dims = embedder.dimensions;
  if (embedder.dimensions !== EMBEDDING_DIMENSIONS) {
    log(`note: the embedder makes ${embedder.dimensions}-d vectors; the schema's default is ${EMBEDDING_DIMENSIONS}.`);
  }
  const tStart = performance.now();
  let source: TextSource | null = null;
  if (!args["no-corpus"]) {
    log(`reading sentences from ${args.corpus} …`);
    const t0 = performance.now();
    source = await loadCorpusSource(args.corpus as string, SEED);
    if (source) log(`  ${source.description} (${(ms(t0) / 1000).toFixed(1)} s)`);
  }
  if (!source) {
    source = createZipfSource(SEED);
    log(`no corpus: ${source.description}`);
  }

  // The offline latent embedder projects on a model fitted to the library: fitted here on 20,000 chunks of the same
  // generator (another seed), as ingestion would fit it on a sample of a library this size (MAX_FIT_ROWS).
  let embed = (texts: string[]) => embedder.embed(texts);
  let latentModel: Record<string, number> | null = null;
  let fitted: LatentModel | null = null;
  if (embedder.kind === "latent") {
    const tFit = performance.now();
    const fitGen = createPaperGenerator(source, SEED + 1);
    const sample: string[] = [];
    while (sample.length < LATENT_FIT_ROWS) for (const c of fitGen().chunks) sample.push(searchText(c.text));
    const model = await fitLatentModel(sample.slice(0, LATENT_FIT_ROWS), { dimensions: embedder.dimensions, rows: N });
    if (!model) throw new Error("the generated chunks gave the latent model nothing to fit");
    embed = async (texts) => texts.map((t) => latentVector(model, searchText(t)));
    fitted = model;
    latentModel = { fittedOn: LATENT_FIT_ROWS, terms: model.terms.length, rank: model.rank, fitMs: ms(tFit) };
    log(
      `fitted the latent model on ${LATENT_FIT_ROWS} chunks (${model.terms.length} terms) in ${(ms(tFit) / 1000).toFixed(1)} s`,
    );
  }

  if (!args.reuse) {
    log(`creating database ${DB_NAME} (dropped first if it exists)`);
    await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(`create database ${DB_NAME}`);
  }
  const handle = await openDatabase({ url: benchUrl, prepare: runLibraryUpgrades }); // applies the project's migrations
  // the app's searches (searchContent below) embed their queries with the library's stored model
  if (fitted) await replaceLatentModel(handle.db, { ...fitted, model: LATENT_MODEL });
  const pool = new pg.Pool({ connectionString: benchUrl, max: 3 });
  pool.on("error", (e) => log(`idle client error: ${e.message}`));
  const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await pool.query<T>(text, values)).rows;

  const settingsRows = await q<{ name: string; setting: string }>(
    `select name, current_setting(name) as setting from pg_settings where name in ('shared_buffers', 'work_mem', 'maintenance_work_mem',
       'max_parallel_workers_per_gather', 'max_parallel_maintenance_workers', 'effective_cache_size')`,
  );
  const [{ version: serverVersion } = { version: "?" }] = await q<{ version: string }>(
    "select current_setting('server_version') as version",
  );
  const [{ v: pgvectorVersion } = { v: "?" }] = await q<{ v: string }>(
    "select extversion as v from pg_extension where extname = 'vector'",
  );
  const settings: Record<string, string> = Object.fromEntries(settingsRows.map((r) => [r.name, r.setting]));
  const mwmDefault = settings.maintenance_work_mem ?? "?";

  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    latentModel,
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memoryGb: round(os.totalmem() / 1024 ** 3, 1),
      node: process.version,
    },
    postgres: { version: serverVersion, pgvector: pgvectorVersion, settings },
    database: DB_NAME,
    text: source.description,
    embedder: `${embedder.kind} ${embedder.model} (${embedder.dimensions}-d)`,
  };

  try {
    if (!args.reuse) {
      await ensureEmbeddingSignature(handle.db, embedder); // what ingestion does first on an empty library
      const indexDefs = await q<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes
         where tablename = 'chunks' and indexname in ('chunks_embedding_hnsw', 'chunks_tsv_gin')`,
      );
      const hnswDef = indexDefs.find((r) => r.indexname === "chunks_embedding_hnsw")?.indexdef;
      const ginDef = indexDefs.find((r) => r.indexname === "chunks_tsv_gin")?.indexdef;
      if (!hnswDef || !ginDef)
        throw new Error("the migrated schema has no chunks_embedding_hnsw / chunks_tsv_gin index");
      await q("drop index chunks_embedding_hnsw");
      await q("drop index chunks_tsv_gin");

      // bulk load: generate + chunk + embed on the main thread while the previous batch is being inserted
      const generate = createPaperGenerator(source, SEED);
      const bulkTarget = N - INCREMENTAL;
      log(`loading ${bulkTarget.toLocaleString("en")} chunks (HNSW and GIN dropped) …`);
      let loaded = 0;
      let papers = 0;
      let pages = 0;
      let embedMs = 0;
      let generateMs = 0;
      let failure: unknown = null;
      let inFlight: Promise<void> = Promise.resolve();
      const tLoad = performance.now();
      let batch: Batch = { papers: [], chunks: [] };
      let lastLog = performance.now();
      while (loaded < bulkTarget) {
        const tg = performance.now();
        const paper = generate();
        generateMs += ms(tg);
        const take = paper.chunks.slice(0, bulkTarget - loaded);
        loaded += take.length;
        papers++;
        pages += paper.pages.length;
        batch.papers.push(paper);
        for (const c of take) batch.chunks.push({ ...c, paperId: paper.id });
        if (batch.chunks.length >= 2000 || loaded >= bulkTarget) {
          const te = performance.now();
          const vectors = await embed(batch.chunks.map((c) => c.text));
          embedMs += ms(te);
          await inFlight;
          if (failure) throw failure;
          const b = batch;
          inFlight = insertBatch(pool, b, vectors).catch((e) => {
            failure = e;
          });
          batch = { papers: [], chunks: [] };
          if (performance.now() - lastLog > 10_000) {
            lastLog = performance.now();
            log(`  ${loaded.toLocaleString("en")} chunks · ${(ms(tLoad) / 1000).toFixed(0)} s`);
          }
        }
      }
      await inFlight;
      if (failure) throw failure;
      const loadMs = ms(tLoad);
      log(`  loaded in ${(loadMs / 1000).toFixed(1)} s`);

      const tVac = performance.now();
      await q("vacuum (analyze) papers, pages, chunks");
      const vacuumMs = ms(tVac);

      log("building the GIN index …");
      const tGin = performance.now();
      await q(ginDef);
      const ginMs = ms(tGin);

      const mwm = args["maintenance-work-mem"];
      const buildDef = args["hnsw-with"]
        ? `${hnswDef.replace(/\s+WITH\s*\([^)]*\)\s*$/i, "")} with (${args["hnsw-with"]})`
        : hnswDef;
      log(`building the HNSW index (${buildDef}; maintenance_work_mem ${mwm ?? mwmDefault}) …`);
      const notices: string[] = [];
      const client = await pool.connect();
      const onNotice = (n: { message?: string }) => notices.push(n.message ?? "");
      client.on("notice", onNotice);
      let hnswMs: number;
      try {
        if (mwm) await client.query(`set maintenance_work_mem = '${mwm}'`);
        const tHnsw = performance.now();
        await client.query(buildDef);
        hnswMs = ms(tHnsw);
        if (mwm) await client.query("reset maintenance_work_mem");
      } finally {
        client.off("notice", onNotice);
        client.release();
      }
      log(`  HNSW built in ${(hnswMs / 1000).toFixed(1)} s${notices.length ? ` — ${notices.join(" | ")}` : ""}`);

      // incremental ingestion with both indexes in place, through the pipeline's own save (one transaction per paper)
      let incMs = 0;
      let incChunks = 0;
      if (INCREMENTAL > 0) {
        log(`ingesting ${INCREMENTAL} more chunks through savePaperContent with the indexes in place …`);
        const tInc = performance.now();
        while (incChunks < INCREMENTAL) {
          const paper = generate();
          const take = paper.chunks.slice(0, INCREMENTAL - incChunks);
          const vectors = await embed(take.map((c) => c.text));
          await savePaperContent(handle.db, {
            paper: {
              id: paper.id,
              docId: paper.docId,
              title: paper.title,
              authors: paper.authors,
              year: paper.year,
              categories: paper.categories,
              filePath: `papers/${paper.docId}.pdf`,
              fileName: `${paper.id}.pdf`,
              fileSize: 200_000 + paper.pages.length * 40_000,
              pageCount: paper.pages.length,
            },
            pages: paper.pages,
            chunks: take.map((c, i) => ({
              ...c,
              sentenceEnds: sentenceTermEnds(c.text),
              embedding: vectors[i] as number[],
            })),
            summary: { text: paper.title, method: "extractive", model: null },
            summaryChunks: [],
          });
          incChunks += take.length;
          papers++;
          pages += paper.pages.length;
        }
        incMs = ms(tInc);
      }
      await q("analyze chunks");

      // the library step after an ingest: each passage's hubness (mean similarity of its 10 nearest passages, through
      // the HNSW index), which the vector search's ranking uses
      log("computing the passages' hubness (one HNSW walk per passage) …");
      const tHub = performance.now();
      const hub = await refreshHubness(handle.db, {
        batch: 500,
        onProgress: (p) => {
          if (p.done % 10_000 < 500) log(`  ${p.done.toLocaleString("en")} / ${p.total.toLocaleString("en")}`);
        },
      });
      const hubMs = ms(tHub);
      log(`  hubness of ${hub.filled.toLocaleString("en")} passages in ${(hubMs / 1000).toFixed(1)} s`);

      report.load = {
        papers,
        pages,
        chunks: loaded + incChunks,
        bulk: {
          chunks: loaded,
          seconds: round(loadMs / 1000),
          chunksPerSecond: Math.round(loaded / (loadMs / 1000)),
          method: "multi-row INSERT, 500 chunks per statement, one batch in flight while the next is embedded",
          generateSeconds: round(generateMs / 1000),
          embedSeconds: round(embedMs / 1000),
        },
        vacuumAnalyzeSeconds: round(vacuumMs / 1000),
        incremental:
          INCREMENTAL > 0
            ? {
                chunks: incChunks,
                seconds: round(incMs / 1000, 2),
                chunksPerSecond: Math.round(incChunks / (incMs / 1000)),
                method: "savePaperContent, one transaction per paper, HNSW + GIN maintained",
              }
            : null,
      };
      report.build = {
        gin: { seconds: round(ginMs / 1000), definition: ginDef },
        hubness: { seconds: round(hubMs / 1000), passages: hub.filled },
        hnsw: {
          seconds: round(hnswMs / 1000),
          definition: buildDef,
          maintenanceWorkMem: mwm ?? mwmDefault,
          maxParallelMaintenanceWorkers: settings.max_parallel_maintenance_workers,
          notices,
        },
      };
    }

    const sizes = await q<{ name: string; bytes: string }>(
      `select indexrelname as name, pg_relation_size(indexrelid)::bigint as bytes
       from pg_stat_user_indexes where relname = 'chunks'
       union all select 'chunks (heap)', pg_relation_size('chunks')
       union all select 'chunks (heap + TOAST)', pg_table_size('chunks')
       union all select 'chunks (total)', pg_total_relation_size('chunks')
       union all select 'pages (total)', pg_total_relation_size('pages')
       union all select 'database', pg_database_size(current_database())`,
    );
    const [counts] = await q<{ chunks: string; papers: string; pages: string }>(
      "select (select count(*) from chunks) as chunks, (select count(*) from papers) as papers, (select count(*) from pages) as pages",
    );
    const totalChunks = Number(counts?.chunks);
    HNSW_PRECISION = await getHnswPrecision(handle.db);
    report.rows = {
      chunks: Number(counts?.chunks),
      papers: Number(counts?.papers),
      pages: Number(counts?.pages),
    };
    report.sizesMb = Object.fromEntries(sizes.map((s) => [s.name, round(Number(s.bytes) / 1024 ** 2, 1)]));
    const [hnswOpts] = await q<{ options: string[] | null }>(
      "select reloptions as options from pg_class where relname = 'chunks_embedding_hnsw'",
    );
    report.hnswOptions = hnswOpts?.options ?? "pgvector defaults (m = 16, ef_construction = 64)";
    report.hnswPrecision = HNSW_PRECISION;

    // --- queries: held-out sentences and perturbed excerpts of stored chunks ---
    const rng = createRng(SEED ^ 0x9e3779b9);
    const half = Math.floor(QUERIES / 2);
    const held = [...new Set(source.heldOut)];
    const heldQueries: string[] = [];
    while (heldQueries.length < Math.min(half, held.length)) {
      const i = Math.floor(rng() * held.length);
      const s = held.splice(i, 1)[0] as string;
      heldQueries.push(s);
    }
    const sampled = await q<{ text: string }>("select text from chunks order by md5(chunk_uid || $1::text) limit $2", [
      String(SEED),
      QUERIES - heldQueries.length,
    ]);
    const excerptQueries = sampled.map((r) => perturbedExcerpt(r.text, rng));
    const queries = [...heldQueries, ...excerptQueries];
    const tEmb = performance.now();
    const qVectors = await embed(queries);
    const embedQueryMs = ms(tEmb) / queries.length;
    const qLiterals = qVectors.map(vectorLiteral);
    report.queries = {
      n: queries.length,
      heldOutSentences: heldQueries.length,
      perturbedChunkExcerpts: excerptQueries.length,
      meanWords: round(mean(queries.map((s) => s.split(/\s+/).length))),
      embedMsPerQuery: round(embedQueryMs, 3),
    };

    // plans: the HNSW path must use the index, the exact path must not
    const pc = await pool.connect();
    try {
      const hnswPlan = await explain(pc, qLiterals[0] as string, MAX_K, 100);
      const exactPlan = await explain(pc, qLiterals[0] as string, MAX_K, "exact");
      report.plans = {
        hnswUsesIndex: hnswPlan.includes("chunks_embedding_hnsw"),
        exactUsesIndex: exactPlan.includes("chunks_embedding_hnsw"),
        hnsw: hnswPlan,
        exact: exactPlan,
      };
    } finally {
      pc.release();
    }

    // warm-up: every query once through the real path (pulls the index into the caches)
    log(`warming up with ${queries.length} queries …`);
    for (const v of qVectors)
      await searchVector(handle.db, { table: "chunks", embedding: v, filters: {}, limit: MAX_K });

    log("exact search (ground truth) …");
    const exact: { id: string; distance: number }[][] = [];
    const exactTimes: number[] = [];
    const ec = await pool.connect();
    try {
      for (const lit of qLiterals) {
        const t0 = performance.now();
        exact.push(await exactSearch(ec, lit, MAX_K));
        exactTimes.push(ms(t0));
      }
    } finally {
      ec.release();
    }
    report.exactSearch = { k: MAX_K, latencyMs: stats(exactTimes) };

    /** searchVector (the app's query path) for every query at `limit` k: latency and recall against exact. */
    const runVector = async (k: number, efSearch: number | undefined) => {
      // the app's default grows with the table (lib/search: defaultEfSearch)
      const effective = Math.max(k, efSearch ?? defaultEfSearch(totalChunks));
      const c = await pool.connect();
      const usesIndex = await explain(c, qLiterals[0] as string, k, effective)
        .then((plan) => plan.includes("chunks_embedding_hnsw"))
        .finally(() => c.release());
      const times: number[] = [];
      const tolerant: number[] = [];
      const byKind: Record<string, number[]> = { heldOut: [], excerpt: [] };
      const gaps: number[] = [];
      const exactSims: number[] = [];
      const strict: number[] = [];
      let short = 0;
      for (let i = 0; i < qVectors.length; i++) {
        const t0 = performance.now();
        const hits = await searchVector(handle.db, {
          table: "chunks",
          embedding: qVectors[i] as number[],
          filters: {},
          limit: k,
          efSearch: effective,
        });
        times.push(ms(t0));
        if (hits.length < k) short++;
        const r = recallAt(
          exact[i] ?? [],
          hits.map((h) => ({ id: h.chunkUid, distance: 1 - h.similarity })),
          k,
        );
        tolerant.push(r.tolerant);
        gaps.push(r.similarityGap);
        exactSims.push(1 - mean((exact[i] ?? []).slice(0, k).map((x) => x.distance)));
        byKind[i < heldQueries.length ? "heldOut" : "excerpt"]?.push(r.tolerant);
        strict.push(r.strict);
      }
      return {
        k,
        efSearch: efSearch ?? `default (${defaultEfSearch(totalChunks)} for ${totalChunks.toLocaleString("en")} rows)`,
        effectiveEfSearch: effective,
        planUsesHnsw: usesIndex,
        latencyMs: stats(times),
        recall: round(mean(tolerant), 4),
        recallStrictIds: round(mean(strict), 4),
        minRecall: round(Math.min(...tolerant), 4),
        queriesBelow095: tolerant.filter((x) => x < 0.95).length,
        queriesWithFewerThanK: short,
        meanExactSimilarity: round(mean(exactSims), 4),
        meanSimilarityGap: round(mean(gaps), 4),
        recallHeldOutSentences: round(mean(byKind.heldOut ?? []), 4),
        recallChunkExcerpts: round(mean(byKind.excerpt ?? []), 4),
      };
    };

    log("vector search at the default ef_search …");
    const defaults = [];
    for (const k of K_VALUES) defaults.push(await runVector(k, undefined));
    report.vectorDefault = defaults;

    log(`ef_search sweep (${EF_SWEEP.join(", ")}) …`);
    const sweep = [];
    for (const ef of EF_SWEEP) for (const k of K_VALUES) sweep.push(await runVector(k, ef));
    report.efSweep = sweep;

    // end to end: what the app runs (hybrid BM25 + vector, RRF, relevance cutoff, MMR) with its defaults
    const timeContent = async (
      label: string,
      list: string[],
      opts: { retriever?: "fts" | "vector"; sentenceRanking?: boolean } = {},
    ) => {
      log(`searchContent, ${label} (${list.length} queries) …`);
      const times: number[] = [];
      const counts: number[] = [];
      for (const text of list) {
        const t0 = performance.now();
        const r = await searchContent(handle.db, text, embedder, opts);
        times.push(ms(t0));
        counts.push(r.length);
        if (times.length % 50 === 0)
          log(`  ${times.length}/${list.length} · p50 so far ${percentile(times, 50).toFixed(0)} ms`);
      }
      return { times, counts };
    };
    if (!args["vector-only"]) {
      const first = await timeContent("first pass (lexeme statistics cache cold)", queries);
      const warm = await timeContent("second pass (warm)", queries);
      // where the time goes: each retriever alone through the same function (warm), on the first 100 queries
      const sub = queries.slice(0, 100);
      const ftsOnly = await timeContent("full text only (warm)", sub, { retriever: "fts" });
      const vecOnly = await timeContent("vector only (warm)", sub, { retriever: "vector" });
      // the queries are sentences and excerpts, seldom questions asking for a fact: the best-sentence ranking forced
      const sentences = await timeContent("hybrid with the best-sentence ranking (warm)", sub, {
        sentenceRanking: true,
      });
      report.searchContent = {
        options:
          "defaults: hybrid, k = 15, 60 candidates per retriever, ef_search by table size (defaultEfSearch), MMR alpha 0.6, cutoff 0.38",
        firstPassMs: stats(first.times),
        warmMs: stats(warm.times),
        ftsOnlyWarmMs: stats(ftsOnly.times),
        vectorOnlyWarmMs: stats(vecOnly.times),
        sentenceRankingWarmMs: stats(sentences.times),
        meanResults: round(mean(first.counts), 1),
      };
    }
    report.totalSeconds = round(ms(tStart) / 1000);
  } finally {
    await pool.end();
    await handle.close();
    if (!args.keep) {
      log(`dropping ${DB_NAME}`);
      await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
    } else log(`kept ${DB_NAME} (drop it with: drop database ${DB_NAME})`);
  }

  if (args.json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  printHuman(report);
}

// biome-ignore lint/suspicious/noExplicitAny: printing a report assembled above
function printHuman(r: Record<string, any>) {
  const out: string[] = [];
  out.push(
    `machine: ${r.machine.cpus} × ${r.machine.cpu}, ${r.machine.memoryGb} GB, Node ${r.machine.node} · ` +
      `PostgreSQL ${r.postgres.version}, pgvector ${r.postgres.pgvector}`,
  );
  out.push(
    `settings: ${Object.entries(r.postgres.settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")}`,
  );
  out.push(`text: ${r.text} · embedder: ${r.embedder}`);
  out.push(`rows: ${r.rows.chunks} chunks, ${r.rows.pages} pages, ${r.rows.papers} papers`);
  if (r.load) {
    const b = r.load.bulk;
    out.push(
      `bulk load: ${b.chunks} chunks in ${b.seconds} s (${b.chunksPerSecond}/s; generating ${b.generateSeconds} s, ` +
        `embedding ${b.embedSeconds} s, overlapped with inserts) · vacuum analyze ${r.load.vacuumAnalyzeSeconds} s`,
    );
    if (r.load.incremental) {
      const i = r.load.incremental;
      out.push(`incremental ingest with indexes: ${i.chunks} chunks in ${i.seconds} s (${i.chunksPerSecond}/s)`);
    }
    out.push(`GIN build: ${r.build.gin.seconds} s`);
    out.push(
      `HNSW build: ${r.build.hnsw.seconds} s (${r.build.hnsw.definition}; maintenance_work_mem ` +
        `${r.build.hnsw.maintenanceWorkMem}, max_parallel_maintenance_workers ${r.build.hnsw.maxParallelMaintenanceWorkers})`,
    );
    for (const n of r.build.hnsw.notices) out.push(`  notice: ${n}`);
  }
  out.push(`HNSW options: ${JSON.stringify(r.hnswOptions)}`);
  out.push("sizes (MB):");
  for (const [k, v] of Object.entries(r.sizesMb)) out.push(`  ${k.padEnd(28)} ${v}`);
  out.push(
    `queries: ${r.queries.n} (${r.queries.heldOutSentences} held-out sentences, ${r.queries.perturbedChunkExcerpts} ` +
      `perturbed chunk excerpts, ${r.queries.meanWords} words on average; embedding ${r.queries.embedMsPerQuery} ms each)`,
  );
  out.push(`plans: HNSW path uses the index: ${r.plans.hnswUsesIndex}; exact path uses it: ${r.plans.exactUsesIndex}`);
  out.push(
    `exact search (top ${r.exactSearch.k}): p50 ${r.exactSearch.latencyMs.p50} ms, p95 ${r.exactSearch.latencyMs.p95} ms`,
  );
  out.push("");
  out.push(
    "| path | k | ef_search (effective) | plan | p50 ms | p95 ms | recall@k | strict ids | min | queries < 0.95 |",
  );
  out.push("|---|---|---|---|---|---|---|---|---|---|");
  for (const row of [...r.vectorDefault, ...r.efSweep]) {
    out.push(
      `| searchVector | ${row.k} | ${row.efSearch} (${row.effectiveEfSearch}) | ${row.planUsesHnsw ? "HNSW" : "seq scan"} | ` +
        `${row.latencyMs.p50} | ${row.latencyMs.p95} | ` +
        `${row.recall} | ${row.recallStrictIds} | ${row.minRecall} | ${row.queriesBelow095} |`,
    );
  }
  const sc = r.searchContent;
  if (sc) {
    out.push(
      `| searchContent, first pass | 15 | 100 | hybrid | ${sc.firstPassMs.p50} | ${sc.firstPassMs.p95} | — | — | — | — |`,
      `| searchContent, warm | 15 | 100 | hybrid | ${sc.warmMs.p50} | ${sc.warmMs.p95} | — | — | — | — |`,
      `| searchContent, full text only, warm | 15 | — | fts | ${sc.ftsOnlyWarmMs.p50} | ${sc.ftsOnlyWarmMs.p95} | — | — | — | — |`,
      `| searchContent, vector only, warm | 15 | 100 | vector | ${sc.vectorOnlyWarmMs.p50} | ${sc.vectorOnlyWarmMs.p95} | — | — | — | — |`,
      `| searchContent, best-sentence ranking, warm | 15 | 100 | hybrid + sentences | ${sc.sentenceRankingWarmMs.p50} | ${sc.sentenceRankingWarmMs.p95} | — | — | — | — |`,
    );
    out.push("", `searchContent returned ${sc.meanResults} results on average`);
  }
  out.push("", "recall by query kind (held-out sentences / chunk excerpts):");
  for (const row of [...r.vectorDefault, ...r.efSweep]) {
    out.push(
      `  k ${row.k}, ef_search ${row.efSearch}: ${row.recallHeldOutSentences} / ${row.recallChunkExcerpts} · ` +
        `mean cosine of the exact top k ${row.meanExactSimilarity}, returned ${row.meanSimilarityGap} lower`,
    );
  }
  out.push(`total ${r.totalSeconds} s`);
  console.log(out.join("\n"));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
