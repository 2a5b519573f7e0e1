import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db";
import { countMissingHubness } from "@/db/queries/hubness";
import { countRows, getLatentModelInfo } from "@/db/queries/latent";
import { getMeta } from "@/db/queries/meta";
import { getPaper } from "@/db/queries/papers";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { createLatentEmbedder } from "@/lib/embeddings/latent-index";
import { refreshLibraryVectors } from "@/lib/embeddings/library";
import { createIngestContext, type IngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import { searchContent } from "@/lib/search/search";
import { makeTestPdf } from "@/lib/testing/pdf";
import { removePaper } from "./remove";

// eight papers of two pages on two topics, the same size each: removing two is a quarter of the library
const TOPICS = [
  ["solver", "program", "error", "feedback", "logic", "refinement", "repair", "compiler"],
  ["telescope", "galaxy", "spectrum", "redshift", "survey", "mirror", "light", "star"],
];
const PAPERS = Array.from({ length: 8 }, (_, n) => {
  const topic = TOPICS[n % 2] as string[];
  return {
    name: `paper-${n}.pdf`,
    title: `Volume${n} Study of ${topic[n % topic.length]}`,
    pages: [0, 1].map((p) => Array.from({ length: 30 }, (_, i) => topic[(i * (p + 3) + n) % topic.length]).join(" ")),
  };
});

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
const embedder = createLatentEmbedder({ dimensions: 4 });
let ids: string[] = [];

const hubnessBaseline = () => getMeta<Record<string, number>>(handle.db, { key: "hubness_rows" });

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-remove-"));
  ctx = createIngestContext(handle, { dataDir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
  const inputs = await Promise.all(
    PAPERS.map(async (p) => {
      const bytes = await makeTestPdf({ pages: p.pages, title: p.title });
      return { name: p.name, size: bytes.byteLength, read: async () => bytes };
    }),
  );
  const results = await ingestFiles(inputs, ctx);
  ids = results.map((r) => r.paper_id ?? "");
  expect(results.every((r) => r.status === "ingested")).toBe(true);
});

afterAll(async () => {
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("removing papers", () => {
  it("keeps the latent model and the hubness while the library has shrunk by less than a quarter", async () => {
    const model = await getLatentModelInfo(handle.db);
    const baseline = await hubnessBaseline();
    expect(model?.rows).toBe(await countRows(handle.db, { table: "chunks" }));

    const removal = await removePaper(ctx, ids[0] as string);
    expect(removal).not.toBeNull();
    expect(await getPaper(handle.db, { id: ids[0] as string })).toBeNull();
    expect(await removal?.vectors).toMatchObject({ fitted: false, embedded: 0, neighbours: 0 });
    expect((await getLatentModelInfo(handle.db))?.id).toBe(model?.id);
    expect(await hubnessBaseline()).toEqual(baseline);
  });

  it("fits the model again to the papers that remain, and computes every hubness again, once a quarter is gone", async () => {
    const model = await getLatentModelInfo(handle.db);
    const removal = await removePaper(ctx, ids[1] as string);
    const r = await removal?.vectors;
    const remaining = await countRows(handle.db, { table: "chunks" });
    const summaries = await countRows(handle.db, { table: "summary_chunks" });
    expect(remaining).toBeLessThanOrEqual((model?.rows ?? 0) * 0.75);
    expect(r).toMatchObject({ fitted: true, passages: remaining });
    const refit = await getLatentModelInfo(handle.db);
    expect(refit?.id).not.toBe(model?.id);
    expect(refit?.rows).toBe(remaining);
    // every passage's hubness computed again (its vector was rewritten, and a quarter of its neighbours are gone)
    expect(r?.neighbours).toBe(remaining + summaries);
    expect(await hubnessBaseline()).toEqual({ chunks: remaining, summary_chunks: summaries });
    expect(await countMissingHubness(handle.db, { table: "chunks" })).toBe(0);
    expect(await countMissingHubness(handle.db, { table: "summary_chunks" })).toBe(0);
  });

  it("runs one library step at a time on a database: the second finds the first's work done", async () => {
    await handle.db.execute(sql`delete from papers where id in (${ids[2]}, ${ids[3]})`);
    const [a, b] = await Promise.all([
      refreshLibraryVectors(handle.db, embedder),
      refreshLibraryVectors(handle.db, embedder),
    ]);
    expect(a).toMatchObject({ fitted: true });
    expect(b).toMatchObject({ fitted: false, embedded: 0, neighbours: 0 });
  });

  it("logs a library step that fails, without undoing the deletion", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // a configured embedder that did not make the library's vectors: the step refuses to mix them
      const removal = await removePaper(
        { ...ctx, embedder: createHashingEmbedder({ dimensions: 512 }) },
        ids[4] as string,
      );
      expect(removal).not.toBeNull();
      expect(await removal?.vectors).toBeNull();
      expect(errors.mock.calls.map((c) => String(c[0])).join("\n")).toMatch(
        new RegExp(`vectors were not updated after deleting ${ids[4]}: The library's vectors were made with`),
      );
      expect(await getPaper(handle.db, { id: ids[4] as string })).toBeNull();
      expect((await getLatentModelInfo(handle.db))?.dimensions).toBe(4);
      const hits = await searchContent(handle.db, "galaxy redshift", embedder, { retriever: "vector", cutoff: 0 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.some((h) => h.paperId === ids[4])).toBe(false);
    } finally {
      errors.mockRestore();
    }
  });

  it("without an embedder, keeps the vectors and still computes the hubness again once a quarter is gone", async () => {
    const model = await getLatentModelInfo(handle.db);
    const before = await hubnessBaseline();
    const removal = await removePaper({ ...ctx, embedder: null }, ids[5] as string);
    const r = await removal?.vectors;
    const remaining = await countRows(handle.db, { table: "chunks" });
    expect(remaining).toBeLessThanOrEqual((before?.chunks ?? 0) * 0.75);
    expect(r).toMatchObject({ fitted: false, embedded: 0, passages: remaining });
    expect(r?.neighbours).toBeGreaterThanOrEqual(remaining);
    expect((await getLatentModelInfo(handle.db))?.id).toBe(model?.id);
    expect((await hubnessBaseline())?.chunks).toBe(remaining);
  });

  it("says when there was no such paper", async () => {
    expect(await removePaper(ctx, ids[0] as string)).toBeNull();
  });
});
