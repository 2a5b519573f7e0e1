"use server";

import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { getDb } from "@/db";
import { recordAudit } from "@/lib/auth/audit";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { briefError, type Result, toErrorResult } from "@/lib/errors";
import { getWorkedQueue } from "@/lib/jobs/submit";
import { type EditableField, editPaperMetadata, type MetadataEditResult } from "@/lib/library/metadata";
import { removePaper } from "@/lib/library/remove";
import { requireUser } from "../access";
import { deletePaperInputSchema, paperIdSchema } from "./schema";

/** The configured embedder for the library step after a change, or null when it cannot be made (hubness only). */
function embedderOrNull(after: string): EmbeddingProvider | null {
  try {
    return getEmbeddingProvider(getEnv());
  } catch (e) {
    console.error(`[library] no embedder for the library step after ${after}: ${briefError(e)}`);
    return null;
  }
}

/**
 * Corrects a paper's metadata (lib/library/metadata.ts validates the fields and says which one is wrong). A new title
 * is searchable when this returns; the passages' neighbours are recomputed after the response.
 */
/**
 * The job queue the library refresh after an edit or a deletion goes to (a worker runs it: retried, and it survives a
 * restart); undefined when it cannot be opened, and the refresh runs in this process instead.
 */
async function jobQueueOrNone() {
  try {
    return await getWorkedQueue();
  } catch (e) {
    console.error(`[library] the job queue is not available, the library refresh runs here: ${briefError(e)}`);
    return undefined;
  }
}

export async function updatePaperMetadataAction(
  id: string,
  edit: unknown,
): Promise<Result<{ changed: EditableField[]; metadata: MetadataEditResult["metadata"] }>> {
  try {
    const user = await requireUser("library:write");
    const parsed = paperIdSchema.safeParse(id);
    if (!parsed.success) {
      return {
        ok: false,
        error: { code: "bad_request:input", message: parsed.error.issues[0]?.message ?? "Invalid id." },
      };
    }
    const db = await getDb();
    const r = await editPaperMetadata(
      { db, embedder: embedderOrNull("an edit"), queue: await jobQueueOrNone() },
      parsed.data,
      edit,
    );
    if (!r)
      return { ok: false, error: { code: "not_found:paper", message: "That paper is no longer in the library." } };
    if (r.vectors) {
      const vectors = r.vectors;
      after(() => vectors);
    }
    if (r.changed.length > 0) {
      await recordAudit(db, user, "paper.edited", parsed.data, { fields: r.changed.join(", ") });
      revalidatePath("/");
      revalidatePath(`/papers/${encodeURIComponent(parsed.data)}`);
    }
    return { ok: true, data: { changed: r.changed, metadata: r.metadata } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Removes a paper, its pages, chunks, summary and stored PDF. */
export async function deletePaperAction(id: string): Promise<Result<{ id: string }>> {
  try {
    const user = await requireUser("library:delete");
    const parsed = deletePaperInputSchema.safeParse({ id });
    if (!parsed.success) {
      return {
        ok: false,
        error: { code: "bad_request:input", message: parsed.error.issues[0]?.message ?? "Invalid id." },
      };
    }
    // Deleting needs the database and the data directory, not the chat model of a full context; the embedder is for
    // the library step that follows in the background (without one, a misconfigured embedder, it refreshes hubness only)
    const embedder = embedderOrNull("a deletion");
    const db = await getDb();
    const removed = await removePaper(
      { db, dataDir: getEnv().dataDir, embedder, queue: await jobQueueOrNone() },
      parsed.data.id,
    );
    if (!removed) {
      return { ok: false, error: { code: "not_found:paper", message: "That paper is no longer in the library." } };
    }
    await recordAudit(db, user, "paper.deleted", parsed.data.id, {});
    // the library refresh is a job (a worker refits); should the queue be unavailable it runs here, and the response
    // does not wait for it: after() keeps the server working on it until it is done
    if (removed.vectors) {
      const vectors = removed.vectors;
      after(() => vectors);
    }
    revalidatePath("/");
    return { ok: true, data: { id: parsed.data.id } };
  } catch (e) {
    return toErrorResult(e);
  }
}
