import type { DbHandle } from "@/db";
import { getMeta } from "@/db/queries/meta";
import { getLibraryStats } from "@/db/queries/papers";
import { EMBEDDING_META_KEY } from "@/lib/embeddings/guard";
import type { EmbeddingSignature } from "@/lib/embeddings/types";
import { formatBytes, printJson } from "../output";

export async function runStats(handle: DbHandle, json: boolean): Promise<number> {
  const stats = await getLibraryStats(handle.db);
  const embedding = await getMeta<EmbeddingSignature>(handle.db, { key: EMBEDDING_META_KEY });
  if (json) {
    printJson({ database: { driver: handle.driver, location: handle.location }, embedding, ...stats });
    return 0;
  }
  const out = [
    `Database     ${handle.driver} (${handle.location})`,
    `Embedder     ${embedding ? `${embedding.kind} · ${embedding.model} · ${embedding.dimensions} dims` : "none yet"}`,
    `Papers       ${stats.papers}`,
    `Pages        ${stats.pages}`,
    `Chunks       ${stats.chunks} (${stats.embeddedChunks} embedded; ${stats.bibliographyChunks} in reference lists)`,
    `Summary idx  ${stats.summaryChunks} passages`,
    "",
    "Tables",
    ...stats.tables.map((t) => `  ${t.name.padEnd(34)} ${formatBytes(t.bytes).padStart(9)}`),
    "Indexes",
    ...stats.indexes.map((i) => `  ${i.name.padEnd(34)} ${formatBytes(i.bytes).padStart(9)}`),
  ];
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
