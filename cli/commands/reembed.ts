import type { DbHandle } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { reembedLibrary } from "@/lib/embeddings/guard";
import { getEnv } from "@/lib/env";
import { info, ProgressBar, printJson } from "../output";

export async function runReembed(handle: DbHandle, json: boolean): Promise<number> {
  const embedder = getEmbeddingProvider(getEnv());
  info(`Re-embedding the library with ${embedder.kind} · ${embedder.model} · ${embedder.dimensions} dims`);
  let bar: ProgressBar | null = null;
  let table = "";
  const result = await reembedLibrary(handle.db, embedder, {
    onProgress: (p) => {
      if (p.table !== table) {
        bar?.done();
        table = p.table;
        bar = new ProgressBar(p.total);
      }
      bar?.update(p.done, p.table);
    },
  });
  (bar as ProgressBar | null)?.done();
  if (json)
    printJson({ embedder: { kind: embedder.kind, model: embedder.model, dimensions: embedder.dimensions }, ...result });
  else
    info(
      `Re-embedded ${result.chunks} chunks and ${result.summaryChunks} summary passages${result.resized ? " (vector columns resized)" : ""}; ` +
        `computed the hubness of ${result.hubness}.`,
    );
  return 0;
}
