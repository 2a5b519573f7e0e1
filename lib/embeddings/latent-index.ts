import type { Database } from "@/db";
import { updateEmbeddings, withIndexesRebuilt } from "@/db/queries/ingest";
import {
  countRows,
  getLatentModelInfo,
  listSearchTexts,
  loadLatentModel,
  replaceLatentModel,
  type SearchTextRow,
  type VectorTable,
} from "@/db/queries/latent";
import { FIT_VERSION_META_KEY, getMeta, isEmbeddedDatabase, setMeta } from "@/db/queries/meta";
import { lockVectorWrites } from "@/db/queries/vectors";
import { searchText } from "@/lib/text/terms";
import {
  DEFAULT_LATENT_DIMENSIONS,
  fitLatentModel,
  LATENT_MODEL,
  type LatentModel,
  latentDimensions,
  latentVector,
} from "./latent";
import type { EmbeddingProvider } from "./types";

/**
 * The library's latent model: fitted to its passages, refitted when it has grown by a quarter since (every vector is
 * rewritten with the new model, in the same transaction); passages added in between are projected on the current
 * model ("folding in", as LSA does), which knows most of their words already.
 */
export const REFIT_GROWTH = 1.25;

/**
 * Whether a table of `rows` passages has grown or shrunk by REFIT_GROWTH since it had `before`: the rule for refitting
 * the latent model and for computing every hubness again (lib/embeddings/hubness.ts).
 */
export function sizeDrifted(rows: number, before: number): boolean {
  return rows >= before * REFIT_GROWTH || rows <= before * (2 - REFIT_GROWTH);
}
/**
 * What the library's model is fitted to, as a version: a model fitted by an older rule is refitted at the library's
 * next step (an ingest, a deletion, `reembed`). 2: the papers' reference lists are left out of the fit.
 */
export const LATENT_FIT_VERSION = 2;
/** Below this share of known words among the passages to fold in, the model is refitted instead. */
const MIN_KNOWN_SHARE = 0.8;
/** Passages fitted at most: above, an evenly spaced sample (the fit's cost grows with it; the projection does not). */
const MAX_FIT_ROWS = 20_000;
/**
 * How long a process trusts its cached model before checking that no other process (a CLI ingest beside the server)
 * has refitted it; this process's own refits replace the cache at once.
 */
const MODEL_RECHECK_MS = 5_000;

/**
 * The loaded models, per database. Kept on `globalThis`: Next.js bundles the server's start (instrumentation.ts, which
 * warms the model up) and each route separately, each with its own copy of this module, and loading the model costs
 * ~1.5 s on PGlite at the corpus's size — the first search after a start paid it again (1.7 s instead of ~60 ms).
 */
const CACHE_KEY = Symbol.for("lectern.latentModelCache");
type ModelCache = WeakMap<Database, { model: LatentModel | null; checkedAt: number }>;
const shared = globalThis as unknown as Record<symbol, ModelCache | undefined>;
const cache: ModelCache = shared[CACHE_KEY] ?? new WeakMap();
shared[CACHE_KEY] = cache;

/** The model `id`, from this process's cache when it holds that one. */
async function modelById(db: Database, id: string): Promise<LatentModel | null> {
  const c = cache.get(db);
  return c?.model?.id === id ? c.model : loadLatentModel(db, { id });
}

/** The library's current model (cached; its id re-read at most every MODEL_RECHECK_MS), or null before the first fit. */
export async function currentLatentModel(db: Database): Promise<LatentModel | null> {
  const c = cache.get(db);
  if (c && performance.now() - c.checkedAt < MODEL_RECHECK_MS) return c.model;
  let model: LatentModel | null = null;
  // a refit between reading the id and loading the model replaces it: read the id again
  for (let attempt = 0; attempt < 3 && !model; attempt++) {
    const info = await getLatentModelInfo(db);
    if (!info) break;
    model = await modelById(db, info.id);
  }
  cache.set(db, { model, checkedAt: performance.now() });
  return model;
}

/**
 * The offline embedder: a text's vector is its terms projected on the library's latent model. Needs the database
 * (`embed(texts, { db })`); before the library's first fit, or for a text with no word the model knows, the vector
 * is all zeros (vector search skips it; a passage with such a vector is stored without one).
 */
export function createLatentEmbedder(opts: { dimensions?: number } = {}): EmbeddingProvider {
  const dimensions = latentDimensions(opts.dimensions);
  return {
    kind: "latent",
    model: LATENT_MODEL,
    dimensions,
    async embed(texts, options) {
      const db = options?.db;
      if (!db) throw new Error("The latent embedder projects texts on the library's own model: pass the database.");
      options?.signal?.throwIfAborted();
      const model = await currentLatentModel(db);
      return texts.map((t) =>
        model && model.dimensions === dimensions ? latentVector(model, searchText(t)) : new Array(dimensions).fill(0),
      );
    },
  };
}

