import type { Database } from "@/db";
import { countRows } from "@/db/queries/latent";
import { ensureEmbeddingSignature } from "./guard";
import { refreshHubness } from "./hubness";
import { refreshLatentVectors } from "./latent-index";
import type { EmbeddingProvider } from "./types";

/** The library step's stages, for progress: the latent vectors (offline embedder), then the vectors' hubness. */
export type LibraryStage = "embedding" | "neighbours";

export interface LibraryVectorsRefresh {
  /** The latent model was refitted (and every vector rewritten). */
  fitted: boolean;
  /** Latent vectors written (0 with another embedder: its vectors come with each paper). */
  embedded: number;
  /** Passages whose hubness was computed. */
  neighbours: number;
  /** Passages in the library. */
  passages: number;
  /** Passages a new latent model was fitted to (reference lists left out); 0 when none was fitted. */
  fittedPassages: number;
  ms: number;
}

/**
 * Per database: the library step running or queued last, so two started here never overlap (a deletion's refit and an
 * ingest batch's would both rewrite every vector). Kept on `globalThis`: Next.js bundles the server actions and each
 * route apart, each with its own copy of this module (the latent model cache does the same, latent-index.ts).
 */
const QUEUES_KEY = Symbol.for("lectern.libraryStepQueues");
const shared = globalThis as unknown as Record<symbol, WeakMap<Database, Promise<unknown>> | undefined>;
const queues: WeakMap<Database, Promise<unknown>> = shared[QUEUES_KEY] ?? new WeakMap();
shared[QUEUES_KEY] = queues;

/**
 * The library step: brings the library's vectors up to date after its papers changed — with the offline latent
 * embedder the passages' vectors (its model refitted when the library has grown or shrunk by a quarter), then the
 * hubness of vectors without one (all of a table's again when it has grown or shrunk by a quarter). Quick when there
 * is nothing to do. Ingestion runs it after each batch, deletion after each paper and the server's start once (without
 * an embedder: hubness only), one step at a time per database in this process.
 * `embedder`: the configured one, checked against the library's first (a latent embedder adopts a library made by
 * another, as a search would; another embedder that does not match fails the step); null: hubness only (the configured
 * embedder could not be made; the vectors stay as they are).
 */
export function refreshLibraryVectors(
  db: Database,
  embedder: EmbeddingProvider | null,
  { onProgress }: { onProgress?: (stage: LibraryStage, done: number, of: number) => void } = {},
): Promise<LibraryVectorsRefresh> {
  const run = async (): Promise<LibraryVectorsRefresh> => {
    const t0 = performance.now();
    if (embedder) await ensureEmbeddingSignature(db, embedder);
    const latent =
      embedder?.kind === "latent"
        ? await refreshLatentVectors(db, {
            dimensions: embedder.dimensions,
            onProgress: (p) => onProgress?.("embedding", p.done, p.total),
          })
        : null;
    const hub = await refreshHubness(db, { onProgress: (p) => onProgress?.("neighbours", p.done, p.total) });
    return {
      fitted: latent?.fitted ?? false,
      embedded: latent?.embedded ?? 0,
      neighbours: hub.filled,
      passages: latent?.rows ?? (await countRows(db, { table: "chunks" })),
      fittedPassages: latent?.fittedPassages ?? 0,
      ms: Math.round(performance.now() - t0),
    };
  };
  const next = (queues.get(db) ?? Promise.resolve()).then(run, run);
  const tail = next.catch(() => {});
  queues.set(db, tail);
  void tail.then(() => {
    if (queues.get(db) === tail) queues.delete(db);
  });
  return next;
}
