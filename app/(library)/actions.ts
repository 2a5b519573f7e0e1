"use server";

import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { getDb } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { briefError, type Result, toErrorResult } from "@/lib/errors";
import { removePaper } from "@/lib/library/remove";
import { deletePaperInputSchema } from "./schema";

/** Removes a paper, its pages, chunks, summary and stored PDF. */
export async function deletePaperAction(id: string): Promise<Result<{ id: string }>> {
  const parsed = deletePaperInputSchema.safeParse({ id });
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: "bad_request:input", message: parsed.error.issues[0]?.message ?? "Invalid id." },
    };
  }
  try {
    // Deleting needs the database and the data directory, not the chat model of a full context; the embedder is for
    // the library step that follows in the background (without one, a misconfigured embedder, it refreshes hubness only)
    let embedder: EmbeddingProvider | null = null;
    try {
      embedder = getEmbeddingProvider(getEnv());
    } catch (e) {
      console.error(`[library] no embedder for the library step after a deletion: ${briefError(e)}`);
    }
    const removed = await removePaper({ db: await getDb(), dataDir: getEnv().dataDir, embedder }, parsed.data.id);
    if (!removed) {
      return { ok: false, error: { code: "not_found:paper", message: "That paper is no longer in the library." } };
    }
    // the response does not wait for the library step; after() keeps the server working on it until it is done
    after(() => removed.vectors);
    revalidatePath("/");
    return { ok: true, data: { id: parsed.data.id } };
  } catch (e) {
    return toErrorResult(e);
  }
}