/** The share of the texts' term occurrences that `model` knows. 1 when there is nothing to project. */
export function knownShare(model: LatentModel, texts: string[]): number {
  const known = new Set(model.terms);
  let total = 0;
  let hits = 0;
  for (const text of texts) {
    for (const t of text.split(" ")) {
      if (!t) continue;
      total++;
      if (known.has(t)) hits++;
    }
  }
  return total === 0 ? 1 : hits / total;
}

export interface LatentRefresh {
  /** A new model was fitted (and every vector rewritten). */
  fitted: boolean;
  /** Vectors written, in all and per table. */
  embedded: number;
  embeddedByTable: Record<VectorTable, number>;
  /** Passages in the library. */
  rows: number;
  /** Passages the new model was fitted to (the library's content: its reference lists left out); 0 without a fit. */
  fittedPassages: number;
  terms: number;
  ms: number;
}

export interface RefreshLatentOptions {
  dimensions?: number;
  /** Refit even when the model is current (the `reembed` command). */
  force?: boolean;
  batch?: number;
  /**
   * A refit rewrites every row; above this many rows in a table (default: always) its HNSW and GIN indexes are
   * rebuilt rather than updated row by row. Rebuilding is about as fast on a fresh process, and on PGlite it avoids
   * pgvector inserts that run ~10× slower after an ingest in the same process (28 s against 13 s for the corpus).
   */
  rebuildIndexesAbove?: number;
  /** For the index rebuild; default 1GB on a PostgreSQL server, the embedded database's own setting on PGlite. */
  maintenanceWorkMem?: string;
  /**
   * Leave a refit that only the model's older fitting rule asks for (LATENT_FIT_VERSION) to a later step: the server's
   * start does, so that it serves at once, and refits in the background.
   */
  deferRuleRefit?: boolean;
  /**
   * Seed of the fit's randomised SVD (default: fitLatentModel's). The retrieval figures move with it; the benchmarks
   * refit with several seeds to tell a change from that noise (bench/seeds.ts).
   */
  seed?: number;
  onProgress?: (p: { table: VectorTable; done: number; total: number }) => void;
}

/** The search texts of `table`, a page at a time in key order (keyset pagination: bounded memory). */
async function* pages(
  db: Database,
  table: VectorTable,
  opts: { limit: number; unembedded?: boolean; contentOnly?: boolean },
) {
  let after = "";
  for (;;) {
    const page = await listSearchTexts(db, { table, after, ...opts });
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]?.chunkUid ?? after;
  }
}

/** The rows' vectors on `model`, ready for updateEmbeddings. */
function project(model: LatentModel, rows: { chunkUid: string; searchText: string }[]) {
  return rows.map((r) => ({ chunkUid: r.chunkUid, embedding: latentVector(model, r.searchText) }));
}

/** Rewrites every vector of `table` with `model`. */
async function writeAll(
  db: Database,
  model: LatentModel,
  table: VectorTable,
  { batch, total, onProgress }: { batch: number; total: number } & RefreshLatentOptions,
): Promise<number> {
  let done = 0;
  for await (const rows of pages(db, table, { limit: batch })) {
    await updateEmbeddings(db, { table, rows: project(model, rows) });
    done += rows.length;
    onProgress?.({ table, done, total });
  }
  return done;
}

/**
 * Brings the library's latent vectors up to date: fits the model when there is none, when the library has grown or
 * shrunk by REFIT_GROWTH since it was fitted, when the passages waiting for a vector use many words the model does not
 * know, or when forced — then rewrites every vector with it, model and vectors in one transaction; otherwise projects
 * the passages that have no vector yet. Ingestion calls it after each batch.
 */
