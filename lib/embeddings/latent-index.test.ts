import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { getLatentModelInfo } from "@/db/queries/latent";
import { getEmbeddingColumnDimensions, getMeta, setMeta } from "@/db/queries/meta";
import { createTestDatabase } from "@/db/testing";
import { createIngestContext, type IngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import type { IngestInput, IngestProgressEvent } from "@/lib/ingest/progress";
import { searchContent } from "@/lib/search/search";
import { makeTestPdf } from "@/lib/testing/pdf";
import { EMBEDDING_META_KEY, reembedLibrary } from "./guard";
import { createHashingEmbedder } from "./hashing";
import { createLatentEmbedder, currentLatentModel, LATENT_FIT_VERSION, refreshLatentVectors } from "./latent-index";
import type { EmbeddingProvider } from "./types";

// "refinement" (paper A) and "revision" (paper B) never share a passage; both come with the same companions.
const PAPERS = [
  {
    name: "refine.pdf",
    title: "Symbolic Solvers for Logical Reasoning",
    pages: [
      "Self refinement fixes the symbolic program with the solver error message as feedback.",
      "Refinement repeats until the program executes; each round reads the error message of the solver.",
      "Formulations are written in first order logic and handed to an external solver.",
    ],
  },
  {
    name: "revise.pdf",
    title: "Program Repair with Language Models",
    pages: [
      "A revision loop repairs the program: the compiler error message is the feedback for the next attempt.",
      "Each revision reads the error message and fixes the program until the tests pass.",
      "Benchmarks of program repair count the programs fixed within five attempts.",
    ],
  },
  {
    name: "stars.pdf",
    title: "A Survey of Galaxy Spectra",
    pages: [
      "The telescope mirror collects light from distant galaxies for the spectrum survey.",
      "Galaxy spectra reveal redshift; the survey measured light from ten thousand galaxies.",
      "Telescope time was split between imaging and spectroscopy of the survey fields.",
    ],
  },
];

/** A generated PDF of `pages`, as an upload. */
async function pdf(name: string, title: string, pages: string[]): Promise<IngestInput> {
  const bytes = await makeTestPdf({ pages, title });
  return { name, size: bytes.byteLength, read: async () => bytes };
}

const paperInputs = () => Promise.all(PAPERS.map((p) => pdf(p.name, p.title, p.pages)));

/** Ingests `files` with the latent embedder; its progress events, and the library step's outcome. */
async function ingest(files: IngestInput[]) {
  const events: IngestProgressEvent[] = [];
  const results = await ingestFiles(files, ctx, { onProgress: (e) => events.push(e) });
  return { results, events, library: events.find((e) => e.type === "library_done") };
}

/** A library of one test's own (its database and data directory, ingesting with `by`), closed and removed after. */
async function withOwnLibrary(
  prefix: string,
  by: EmbeddingProvider,
  fn: (own: DbHandle, ownCtx: IngestContext) => Promise<void>,
): Promise<void> {
  const own = await createTestDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    await fn(
      own,
      createIngestContext(own, { dataDir: dir, maxUploadBytes: 5 * 1024 * 1024, embedder: by, chatModel: null }),
    );
  } finally {
    await own.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
// four axes for three topics: a small library's LSA needs few axes to merge words (a real one gets 256)
const embedder = createLatentEmbedder({ dimensions: 4 });

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-latent-"));
  ctx = createIngestContext(handle, { dataDir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
});

afterAll(async () => {
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const unembedded = async () =>
  (
    await queryRows<{ n: number }>(
      handle.db,
      sql`select (select count(*) from chunks where embedding is null)
            + (select count(*) from summary_chunks where embedding is null) as n`,
    )
  )[0]?.n;

describe("the offline latent embedder over a library", () => {
  it("fits the model after the batch is stored, gives every passage a vector, and finds synonyms", async () => {
    const { results, events, library } = await ingest(await paperInputs());
    expect(results.map((r) => r.status)).toEqual(["ingested", "ingested", "ingested"]);
    expect(library).toMatchObject({ type: "library_done", fitted: true });
    // the library's vectors are written once, after the files (no per-file embedding stage)
    expect(events.findIndex((e) => e.type === "library_done")).toBeGreaterThan(
      events.findLastIndex((e) => e.type === "file_done"),
    );
    expect(Number(await unembedded())).toBe(0);
    expect(await getMeta(handle.db, { key: EMBEDDING_META_KEY })).toMatchObject({ kind: "latent", dimensions: 4 });

    // "revision" is not in paper A, yet its refinement pages come before every page about galaxies
    const hits = await searchContent(handle.db, "revision", embedder, {
      retriever: "vector",
      cutoff: 0,
      k: 9,
      mmrAlpha: 1,
    });
    const ranks = (title: string) => hits.flatMap((h, i) => (h.title === title ? [i] : []));
    const refine = ranks("Symbolic Solvers for Logical Reasoning");
    const stars = ranks("A Survey of Galaxy Spectra");
    expect(refine.length).toBeGreaterThan(0);
    expect(Math.min(...refine)).toBeLessThan(stars.length > 0 ? Math.min(...stars) : Number.POSITIVE_INFINITY);
    const score = (title: string) => hits.filter((h) => h.title === title).map((h) => h.vector?.score ?? 0);
    // related, not merely ranked above: a word-matching embedder scores both papers' pages alike here (no shared word)
    expect(Math.max(...score("Symbolic Solvers for Logical Reasoning"))).toBeGreaterThan(0.15);
    expect(Math.max(...score("A Survey of Galaxy Spectra"), 0)).toBeLessThan(
      Math.max(...score("Symbolic Solvers for Logical Reasoning")) - 0.1,
    );
  });

  it("projects a small addition on the current model, and refits once the library has grown by a quarter", async () => {
    const before = await getLatentModelInfo(handle.db);
    const { library: small } = await ingest([
      await pdf("note.pdf", "A Note on Solver Feedback", [
        "The solver error message guides the next revision of the program.",
      ]),
    ]);
    expect(small).toMatchObject({ fitted: false });
    expect(small?.type === "library_done" && small.embedded).toBeGreaterThan(0);
    expect((await getLatentModelInfo(handle.db))?.id).toBe(before?.id);
    expect(Number(await unembedded())).toBe(0);

    const more = await Promise.all(
      [0, 1, 2].map((i) =>
        pdf(`more-${i}.pdf`, `Extra Paper ${i}`, [
          `Telescope survey number ${i} measured galaxy light.`,
          `Program ${i} was repaired by revision.`,
        ]),
      ),
    );
    expect((await ingest(more)).library).toMatchObject({ fitted: true });
    const after = await getLatentModelInfo(handle.db);
    expect(after?.id).not.toBe(before?.id);
    expect(after?.rows).toBeGreaterThan(before?.rows ?? 0);
  });

  it("shares the loaded model with another copy of this module (Next.js bundles the server start and each route apart)", async () => {
    const model = await currentLatentModel(handle.db);
    expect(model).not.toBeNull();
    vi.resetModules();
    const copy = await import("./latent-index");
    // the same object: the copy did not load the model again
    expect(await copy.currentLatentModel(handle.db)).toBe(model);
  });

  it("refits instead of folding in when the new passages' words are mostly unknown to the model", async () => {
    const before = await getLatentModelInfo(handle.db);
    const off = await pdf("kimchi.pdf", "Vegetable Fermentation", [
      "Kimchi ferments cabbage in brine; lactobacillus sours sauerkraut during cellar storage.",
    ]);
    expect((await ingest([off])).library).toMatchObject({ fitted: true });
    expect((await getLatentModelInfo(handle.db))?.id).not.toBe(before?.id);
    const hits = await searchContent(handle.db, "sauerkraut brine", embedder, { retriever: "vector", cutoff: 0 });
    expect(hits[0]?.title).toBe("Vegetable Fermentation");
  });

  it("re-embedding refits; a library made by another embedder is adopted at the first search", async () => {
    const before = await getLatentModelInfo(handle.db);
    await reembedLibrary(handle.db, embedder);
    expect((await getLatentModelInfo(handle.db))?.id).not.toBe(before?.id);

    // as a library made with the hashing embedder reads (same column size, so only the signature differs)
    await setMeta(handle.db, {
      key: EMBEDDING_META_KEY,
      value: { kind: "hashing", model: "hashing-v2", dimensions: 4 },
    });
    await handle.db.execute(sql`update chunks set embedding = null`);
    const hits = await searchContent(handle.db, "revision of the program", embedder, {
      retriever: "vector",
      cutoff: 0,
    });
    expect(hits.length).toBeGreaterThan(0);
    expect(await getMeta(handle.db, { key: EMBEDDING_META_KEY })).toMatchObject({ kind: "latent" });
    expect(Number(await unembedded())).toBe(0);
  });

  it("hostile and unusual queries: results or a clear message; words the model does not know give no vector", async () => {
    for (const q of ["'; drop table chunks; --", "研究 方法", "zebra quokka", "revision ) ( :* |"]) {
      const hits = await searchContent(handle.db, q, embedder, { retriever: "vector" });
      expect(Array.isArray(hits)).toBe(true);
    }
    for (const q of ["🙂🙂🙂", "& | ! :* ( )"]) {
      await expect(searchContent(handle.db, q, embedder, { retriever: "vector" })).rejects.toMatchObject({
        code: "bad_request:query",
      });
    }
    const [vector] = await embedder.embed(["🙂 & |"], { db: handle.db });
    expect(vector?.every((x) => x === 0)).toBe(true);
    await expect(embedder.embed(["revision"])).rejects.toThrow(/pass the database/);
  });

  it("refits when the library has shrunk by a quarter", async () => {
    const before = await getLatentModelInfo(handle.db);
    await handle.db.execute(
      sql`delete from papers where title like 'Extra Paper %' or title = 'Vegetable Fermentation'`,
    );
    const r = await refreshLatentVectors(handle.db, { dimensions: 4 });
    expect(r.fitted).toBe(true);
    expect((await getLatentModelInfo(handle.db))?.id).not.toBe(before?.id);
  });

  it("adopts a library made with the 512-d hashing embedder: columns resized, everything re-embedded", async () => {
    await withOwnLibrary(
      "lectern-latent-adopt-",
      createHashingEmbedder({ dimensions: 512 }),
      async (other, hashingCtx) => {
        await ingestFiles(await paperInputs(), hashingCtx);
        expect(await getEmbeddingColumnDimensions(other.db)).toBe(512);

        const hits = await searchContent(other.db, "revision", embedder, { retriever: "vector", cutoff: 0 });
        expect(hits.length).toBeGreaterThan(0);
        expect(await getEmbeddingColumnDimensions(other.db)).toBe(4);
        expect(await getMeta(other.db, { key: EMBEDDING_META_KEY })).toMatchObject({ kind: "latent", dimensions: 4 });
        const [left] = await queryRows<{ n: number }>(
          other.db,
          sql`select count(*)::int as n from chunks where embedding is null`,
        );
        expect(Number(left?.n)).toBe(0);
      },
    );
  });

  it("does nothing on an empty library and reports a current model as such", async () => {
    const empty = await createTestDatabase();
    try {
      expect(await refreshLatentVectors(empty.db, { dimensions: 4 })).toMatchObject({ fitted: false, embedded: 0 });
    } finally {
      await empty.close();
    }
    const r = await refreshLatentVectors(handle.db, { dimensions: 4 });
    expect(r).toMatchObject({ fitted: false, embedded: 0 });
  });
});

describe("the latent model's fit", () => {
  it("leaves the papers' reference lists out of the fit, and still gives their passages a vector", async () => {
    await withOwnLibrary("lectern-latent-refs-", embedder, async (own, refsCtx) => {
      const files = await Promise.all(
        PAPERS.map((p, i) =>
          pdf(p.name, p.title, [
            ...p.pages,
            // a reference list whose cited titles name words no page of the papers uses
            `References\nA. Author. 201${i}. Quokka pottery for marsupial archives. In Proceedings 201${i}.\nB. Writer. 2018. Wombat tables at scale. In NeurIPS 2018.`,
          ]),
        ),
      );
      const results = await ingestFiles(files, refsCtx);
      expect(results.map((r) => r.status)).toEqual(["ingested", "ingested", "ingested"]);
      const flagged = await queryRows<{ n: number }>(
        own.db,
        sql`select count(*)::int as n from chunks where bibliography`,
      );
      expect(Number(flagged[0]?.n)).toBe(3);
      const model = await currentLatentModel(own.db);
      expect(model?.terms).toContain("galaxy");
      expect(model?.terms).not.toContain("quokka");
      expect(model?.terms).not.toContain("wombat");
      // projected all the same (on the words the model knows: the paper's title heads every passage)
      const missing = await queryRows<{ n: number }>(
        own.db,
        sql`select count(*)::int as n from chunks where embedding is null`,
      );
      expect(Number(missing[0]?.n)).toBe(0);
      // a model fitted by the older rule (reference lists in) is refitted at the library's next step, once — not
      // by the server's start, which leaves it to a step in the background
      await setMeta(own.db, { key: "latent_fit_version", value: 1 });
      expect(await refreshLatentVectors(own.db, { dimensions: 4, deferRuleRefit: true })).toMatchObject({
        fitted: false,
      });
      expect(await refreshLatentVectors(own.db, { dimensions: 4 })).toMatchObject({ fitted: true });
      expect(await getMeta(own.db, { key: "latent_fit_version" })).toBe(LATENT_FIT_VERSION);
      expect(await refreshLatentVectors(own.db, { dimensions: 4 })).toMatchObject({ fitted: false });
    });
  });
});
