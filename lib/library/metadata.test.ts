import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { countMissingHubness } from "@/db/queries/hubness";
import { getPaper } from "@/db/queries/papers";
import { createTestDatabase } from "@/db/testing";
import { createLatentEmbedder } from "@/lib/embeddings/latent-index";
import { isLecternError } from "@/lib/errors";
import { createIngestContext, type IngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import { searchContent } from "@/lib/search/search";
import { makeTestPdf } from "@/lib/testing/pdf";
import { editPaperMetadata } from "./metadata";

// Two papers on two topics; the first one's title is misread (a running header instead of its title) and gets fixed.
const TOPICS = [
  ["solver", "program", "error", "feedback", "logic", "refinement", "repair", "compiler"],
  ["telescope", "galaxy", "spectrum", "redshift", "survey", "mirror", "light", "star"],
];
const pagesOf = (topic: string[], seed: number) =>
  [0, 1].map((p) => Array.from({ length: 40 }, (_, i) => topic[(i * (p + 3) + seed) % topic.length]).join(" "));

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
const embedder = createLatentEmbedder({ dimensions: 4 });
let first = "";
let second = "";

async function pdfInput(name: string, pages: string[], title: string) {
  const bytes = await makeTestPdf({ pages, title });
  return { name, size: bytes.byteLength, read: async () => bytes };
}

async function vectorsOf(paperId: string): Promise<string[]> {
  const rows = await queryRows<{ v: string | null }>(
    handle.db,
    sql`select embedding::text as v from chunks where paper_id = ${paperId} order by chunk_uid`,
  );
  return rows.map((r) => r.v ?? "null");
}

const edit = (id: string, e: unknown) => editPaperMetadata({ db: handle.db, embedder }, id, e);

async function editError(id: string, e: unknown): Promise<string> {
  try {
    await edit(id, e);
  } catch (err) {
    if (isLecternError(err)) return `${err.code} ${err.message}`;
    throw err;
  }
  throw new Error("the edit was accepted");
}

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-metadata-"));
  ctx = createIngestContext(handle, { dataDir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
  const results = await ingestFiles(
    [
      await pdfInput("repair.pdf", pagesOf(TOPICS[0] as string[], 1), "Proceedings Header 2023"),
      await pdfInput("sky.pdf", pagesOf(TOPICS[1] as string[], 2), "A Survey of Galaxy Spectra"),
    ],
    ctx,
  );
  expect(results.map((r) => r.status)).toEqual(["ingested", "ingested"]);
  [first = "", second = ""] = results.map((r) => r.paper_id ?? "");
});

afterAll(async () => {
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("editing a paper's metadata", () => {
  it("a new title is searchable at once, with new vectors, and the old title's words no longer find the paper", async () => {
    const hits = async (q: string) =>
      (await searchContent(handle.db, q, embedder, { retriever: "fts", cutoff: 0 })).map((r) => r.paperId);
    expect(await hits("proceedings header")).toContain(first);
    expect(await hits("zygomorphic transpiler")).toEqual([]);
    const before = await vectorsOf(first);
    const untouched = await vectorsOf(second);

    const r = await edit(first, { title: "  Zygomorphic   Transpiler Repair " });
    expect(r?.changed).toEqual(["title"]);
    expect(r?.metadata.title).toBe("Zygomorphic Transpiler Repair");
    expect(r?.reindexed).toBeGreaterThan(0);
    await r?.vectors;

    expect((await getPaper(handle.db, { id: first }))?.title).toBe("Zygomorphic Transpiler Repair");
    expect(await hits("zygomorphic transpiler")).toContain(first);
    expect(await hits("proceedings header")).not.toContain(first);
    // every passage of the paper re-projected (the title heads its terms); the other paper's vectors as they were
    const after = await vectorsOf(first);
    expect(after).toHaveLength(before.length);
    expect(after.every((v) => v !== "null")).toBe(true);
    expect(after).not.toEqual(before);
    expect(await vectorsOf(second)).toEqual(untouched);
    // and their neighbours computed again by the library step
    expect(await countMissingHubness(handle.db, { table: "chunks" })).toBe(0);
    // the summary passages carry the new title too
    const summaryTerms = await queryRows<{ t: string }>(
      handle.db,
      sql`select search_text as t from summary_chunks where paper_id = ${first}`,
    );
    expect(summaryTerms.length).toBeGreaterThan(0);
    expect(summaryTerms.every((row) => row.t.startsWith("zygomorph"))).toBe(true);
  });

  it("corrects authors, year, date, categories and identifiers, records what was edited, and keeps the id", async () => {
    const r = await edit(first, {
      authors: ["Ada Lovelace", " Charles  Babbage ", "", "Ada Lovelace"],
      publishedDate: "2021-03-04",
      categories: ["cs.SE", "cs.PL", "cs.SE"],
      doi: "10.1145/3368089.3409703",
      arxivId: "2103.01234v2",
    });
    expect(r?.changed).toEqual(["authors", "year", "publishedDate", "categories", "doi", "arxivId"]);
    expect(r?.reindexed).toBe(0);
    expect(r?.vectors).toBeNull();
    const paper = await getPaper(handle.db, { id: first });
    expect(paper).toMatchObject({
      id: first,
      authors: ["Ada Lovelace", "Charles Babbage"],
      year: 2021, // from the date
      publishedDate: "2021-03-04",
      categories: ["cs.SE", "cs.PL"],
      doi: "10.1145/3368089.3409703",
      arxivId: "2103.01234v2",
    });
    expect([...(paper?.editedFields ?? [])].sort()).toEqual(
      ["arxivId", "authors", "categories", "doi", "publishedDate", "title", "year"].sort(),
    );
    // the year filter of search sees it
    const in2021 = await searchContent(handle.db, "solver program", embedder, {
      retriever: "fts",
      cutoff: 0,
      yearFrom: 2021,
      yearTo: 2021,
    });
    expect(new Set(in2021.map((x) => x.paperId))).toEqual(new Set([first]));
  });

  it("clears optional fields with blanks, and an unchanged edit changes nothing", async () => {
    const r = await edit(first, { doi: "", arxivId: null, publishedDate: "", year: null, categories: [] });
    expect(r?.changed).toEqual(["year", "publishedDate", "categories", "doi", "arxivId"]);
    expect(await getPaper(handle.db, { id: first })).toMatchObject({
      year: null,
      publishedDate: null,
      categories: [],
      doi: null,
      arxivId: null,
    });
    const same = await edit(first, {
      title: "Zygomorphic Transpiler Repair",
      authors: ["Ada Lovelace", "Charles Babbage"],
    });
    expect(same?.changed).toEqual([]);
    expect(same?.reindexed).toBe(0);
  });

  it("refuses invalid edits with a message naming the problem, and changes nothing", async () => {
    const before = await getPaper(handle.db, { id: first });
    const cases: [unknown, RegExp][] = [
      [{}, /Nothing to change/],
      [{ title: "   " }, /title cannot be empty/],
      [{ title: "x".repeat(501) }, /longer than 500/],
      [{ title: "bad\u0007title" }, /invalid characters/],
      [{ year: 2021.5 }, /whole number/],
      [{ year: 1200 }, /1600 or later/],
      [{ year: new Date().getUTCFullYear() + 2 }, /cannot be after/],
      [{ year: "2021" }, /must be a number/],
      [{ publishedDate: "2021-02-30" }, /YYYY-MM-DD/],
      [{ publishedDate: "March 2021" }, /YYYY-MM-DD/],
      [{ publishedDate: "0042-01-01" }, /between 1600 and/],
      [{ year: 2020, publishedDate: "2021-03-04" }, /does not match the publication date/],
      [{ doi: "doi:abc" }, /not a DOI/],
      [{ arxivId: "arxiv 1234" }, /not an arXiv id/],
      [{ categories: ["two words"] }, /one word/],
      [{ authors: "Ada Lovelace" }, /expected array|Invalid/i],
      [{ id: "another-id" }, /Unrecognized key|unrecognized/i],
      [null, /expected object|Invalid/i],
    ];
    for (const [input, message] of cases) {
      const err = await editError(first, input);
      expect(err, JSON.stringify(input)).toMatch(/^bad_request:input /);
      expect(err, JSON.stringify(input)).toMatch(message);
    }
    expect(await getPaper(handle.db, { id: first })).toEqual(before);
    // the field at fault is named for a form to mark
    const fieldOf = async (input: unknown) => {
      try {
        await edit(first, input);
      } catch (err) {
        return isLecternError(err) ? err.field : "not a LecternError";
      }
      return "accepted";
    };
    expect(await fieldOf({ doi: "doi:abc" })).toBe("doi");
    expect(await fieldOf({ authors: ["ok", "x".repeat(201)] })).toBe("authors");
    expect(await fieldOf({ title: "" })).toBe("title");
    expect(await fieldOf({ year: 2020, publishedDate: "2021-03-04" })).toBe("year");
    expect(await fieldOf({})).toBeUndefined();
  });

  it("a year that disagrees with the stored date is refused; giving both together changes both", async () => {
    await edit(second, { publishedDate: "2019-05-06" });
    expect(await editError(second, { year: 2018 })).toMatch(/year 2018 does not match the publication date 2019-05-06/);
    const r = await edit(second, { year: 2018, publishedDate: "2018-01-02" });
    expect(r?.changed).toEqual(["year", "publishedDate"]);
  });

  it("a database that goes away gives a clear error, and nothing changes", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    // every query of the edit fails as node-postgres does when the server is gone
    const gone = new Proxy(handle.db, {
      get: (target, key) =>
        ["select", "transaction", "execute", "update", "insert"].includes(String(key))
          ? () => {
              throw refused;
            }
          : Reflect.get(target, key),
    });
    const before = await getPaper(handle.db, { id: first });
    const err = await editPaperMetadata({ db: gone, embedder }, first, { title: "Never Saved" }).catch((e) => e);
    expect(isLecternError(err) && err.code).toBe("unavailable:database");
    expect((err as Error).message).toMatch(/not reachable; nothing was changed/);
    expect(await getPaper(handle.db, { id: first })).toEqual(before);
    // an error that is not about the connection is not disguised as one
    const other = new Proxy(handle.db, {
      get: (target, key) =>
        String(key) === "transaction"
          ? () => {
              throw new Error("syntax error at or near");
            }
          : Reflect.get(target, key),
    });
    const err2 = await editPaperMetadata({ db: other, embedder }, first, { title: "Never Saved" }).catch((e) => e);
    expect(isLecternError(err2)).toBe(false);
  });

  it("gives null for a paper that is not in the library", async () => {
    expect(await edit("no-such-paper", { title: "Anything" })).toBeNull();
  });

  it("a cleared author list is recorded as edited (authors are then never read again from the pages)", async () => {
    await edit(second, { authors: ["Vera Rubin"] });
    const r = await edit(second, { authors: [] });
    expect(r?.changed).toEqual(["authors"]);
    expect(await getPaper(handle.db, { id: second })).toMatchObject({ authors: [] });
    expect((await getPaper(handle.db, { id: second }))?.editedFields).toContain("authors");
  });

  it("a new version of the PDF replacing the paper keeps what the user corrected and re-reads the rest", async () => {
    const bytes = await makeTestPdf({
      pages: [...pagesOf(TOPICS[0] as string[], 1), "compiler repair appendix with a third page"],
      title: "Proceedings Header 2023",
    });
    const [res] = await ingestFiles([{ name: "repair-v2.pdf", size: bytes.byteLength, read: async () => bytes }], ctx);
    expect(res).toMatchObject({ status: "replaced", paper_id: first, title: "Zygomorphic Transpiler Repair" });
    const paper = await getPaper(handle.db, { id: first });
    expect(paper).toMatchObject({
      title: "Zygomorphic Transpiler Repair",
      authors: ["Ada Lovelace", "Charles Babbage"],
      year: null,
      categories: [],
      pageCount: 3,
      fileName: "repair-v2.pdf",
    });
    const hits = await searchContent(handle.db, "zygomorphic transpiler", embedder, { retriever: "fts", cutoff: 0 });
    expect(hits.some((h) => h.paperId === first && h.page === 3)).toBe(true);
  });
});