export async function refreshLatentVectors(db: Database, opts: RefreshLatentOptions = {}): Promise<LatentRefresh> {
  const t0 = performance.now();
  const dimensions = opts.dimensions ?? DEFAULT_LATENT_DIMENSIONS;
  // 200 passages projected and their vectors written at a time: each batch is work in the calling thread between
  // statements, and 500 held a server's event loop past 100 ms (bench:ingest-loop)
  const batch = opts.batch ?? 200;
  const rebuildAbove = opts.rebuildIndexesAbove ?? 0;
  const rows = await countRows(db, { table: "chunks" });
  const info = await getLatentModelInfo(db);
  const written: Record<VectorTable, number> = { chunks: 0, summary_chunks: 0 };
  const result = (fitted: boolean, terms: number, fittedPassages = 0): LatentRefresh => ({
    fitted,
    embedded: written.chunks + written.summary_chunks,
    embeddedByTable: written,
    rows,
    fittedPassages,
    terms,
    ms: performance.now() - t0,
  });
  if (rows === 0) return result(false, 0);
  const fitVersion = (await getMeta<number>(db, { key: FIT_VERSION_META_KEY })) ?? 1;
  let refit =
    opts.force ||
    !info ||
    info.dimensions !== dimensions ||
    sizeDrifted(rows, info.rows) ||
    (fitVersion < LATENT_FIT_VERSION && !opts.deferRuleRefit);
  const current = !refit && info ? await modelById(db, info.id) : null;
  if (current && info) {
    const pending: { table: VectorTable; rows: SearchTextRow[] }[] = [];
    for (const table of ["chunks", "summary_chunks"] as const) {
      const list: SearchTextRow[] = [];
      for await (const page of pages(db, table, { limit: batch, unembedded: true })) list.push(...page);
      pending.push({ table, rows: list });
    }
    // Fold in, unless too many of the new papers' words are unknown to the model (the projection would drop them: a
    // topic the library did not hold). Passages already there at the fit were projected then; those still without a
    // vector know no word of it, and do not count.
    // (reference lists, which the model is not fitted to, do not count)
    const fresh = pending.flatMap((p) =>
      p.rows.filter((r) => r.storedAt >= info.createdAt && !r.bibliography).map((r) => r.searchText),
    );
    if (knownShare(current, fresh) >= MIN_KNOWN_SHARE) {
      await db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        await lockVectorWrites(t);
        // another process may have refitted since: then its model made every vector, these ones included
        if ((await getLatentModelInfo(t))?.id !== current.id) return;
        for (const { table, rows: list } of pending) {
          for (let i = 0; i < list.length; i += batch) {
            const slice = list.slice(i, i + batch);
            await updateEmbeddings(t, { table, rows: project(current, slice) });
            written[table] += slice.length;
            opts.onProgress?.({ table, done: Math.min(i + batch, list.length), total: list.length });
          }
        }
      });
      return result(false, current.terms.length);
    }
    refit = true;
  }
  const step = Math.max(1, Math.ceil(rows / MAX_FIT_ROWS));
  const sample: string[] = [];
  let seen = 0;
  // fitted to the papers' content: reference lists are other papers' titles, whose co-occurrences are not this
  // library's topics (they are still projected, like every passage)
  for await (const page of pages(db, "chunks", { limit: 2_000, contentOnly: true })) {
    for (const r of page) if (seen++ % step === 0) sample.push(r.searchText);
  }
  const model = await fitLatentModel(sample, { dimensions, rows, seed: opts.seed });
  if (!model) return result(false, 0);
  // a PostgreSQL server builds the HNSW graph several times faster when it fits in maintenance memory (as the terms
  // backfill does); PGlite's WebAssembly heap keeps its own settings
  const maintenanceWorkMem = opts.maintenanceWorkMem ?? ((await isEmbeddedDatabase(db)) ? undefined : "1GB");
  // Model and vectors in one transaction, writers serialised: searches see the old model with the old vectors or the
  // new with the new. Passages stored since the sample was read are projected on the new model here too.
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await lockVectorWrites(t);
    await replaceLatentModel(t, { ...model, model: LATENT_MODEL });
    await setMeta(t, { key: FIT_VERSION_META_KEY, value: LATENT_FIT_VERSION });
    for (const table of ["chunks", "summary_chunks"] as const) {
      const total = await countRows(t, { table });
      const fill = (d: Database) => writeAll(d, model, table, { ...opts, batch, total });
      written[table] =
        total > rebuildAbove ? await withIndexesRebuilt(t, table, { maintenanceWorkMem }, fill) : await fill(t);
    }
  });
  cache.set(db, { model, checkedAt: performance.now() });
  return result(true, model.terms.length, sample.length);
}

/**
 * Projects passages whose search terms changed (a corrected title) on the library's current latent model and writes
 * their vectors, inside the caller's transaction and holding the vector writers' lock (a refit cannot interleave). No
 * model yet: nothing to do (the next library step embeds them). Their hubness is cleared, for the next fill.
 */
export async function reprojectLatentVectors(
  tx: Database,
  rows: { table: VectorTable; chunkUid: string; searchText: string }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  await lockVectorWrites(tx);
  const info = await getLatentModelInfo(tx);
  const model = info ? await modelById(tx, info.id) : null;
  if (!model) return 0;
  for (const table of ["chunks", "summary_chunks"] as const) {
    await updateEmbeddings(tx, {
      table,
      rows: project(
        model,
        rows.filter((r) => r.table === table),
      ),
    });
  }
  return rows.length;
}
