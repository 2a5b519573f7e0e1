import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { removePaper } from "@/lib/library/remove";
import { type PdfStorage, type S3PdfStorage, s3PdfStorage } from "@/lib/storage";
import { makeTestPdf } from "@/lib/testing/pdf";
import { startTestS3, type TestS3 } from "@/lib/testing/s3";
import { createIngestContext, type IngestContext, ingestFiles } from "./pipeline";
import type { IngestInput } from "./progress";

/** Ingestion through the storage interface: into S3 (s3rver), the object stored before the paper's row. */

let handle: DbHandle;
let s3: TestS3;
let storage: S3PdfStorage;

const input = (name: string, bytes: Uint8Array): IngestInput => ({
  name,
  size: bytes.byteLength,
  read: async () => bytes,
});

function context(store: PdfStorage): IngestContext {
  return createIngestContext(handle, {
    storage: store,
    maxUploadBytes: 5 * 1024 * 1024,
    embedder: createHashingEmbedder({ dimensions: 512 }),
    chatModel: null,
  });
}

const paper = (title: string) =>
  makeTestPdf({
    title,
    pages: [`${title}\nAbstract. We measure how ${title.toLowerCase()} behaves across many careful trials.`],
  });

beforeAll(async () => {
  handle = await createTestDatabase();
  s3 = await startTestS3();
  storage = s3PdfStorage(s3.settings("ingest"));
});

afterAll(async () => {
  storage?.destroy();
  await s3?.stop();
  await handle?.close();
});

describe("ingestFiles with an S3 store", () => {
  it("stores the PDF in the bucket before the paper's row is written, under the key the row names", async () => {
    const rowsWhenStored: number[] = [];
    const watching: PdfStorage = {
      ...storage,
      async put(key, bytes) {
        await storage.put(key, bytes);
        rowsWhenStored.push((await handle.db.select().from(papers).where(eq(papers.filePath, key))).length);
      },
    };
    const bytes = await paper("Tidal Energy Harvesting");
    const [result] = await ingestFiles([input("tidal.pdf", bytes)], context(watching));
    expect(result).toMatchObject({ status: "ingested", error: null });
    expect(rowsWhenStored).toEqual([0]); // the object existed before any row named it

    const [row] = await handle.db
      .select()
      .from(papers)
      .where(eq(papers.id, result?.paper_id ?? ""));
    expect(row?.filePath).toMatch(/^pdfs\/[0-9a-f]{64}\.pdf$/);
    const head = await storage.head(row?.filePath ?? "");
    expect(head?.size).toBe(bytes.byteLength);
    const stored = Buffer.from(await new Response(await storage.read(row?.filePath ?? "")).arrayBuffer());
    expect(stored.equals(Buffer.from(bytes))).toBe(true);

    // deleting the paper removes its object from the bucket
    await (await removePaper({ db: handle.db, dataDir: "/nonexistent", embedder: null, storage }, row?.id ?? ""))
      ?.vectors;
    expect(await storage.head(row?.filePath ?? "")).toBeNull();
  });

  it("writes no paper row when the PDF cannot be stored", async () => {
    const failing: PdfStorage = {
      ...storage,
      async put() {
        throw new Error("the store refused the object");
      },
    };
    const before = await handle.db.select({ id: papers.id }).from(papers);
    const [result] = await ingestFiles([input("lost.pdf", await paper("Lost Glacier Records"))], context(failing));
    expect(result?.status).toBe("error");
    expect(await handle.db.select({ id: papers.id }).from(papers)).toEqual(before);
  });
});
