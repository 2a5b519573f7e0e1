import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DbHandle } from "@/db";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { createIngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import { makeTestPdf } from "./pdf";

/** A fresh database holding papers ingested from PDFs made of the given pages (offline, hashing embedder). */
export interface TestLibrary {
  handle: DbHandle;
  embedder: EmbeddingProvider;
  /** Where the stored PDFs are. */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * One paper per entry of `papers` (its pages' text), written as a PDF and ingested as an upload would be — extraction,
 * chunks, summaries, vectors, the library step and the knowledge graph. Throws when any paper is not ingested.
 */
export async function createTestLibrary(
  papers: readonly (readonly string[])[],
  { name = "paper", dimensions = 512 }: { name?: string; dimensions?: number } = {},
): Promise<TestLibrary> {
  const handle = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lectern-${name}-`));
  const close = async () => {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const embedder = createHashingEmbedder({ dimensions });
    const ctx = createIngestContext(handle, { dataDir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
    const files = await Promise.all(
      papers.map(async (pages, i) => {
        const bytes = await makeTestPdf({ pages: [...pages] });
        return { name: `${name}-${i}.pdf`, size: bytes.byteLength, read: async () => bytes };
      }),
    );
    const results = await ingestFiles(files, ctx);
    const failed = results.filter((r) => r.status !== "ingested");
    if (failed.length > 0) throw new Error(`test papers not ingested: ${JSON.stringify(failed)}`);
    return { handle, embedder, dataDir, close };
  } catch (e) {
    await close();
    throw e;
  }
}
