import type { Database } from "@/db";
import { pruneOrphanEntities } from "@/db/queries/graph";
import { deletePaper } from "@/db/queries/papers";
import { type LibraryVectorsRefresh, refreshLibraryVectors } from "@/lib/embeddings/library";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { briefError } from "@/lib/errors";
import { type JobQueue, QUEUES } from "@/lib/jobs/queue";
import { getPdfStorage, type PdfStorage } from "@/lib/storage";

export interface Removal {
  /**
   * The library step that follows the deletion, in the background (the deletion does not wait for it): once the
   * library has shrunk by a quarter since the latent model was fitted or the hubness computed, they are computed
   * again for the papers that remain, instead of waiting for the next ingest or server start (on PGlite, searches
   * wait for a refit's transaction: ~10 s for 40 papers). Never rejects: a failure is logged and gives null (the next
   * library step retries). Null when it was queued as a job instead (`queue` given: a worker runs it, retried with
   * backoff, and it survives a restart).
   */
  vectors: Promise<LibraryVectorsRefresh | null> | null;
}

/**
 * Deletes a paper (pages, chunks, summary and its knowledge-graph edges cascade; orphaned entities are pruned), then its stored PDF, then starts the library step. Null when
 * there was no such paper. `embedder`: the configured one (null when it could not be made: hubness only). `storage`:
 * where the PDF is; by default the configured store (the local one under `dataDir`). A PDF left behind when its
 * removal fails is an orphan the sweep removes (lib/storage/sweep.ts).
 */
export async function removePaper(
  ctx: {
    db: Database;
    dataDir: string;
    embedder: EmbeddingProvider | null;
    storage?: PdfStorage;
    /** The job queue the library refresh is sent to (the app); absent: it runs here, in the background. */
    queue?: JobQueue;
  },
  id: string,
): Promise<Removal | null> {
  const deleted = await deletePaper(ctx.db, { id });
  if (!deleted) return null;
  // its graph edges and mentions went with it (cascade); entities no other paper's edge uses go too
  await pruneOrphanEntities(ctx.db).catch((e) =>
    console.error(`[library] orphan graph entities after deleting ${id} were not removed: ${briefError(e)}`),
  );
  const storage = ctx.storage ?? getPdfStorage(getEnv(), ctx.dataDir);
  await storage
    .delete(deleted.filePath)
    .catch((e) => console.warn(`[library] could not remove ${deleted.filePath}: ${(e as Error).message}`));
  if (ctx.queue) {
    const sent = await ctx.queue.boss
      .send(QUEUES.libraryRefresh, {})
      .then(() => true)
      .catch((e) => {
        console.error(`[library] the library refresh after deleting ${id} was not queued: ${briefError(e)}`);
        return false;
      });
    if (sent) return { vectors: null };
  }
  const vectors = refreshLibraryVectors(ctx.db, ctx.embedder).catch((e) => {
    console.error(`[library] the library's vectors were not updated after deleting ${id}: ${briefError(e)}`);
    return null;
  });
  return { vectors };
}
