import { deletePaper } from "@/db/queries/papers";
import type { IngestContext } from "@/lib/ingest/pipeline";
import { removeStoredPdf } from "@/lib/ingest/storage";

/** Deletes a paper (pages, chunks and summary cascade) and then its stored PDF. */
export async function removePaper(ctx: Pick<IngestContext, "db" | "dataDir">, id: string): Promise<boolean> {
  const deleted = await deletePaper(ctx.db, { id });
  if (!deleted) return false;
  await removeStoredPdf(ctx.dataDir, deleted.filePath).catch((e) =>
    console.warn(`[library] could not remove ${deleted.filePath}: ${(e as Error).message}`),
  );
  return true;
}
