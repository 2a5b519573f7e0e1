import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { countMissingHubness, HUBNESS_NEIGHBOURS } from "@/db/queries/hubness";
import { updateEmbeddings } from "@/db/queries/ingest";
import { deletePaper } from "@/db/queries/papers";
import { createTestDatabase } from "@/db/testing";
import { createIngestContext, type IngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import type { IngestProgressEvent } from "@/lib/ingest/progress";
import { searchContent } from "@/lib/search/search";
import { makeTestPdf } from "@/lib/testing/pdf";
import { createHashingEmbedder } from "./hashing";
import { refreshHubness } from "./hubness";

// Enough passages that each has more than HUBNESS_NEIGHBOURS others: four papers of four pages on two topics.
const TOPICS = [
  ["attention", "softmax", "query", "key", "scaled", "dot", "product", "head"],
  ["telescope", "galaxy", "spectrum", "redshift", "survey", "mirror", "light", "star"],
];
function paperPages(topic: string[], seed: number): string[] {
  return [0, 1, 2, 3].map((p) =>
    Array.from({ length: 40 }, (_, i) => topic[(i * (p + 3) + seed * 7 + p) % topic.length]).join(" "),
  );
}

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
let events: IngestProgressEvent[];
const embedder = createHashingEmbedder({ dimensions: 512 });

interface Row {
  chunk_uid: string;
  paper_id: string;
  embedding: string;
  hubness: number | null;
}

async function rows(): Promise<{ uid: string; paperId: string; vec: number[]; hubness: number | null }[]> {
  const r = await queryRows<Row>(
    handle.db,
    sql`select c.chunk_uid, c.paper_id, c.embedding::text as embedding, h.hubness
        from chunks c left join chunk_hubness h using (chunk_uid) where c.embedding is not null order by 1`,
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

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-hubness-"));
  ctx = createIngestContext(handle, { dataDir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
  const files = await Promise.all(
    [0, 1, 2, 3].map(async (i) => {
      const bytes = await makeTestPdf({ pages: paperPages(TOPICS[i % 2] as string[], i), title: `Paper ${i}` });
      return { name: `p${i}.pdf`, size: bytes.byteLength, read: async () => bytes };
    }),
  );
  events = [];
  const results = await ingestFiles(files, ctx, { onProgress: (e) => events.push(e) });
  expect(results.map((r) => r.status)).toEqual(["ingested", "ingested", "ingested", "ingested"]);
});

afterAll(async () => {
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("hubness", () => {
  it("is computed after an ingest, for any embedder: the mean similarity of each passage's 10 nearest others", async () => {
    const done = events.find((e) => e.type === "library_done");
    const all = await rows();
    expect(all.length).toBeGreaterThan(HUBNESS_NEIGHBOURS + 1);
    expect(done).toMatchObject({ type: "library_done", fitted: false, embedded: 0 });
    expect(done?.type === "library_done" && done.neighbours).toBeGreaterThanOrEqual(all.length);
    expect(await countMissingHubness(handle.db, { table: "chunks" })).toBe(0);
    expect(await countMissingHubness(handle.db, { table: "summary_chunks" })).toBe(0);
    for (const r of all) {
      const sims = all
        .filter((o) => o.uid !== r.uid)
        .map((o) => cos(r.vec, o.vec))
        .sort((a, b) => b - a);
      const expected = sims.slice(0, HUBNESS_NEIGHBOURS).reduce((a, b) => a + b, 0) / HUBNESS_NEIGHBOURS;
      // the HNSW walk finds the exact neighbours in a table this small; real (float32) storage
      expect(r.hubness).toBeCloseTo(expected, 3);
    }
  });

  it("is forgotten when a passage's vector changes, and refreshed for that passage only", async () => {
    const [first, second] = await rows();
    if (!first || !second) throw new Error("no rows");
    await updateEmbeddings(handle.db, { table: "chunks", rows: [{ chunkUid: first.uid, embedding: second.vec }] });
    expect((await rows()).find((r) => r.uid === first.uid)?.hubness).toBeNull();
    expect(await countMissingHubness(handle.db, { table: "chunks" })).toBe(1);
    const refreshed = await refreshHubness(handle.db);
    expect(refreshed.filled).toBe(1);
    const now = await rows();
    const expected =
      now
        .filter((o) => o.uid !== first.uid)
        .map((o) => cos(second.vec, o.vec))
        .sort((a, b) => b - a)
        .slice(0, HUBNESS_NEIGHBOURS)
        .reduce((a, b) => a + b, 0) / HUBNESS_NEIGHBOURS;
    expect(now.find((r) => r.uid === first.uid)?.hubness).toBeCloseTo(expected, 3);
    expect((await refreshHubness(handle.db)).filled).toBe(0);
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
    const plain = await searchContent(handle.db, query, embedder, { retriever: "vector", mmrAlpha: 1, k: 5 });
    const top = plain[0];
    if (!top) throw new Error("no results");
    // give the first result a hubness far above the others': it is now close to everything, and drops
    await handle.db.execute(sql`update chunk_hubness set hubness = 2 where chunk_uid = ${top.chunkUid}`);
    const corrected = await searchContent(handle.db, query, embedder, { retriever: "vector", mmrAlpha: 1, k: 5 });
    expect(corrected[0]?.chunkUid).not.toBe(top.chunkUid);
    const again = corrected.find((r) => r.chunkUid === top.chunkUid);
    // its cosine is what the result shows, unchanged; its rank is not
    if (again) {
      expect(again.vector?.score).toBeCloseTo(top.vector?.score ?? Number.NaN, 9);
      expect(again.vector?.rank).toBeGreaterThan(1);
    }
  });
});
