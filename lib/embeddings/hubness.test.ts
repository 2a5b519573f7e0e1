import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { countMissingHubness, HUBNESS_NEIGHBOURS } from "@/db/queries/hubness";
import { updateEmbeddings } from "@/db/queries/ingest";
import { clearVectors } from "@/db/queries/latent";
import { deletePaper } from "@/db/queries/papers";
import { createTestDatabase } from "@/db/testing";
import { createIngestContext, type IngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import type { IngestProgressEvent } from "@/lib/ingest/progress";
import { searchContent } from "@/lib/search/search";
import { makeTestPdf } from "@/lib/testing/pdf";
import { reembedLibrary } from "./guard";
import { createHashingEmbedder } from "./hashing";
import { refreshHubness } from "./hubness";

// Enough passages that each has more than HUBNESS_NEIGHBOURS others: four papers of four pages on two topics.
const TOPICS = [
  ["attention", "softmax", "query", "key", "scaled", "dot", "product", "head"],
  ["telescope", "galaxy", "spectrum", "redshift", "survey", "mirror", "light", "star"],
];
function paperPages(topic: string[], seed: number): string[] {
  return [0, 1, 2, 3].map(
    (p) =>
      // the word pattern repeats every 8 papers: a paper's own first word keeps each one (and its title) distinct
      `Volume${seed} ${Array.from({ length: 40 }, (_, i) => topic[(i * (p + 3) + seed * 7 + p) % topic.length]).join(" ")}`,
  );
}

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
const embedder = createHashingEmbedder({ dimensions: 512 });

interface Row {
  chunk_uid: string;
  paper_id: string;
  embedding: string;
  hubness: number | null;
}

async function rows(
  table: "chunks" | "summary_chunks" = "chunks",
): Promise<{ uid: string; paperId: string; vec: number[]; hubness: number | null }[]> {
  const hub = table === "chunks" ? sql.raw("chunk_hubness") : sql.raw("summary_chunk_hubness");
  const r = await queryRows<Row>(
    handle.db,
    sql`select c.chunk_uid, c.paper_id, c.embedding::text as embedding, h.hubness
        from ${sql.raw(table)} c left join ${hub} h using (chunk_uid) where c.embedding is not null order by 1`,
  );
  return r.map((x) => ({
    uid: x.chunk_uid,
    paperId: x.paper_id,
    vec: JSON.parse(x.embedding) as number[],
    hubness: x.hubness === null ? null : Number(x.hubness),
  }));
}

const cos = (a: number[], b: number[]) => {
  let d = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i] as number;
    d += x * y;
    na += x * x;
    nb += y * y;
  });
  return d / Math.sqrt(na * nb);
};

/** The exact hubness of `vec` among `others`: the mean of its HUBNESS_NEIGHBOURS highest cosines. */
function exactHubness(vec: number[], others: number[][]): number {
  const sims = others.map((o) => cos(vec, o)).sort((a, b) => b - a);
  const top = sims.slice(0, HUBNESS_NEIGHBOURS);
  return top.reduce((a, b) => a + b, 0) / top.length;
}

/** Every stored hubness of `table` equals the exact one over the current library. */
async function expectExact(table: "chunks" | "summary_chunks") {
  const all = await rows(table);
  expect(all.length).toBeGreaterThan(1);
  for (const r of all) {
    const others = all.filter((o) => o.uid !== r.uid).map((o) => o.vec);
    // the HNSW walk finds the exact neighbours in a table this small; real (float32) storage
    expect(r.hubness, r.uid).toBeCloseTo(exactHubness(r.vec, others), 3);
  }
}

/** Papers alternate between the two topics; each has four pages (one passage each). */
async function paperFiles(from: number, count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, k) => {
      const i = from + k;
      const bytes = await makeTestPdf({ pages: paperPages(TOPICS[i % 2] as string[], i), title: `Paper ${i}` });
      return { name: `p${i}.pdf`, size: bytes.byteLength, read: async () => bytes };
    }),
  );
}

async function ingest(from: number, count: number) {
  const events: IngestProgressEvent[] = [];
  const results = await ingestFiles(await paperFiles(from, count), ctx, { onProgress: (e) => events.push(e) });
  expect(results.map((r) => r.error ?? r.status)).toEqual(results.map(() => "ingested"));
  const done = events.find((e) => e.type === "library_done");
  if (done?.type !== "library_done") throw new Error("no library step");
  return done;
}

let first: Awaited<ReturnType<typeof ingest>>;

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-hubness-"));
  ctx = createIngestContext(handle, { dataDir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
  first = await ingest(0, 5);
});

