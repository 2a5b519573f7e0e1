import type { Database } from "@/db";
import { listChunkTexts, updateEmbeddings } from "@/db/queries/ingest";
import { clearVectors } from "@/db/queries/latent";
import { getEmbeddingColumnDimensions, getMeta, resizeEmbeddingColumns, setMeta } from "@/db/queries/meta";
import { getLibraryStats } from "@/db/queries/papers";
import { LecternError } from "@/lib/errors";
import { refreshHubness } from "./hubness";
import { refreshLatentVectors } from "./latent-index";
import type { EmbeddingProvider, EmbeddingSignature } from "./types";

export const EMBEDDING_META_KEY = "embedding";

export function signatureOf(p: EmbeddingProvider): EmbeddingSignature {
  return { kind: p.kind, model: p.model, dimensions: p.dimensions };
}

function describeSignature(s: EmbeddingSignature): string {
  const name =
    s.kind === "hashing"
      ? "the offline hashing embedder"
      : s.kind === "latent"
        ? "the offline latent embedder"
        : `${s.kind} model ${s.model}`;
  return `${name} (${s.model}, ${s.dimensions} dimensions)`;
}

function sameSignature(a: EmbeddingSignature, b: EmbeddingSignature): boolean {
  return a.kind === b.kind && a.model === b.model && a.dimensions === b.dimensions;
}

/**
 * Vectors made by different embedders cannot be compared. Before writing or searching vectors we check that the
 * configured embedder is the one the library was built with. An empty library adopts the configured embedder (and
 * resizes the vector columns if needed); a non-empty one with another embedder gets a clear error and a way out —
 * except with the offline latent embedder, which re-embeds it (local: seconds for a few thousand passages, minutes at
 * 100,000).
 */
export async function ensureEmbeddingSignature(db: Database, embedder: EmbeddingProvider): Promise<void> {
  const current = signatureOf(embedder);
  const stored = await getMeta<EmbeddingSignature>(db, { key: EMBEDDING_META_KEY });
  if (stored && sameSignature(stored, current)) return;
  const stats = await getLibraryStats(db);
  const hasVectors = stats.chunks + stats.summaryChunks > 0;
  if (hasVectors && embedder.kind === "latent") {
    let once = adopting.get(db);
    if (!once) {
      // the hubness is computed afterwards, without holding up the search or ingest that asked for the vectors
      once = reembedLibrary(db, embedder, { hubness: false }).finally(() => adopting.delete(db));
      adopting.set(db, once);
      once.then(
        () =>
          refreshHubness(db, { recompute: true }).catch((e) =>
            console.error(`[embeddings] hubness not computed after re-embedding: ${(e as Error).message}`),
          ),
        () => {},
      );
    }
    const r = await once;
    console.error(
      `[embeddings] re-embedded the library with the offline latent embedder (it was made with ${stored ? describeSignature(stored) : "an unrecorded embedder"}): ${r.chunks} passages`,
    );
    return;
  }
  if (stored && hasVectors) {
    throw new LecternError(
      "conflict:embedding",
      `The library's vectors were made with ${describeSignature(stored)}, but the configured embedder is ${describeSignature(current)}. ` +
        "Vectors from different embedders cannot be compared. Run `npm run cli -- reembed` to re-embed the whole " +
        "library with the configured embedder, or change LECTERN_EMBEDDING_PROVIDER / LECTERN_EMBEDDING_MODEL / " +
        "LECTERN_EMBEDDING_DIMENSIONS back.",
    );
  }
  const columnDims = await getEmbeddingColumnDimensions(db);
  if (columnDims !== current.dimensions) {
    if (hasVectors) {
      throw new LecternError(
        "conflict:embedding",
        `The vector columns have ${columnDims} dimensions but the configured embedder makes ${current.dimensions}. ` +
          "Run `npm run cli -- reembed` to resize the columns and re-embed the library.",
      );
    }
    await resizeEmbeddingColumns(db, { dimensions: current.dimensions });
  }
  await setMeta(db, { key: EMBEDDING_META_KEY, value: current });
}

const adopting = new WeakMap<
  Database,
  Promise<{ chunks: number; summaryChunks: number; resized: boolean; hubness: number }>
>();

export interface ReembedProgress {
  table: "chunks" | "summary_chunks";
  done: number;
  total: number;
}

/** Re-embeds every chunk and summary passage with `embedder`, resizing the vector columns first when needed. */
export async function reembedLibrary(
  db: Database,
  embedder: EmbeddingProvider,
  {
    onProgress,
    signal,
    batchSize = 128,
    hubness = true,
  }: {
    onProgress?: (p: ReembedProgress) => void;
    signal?: AbortSignal;
    batchSize?: number;
    /** Compute every passage's hubness afterwards (lib/embeddings/hubness.ts); false leaves it to the caller. */
    hubness?: boolean;
  } = {},
): Promise<{ chunks: number; summaryChunks: number; resized: boolean; hubness: number }> {
  // every vector changes: every hubness is computed again (a fill running meanwhile may have read a mix)
  const rehub = async () => (hubness ? (await refreshHubness(db, { recompute: true })).filled : 0);
  const columnDims = await getEmbeddingColumnDimensions(db);
  const resized = columnDims !== embedder.dimensions;
  if (resized) await resizeEmbeddingColumns(db, { dimensions: embedder.dimensions });
  if (embedder.kind === "latent") {
    // a new model fitted to the library, and every vector rewritten with it
    const r = await refreshLatentVectors(db, { dimensions: embedder.dimensions, force: true, onProgress });
    // nothing to fit (no passage with a usable word): no vectors, rather than another embedder's under this name
    if (!r.fitted) await clearVectors(db);
    await setMeta(db, { key: EMBEDDING_META_KEY, value: signatureOf(embedder) });
    return {
      chunks: r.embeddedByTable.chunks,
      summaryChunks: r.embeddedByTable.summary_chunks,
      resized,
      hubness: await rehub(),
    };
  }
  const stats = await getLibraryStats(db);
  const counts = { chunks: 0, summary_chunks: 0 };
  for (const table of ["chunks", "summary_chunks"] as const) {
    const total = table === "chunks" ? stats.chunks : stats.summaryChunks;
    let after = "";
    for (;;) {
      signal?.throwIfAborted();
      const rows = await listChunkTexts(db, { table, after, limit: batchSize });
      if (rows.length === 0) break;
      const vectors = await embedder.embed(
        rows.map((r) => r.text),
        { signal, db },
      );
      await updateEmbeddings(db, {
        table,
        rows: rows.map((r, i) => ({ chunkUid: r.chunkUid, embedding: vectors[i] as number[] })),
      });
      counts[table] += rows.length;
      after = rows[rows.length - 1]?.chunkUid ?? after;
      onProgress?.({ table, done: counts[table], total });
    }
  }
  await setMeta(db, { key: EMBEDDING_META_KEY, value: signatureOf(embedder) });
  return { chunks: counts.chunks, summaryChunks: counts.summary_chunks, resized, hubness: await rehub() };
}
