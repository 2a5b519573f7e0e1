import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ArxivStandin, startArxivStandin } from "@/lib/testing/arxiv-standin";
import { makeTestPdf } from "@/lib/testing/pdf";
import { writeZoteroExport } from "@/lib/testing/zotero-export";
import { type CliLibrary, cli, openCliLibrary } from "./testing";

/**
 * `add`, `arxiv search` and `import` as a user runs them, against the arXiv stand-in, on a fresh library (a PGlite
 * directory, or a new database on DATABASE_URL's server).
 */

let dir = "";
let standin: ArxivStandin;
let lib: CliLibrary | undefined;

beforeAll(async () => {
  standin = await startArxivStandin([
    {
      id: "2106.09685",
      title: "LoRA: Low-Rank Adaptation of Large Language Models",
      authors: ["Edward J. Hu", "Yelong Shen"],
      abstract: "Low-rank adapters freeze the weights.",
      categories: ["cs.CL"],
      versions: [
        {
          version: 2,
          date: "2021-10-16",
          pdf: await makeTestPdf({ pages: ["Draft\nLow-rank adapters for transformers.", "Second page of text."] }),
        },
      ],
    },
  ]);
  lib = await openCliLibrary("sources", () => ({
    LECTERN_ARXIV_API_URL: standin.apiUrl,
    LECTERN_ARXIV_PDF_URL: standin.pdfUrl,
    LECTERN_ARXIV_CONTACT: "lab@example.org",
    LECTERN_EMBEDDING_PROVIDER: "hashing",
  }));
  dir = lib.dir;
});

afterAll(async () => {
  try {
    await lib?.close();
  } finally {
    await standin?.close();
  }
});

describe("cli add / arxiv search / import", () => {
  it("add: papers by id and URL, an unknown id as an error (exit 1), progress on stderr", async () => {
    const r = await cli("add", "https://arxiv.org/abs/2106.09685", "2401.99999", "--json");
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { results: { item: string; status: string; paper_id: string | null }[] };
    expect(out.results.map((x) => [x.item, x.status, x.paper_id])).toEqual([
      ["https://arxiv.org/abs/2106.09685", "ingested", "2106.09685v2"],
      ["2401.99999", "error", null],
    ]);
    // progress per item: the lookup, then the file's stages as its jobs record them (a stage shorter than the follower's
    // poll may not be seen, so only the first and the last are asserted)
    expect(r.stderr).toMatch(/\[1\/2\] https:\/\/arxiv\.org\/abs\/2106\.09685 · looking up on arXiv/);
    expect(r.stderr).toMatch(/\[1\/2\] ✓ added {2}https:\/\/arxiv\.org\/abs\/2106\.09685 {2}2106\.09685v2/);
    expect(r.stderr).toMatch(/✗ error {2}2401\.99999 {2}arXiv has no paper 2401\.99999\./);
    expect(standin.requests[0]?.userAgent).toMatch(/mailto:lab@example\.org/);

    const again = await cli("add", "2106.09685", "--json");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).results[0]).toMatchObject({ status: "already_in_library" });
  });

  it("arxiv search: results marked with what the library has", async () => {
    const r = await cli("arxiv", "search", "low-rank", "--category", "cs.CL", "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.total).toBe(1);
    expect(out.results[0]).toMatchObject({
      arxiv_id: "2106.09685v2",
      in_library: { paper_id: "2106.09685v2", arxiv_id: "2106.09685v2" },
    });
    expect(r.stderr).toMatch(/in library as 2106\.09685v2/);
  });

  it("import: a Zotero export folder, with a report", async () => {
    const exportDir = path.join(dir, "zotero");
    await writeZoteroExport(exportDir);
    const r = await cli("import", exportDir, "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.format).toBe("bibtex");
    expect(out.counts).toEqual({
      ingested: 2,
      queued: 0,
      already_present: 0,
      no_pdf: 1,
      arxiv_available: 1,
      failed: 0,
    });
    expect(r.stderr).toMatch(/Imported: 2 ingested, 0 already present, 1 no PDF, 1 on arXiv/);

    const missing = await cli("import", path.join(dir, "nothing-here.bib"), "--json");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe("not_found:file");
  });
});