afterAll(async () => {
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("hubness", () => {
  it("is computed after an ingest, for any embedder: the mean similarity of each passage's 10 nearest others", async () => {
    const chunks = await rows("chunks");
    const summaries = await rows("summary_chunks");
    expect(chunks.length).toBeGreaterThan(HUBNESS_NEIGHBOURS + 1);
    // the hashing embedder's vectors came with each file: the library step only computed their hubness
    expect(first).toMatchObject({ fitted: false, embedded: 0, neighbours: chunks.length + summaries.length });
    expect(await countMissingHubness(handle.db, { table: "chunks" })).toBe(0);
    expect(await countMissingHubness(handle.db, { table: "summary_chunks" })).toBe(0);
    await expectExact("chunks");
    await expectExact("summary_chunks");
  });

  it("is forgotten when a passage's vector changes, and refreshed for that passage only", async () => {
    const [a, b] = await rows();
    if (!a || !b) throw new Error("no rows");
    await updateEmbeddings(handle.db, { table: "chunks", rows: [{ chunkUid: a.uid, embedding: b.vec }] });
    expect((await rows()).find((r) => r.uid === a.uid)?.hubness).toBeNull();
    expect(await countMissingHubness(handle.db, { table: "chunks" })).toBe(1);
    const refreshed = await refreshHubness(handle.db);
    expect(refreshed).toMatchObject({ filled: 1, recomputed: [] });
    const now = await rows();
    const others = now.filter((o) => o.uid !== a.uid).map((o) => o.vec);
    expect(now.find((r) => r.uid === a.uid)?.hubness).toBeCloseTo(exactHubness(b.vec, others), 3);
    expect((await refreshHubness(handle.db)).filled).toBe(0);
  });

  it("keeps older passages' values when a few papers arrive, and computes all again when the library grew by a quarter", async () => {
    const before = new Map((await rows()).map((r) => [r.uid, r.hubness]));
    // one paper: 20 → 24 passages, under the 1.25 growth
    const small = await ingest(5, 1);
    const after = await rows();
    expect(after.length).toBe(before.size + 4);
    expect(small.neighbours).toBeGreaterThanOrEqual(4);
    for (const r of after) if (before.has(r.uid)) expect(r.hubness).toBe(before.get(r.uid));
    // three more: 36 passages, 1.8 × the 20 of the last full computation: every value is computed again, exactly
    const large = await ingest(6, 3);
    expect(large.neighbours).toBe((await rows("chunks")).length + (await rows("summary_chunks")).length);
    await expectExact("chunks");
    await expectExact("summary_chunks");
  });

  it("is computed again in full by reembed, and cleared with the vectors", async () => {
    const r = await reembedLibrary(handle.db, embedder);
    expect(r.hubness).toBe(r.chunks + r.summaryChunks);
    await expectExact("chunks");
    await clearVectors(handle.db);
    for (const table of ["chunk_hubness", "summary_chunk_hubness"]) {
      const [n] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from ${sql.raw(table)}`);
      expect(n?.n, table).toBe(0);
    }
    await reembedLibrary(handle.db, embedder);
    await expectExact("chunks");
  });

  it("goes with its passage when the paper is deleted", async () => {
    const all = await rows();
    const paperId = all[0]?.paperId as string;
    await deletePaper(handle.db, { id: paperId });
    const orphans = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from chunk_hubness h where not exists (select 1 from chunks c where c.chunk_uid = h.chunk_uid)`,
    );
    expect(orphans[0]?.n).toBe(0);
    expect((await rows()).some((r) => r.paperId === paperId)).toBe(false);
  });

  it("demotes a hub in vector search: the search ranks by similarity minus half the hubness", async () => {
    const query = "scaled dot product attention softmax";
    const search = () =>
      searchContent(handle.db, query, embedder, { retriever: "vector", mmrAlpha: 1, k: 8, perPage: 10 });
    const plain = await search();
    const top = plain[0];
    if (!top) throw new Error("no results");
    // give the first result a hubness far above the others': it is now close to everything, and drops
    await handle.db.execute(sql`update chunk_hubness set hubness = 2 where chunk_uid = ${top.chunkUid}`);
    const corrected = await search();
    expect(corrected.length).toBeGreaterThan(1);
    expect(corrected[0]?.chunkUid).not.toBe(top.chunkUid);
    // the order is that of cosine − ½ hubness, with the stored values; the cosine shown is unchanged
    const hub = new Map((await rows()).map((r) => [r.uid, r.hubness ?? 0]));
    const scores = corrected.map((r) => (r.vector?.score ?? Number.NaN) - 0.5 * (hub.get(r.chunkUid) ?? Number.NaN));
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    const again = corrected.find((r) => r.chunkUid === top.chunkUid);
    if (again) expect(again.vector?.score).toBeCloseTo(top.vector?.score ?? Number.NaN, 9);
  });
});
