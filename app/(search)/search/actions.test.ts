import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie, signInAs } from "@/app/testing";
import type { DbHandle } from "@/db";
import { createAppTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { createIngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import { makeTestPdf } from "@/lib/testing/pdf";
import { searchAction } from "./actions";

// The action runs the real search on a test database; the app's database is the test's (createAppTestDatabase).
let handle: DbHandle;

const PAGES = [
  "arXiv:2401.01234v2 [cs.CL] 5 Jan 2024\nSparse Retrieval for Long Scientific Documents\nAda Lovelace\nAbstract\nWe study retrieval over long scientific documents with page-level chunks.",
  "2 Method\nReciprocal rank fusion of the lexicographic and dense lists lifts recall at five to 0.81.",
  // a list of references (flagged at ingest), citing a title found nowhere else
  "References\nB. Oyelaran and T. Marsh. 2022. Axolotl lattice gardens for tidal ledgers. In Proceedings of EMNLP 2022.\nC. Ruiz. 2018. Heron spline atlases. In ICML 2018.\nD. Sato. 2020. Page-level chunks revisited. arXiv preprint 2020.",
  // a third page of prose: the title's words (in every passage's search text) are then in three rows outside the
  // reference list, as a word must be to be a spelling correction's target
  "4 Results\nPage-level chunks keep each answer's page, which the reader then opens at the passage.",
];

let dataDir: string;

beforeAll(async () => {
  handle = await createAppTestDatabase();
  // a viewer may search (the library is everyone's in the instance)
  await signInAs(handle.db, "viewer");
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-search-action-"));
  const ctx = createIngestContext(handle, {
    dataDir,
    maxUploadBytes: 5 * 1024 * 1024,
    embedder: createHashingEmbedder({ dimensions: 512 }),
    chatModel: null,
  });
  const bytes = await makeTestPdf({ pages: PAGES });
  const [result] = await ingestFiles([{ name: "sparse.pdf", size: bytes.byteLength, read: async () => bytes }], ctx);
  expect(result?.status).toBe("ingested");
});

afterAll(async () => {
  await handle?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("searchAction", () => {
  it("finds the page-2 passage for a paraphrase, with the ranking of each retriever", async () => {
    const r = await searchAction({ q: "Does rank fusion lift recall?" });
    expect(r.ok).toBe(true);
    if (!r.ok || r.data.index !== "content") throw new Error("expected content results");
    const top = r.data.hits[0];
    expect(top).toMatchObject({
      paperId: "2401.01234v2",
      page: 2,
      title: "Sparse Retrieval for Long Scientific Documents",
    });
    expect(top?.text).toContain("Reciprocal rank fusion");
    expect(top?.fts?.rank).toBe(1);
    expect(top?.relevance).toBeGreaterThan(0);
    expect(Object.keys(top ?? {})).not.toContain("embedding");
  });

  it("says which misspelt words it searched under the library's spelling", async () => {
    const r = await searchAction({ q: "retrieval over long scientfic documents" });
    if (!r.ok || r.data.index !== "content") throw new Error("expected content results");
    expect(r.data.respelled).toEqual([{ written: "scientfic", searched: "scientific" }]);
    expect(r.data.hits[0]?.paperId).toBe("2401.01234v2");
    const right = await searchAction({ q: "retrieval over long scientific documents" });
    if (!right.ok || right.data.index !== "content") throw new Error("expected content results");
    expect(right.data.respelled).toBeUndefined();
    // a word in no page of the library is said (a misspelt one is not: it was searched as the library spells it)
    expect(right.data.absent).toBeUndefined();
    expect(r.data.absent).toBeUndefined();
    const absent = await searchAction({ q: "retrieval of long documents on crustacean moulting" });
    if (!absent.ok || absent.data.index !== "content") throw new Error("expected content results");
    expect(absent.data.absent).toEqual(["crustacean", "moulting"]);
    expect(absent.data.allAbsent).toBeUndefined();
    const none = await searchAction({ q: "crustacean moulting" });
    if (!none.ok || none.data.index !== "content") throw new Error("expected content results");
    expect(none.data).toMatchObject({ absent: ["crustacean", "moulting"], allAbsent: true });
  });

  it("searches the summaries, one result per paper", async () => {
    const r = await searchAction({ q: "retrieval over long scientific documents", index: "summaries" });
    if (!r.ok || r.data.index !== "summaries") throw new Error("expected summary results");
    expect(r.data.papers.map((p) => p.paperId)).toEqual(["2401.01234v2"]);
    expect(r.data.papers[0]?.passages.length).toBeGreaterThan(0);
  });

  it("applies the filters", async () => {
    const q = "reciprocal rank fusion";
    const within = async (opts: object) => {
      const r = await searchAction({ q, ...opts });
      if (!r.ok || r.data.index !== "content") throw new Error(r.ok ? "expected content" : r.error.message);
      return r.data.hits.length;
    };
    expect(await within({ yearFrom: 2024, yearTo: 2024, category: "cs.CL", papers: ["2401.01234v2"] })).toBeGreaterThan(
      0,
    );
    expect(await within({ yearFrom: 2025 })).toBe(0);
    expect(await within({ category: "hep-th" })).toBe(0);
    expect(await within({ papers: ["someone-else"] })).toBe(0);
  });

  it("searches the reference lists only when asked (refs)", async () => {
    const q = "axolotl lattice gardens for tidal ledgers";
    const hits = async (input: { refs?: boolean }) => {
      const r = await searchAction({ q, ...input });
      if (!r.ok || r.data.index !== "content") throw new Error(r.ok ? "expected content" : r.error.message);
      return r.data.hits;
    };
    for (const without of [await hits({}), await hits({ refs: false })]) {
      expect(without.some((h) => h.page === 3)).toBe(false);
      expect(without.every((h) => !h.bibliography)).toBe(true);
    }
    const withRefs = await hits({ refs: true });
    expect(withRefs[0]).toMatchObject({ paperId: "2401.01234v2", page: 3, section: "References", bibliography: true });
    expect(withRefs[0]?.text).toContain("Axolotl lattice gardens");
    // the summaries have no reference lists: the option changes nothing there
    const summaries = await searchAction({
      q: "retrieval over long scientific documents",
      index: "summaries",
      refs: true,
    });
    expect(summaries.ok && summaries.data.index === "summaries" && summaries.data.papers.length).toBe(1);
  });

  it("answers bad queries with a message, never by throwing", async () => {
    const cases: [string, RegExp][] = [
      ["", /Type a question/],
      ["   ", /Type a question/],
      ["x".repeat(20_000), /too long \(20,000 characters\); keep it under 2,000/],
      ["?!&|():* 🚀🚀 ''", /no words/],
    ];
    for (const [q, message] of cases) {
      const r = await searchAction({ q });
      expect(r).toMatchObject({ ok: false, error: { code: "bad_request:query" } });
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
  });

  it("searches hostile text, stop words and other scripts as plain words", async () => {
    for (const q of [
      '"); DROP TABLE chunks; -- & | ! :* ((',
      "fusion & (recall | !dense):* 'quoted' \"double\" <-> back\\slash",
      "the of and to",
      "检索 排名 融合 🔍",
      "Reciprocal rank fusion' OR 1=1; --",
    ]) {
      const r = await searchAction({ q });
      expect(r.ok, `${q}: ${r.ok ? "" : r.error.message}`).toBe(true);
    }
    const again = await searchAction({ q: "reciprocal rank fusion" });
    expect(again.ok && again.data.index === "content" && again.data.hits.length).toBeGreaterThan(0);
  });

  it("refuses a visitor who is not signed in (and says so)", async () => {
    if (!handle) throw new Error("no test database");
    await signInAs(handle.db, null);
    try {
      const r = await searchAction({ q: "reciprocal rank fusion", index: "content" } as never);
      expect(r).toEqual({
        ok: false,
        error: { code: "unauthorized:session", message: expect.stringMatching(/Sign in/) },
      });
    } finally {
      await signInAs(handle.db, "viewer");
    }
  });

  it("refuses malformed input with a message", async () => {
    const bad = [
      { q: 42 },
      { q: "x", index: "everything" },
      { q: "x", yearFrom: 19 },
      { q: "x", category: "cs.CL; drop" },
      { q: "x", papers: ["a\u0000b"] },
      { q: "x", yearFrom: 2024, yearTo: 2019 },
      { q: "x", refs: "yes" },
    ];
    for (const input of bad) {
      // biome-ignore lint/suspicious/noExplicitAny: malformed input on purpose, as a client could send it
      const r = await searchAction(input as any);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe("bad_request:query");
    }
  });
});

describe("GET /api/search (the same search for scripts)", () => {
  const get = async (query: string, cookie: string) => {
    const { GET } = await import("@/app/api/search/route");
    return GET(new Request(`http://localhost/api/search?${query}`, { headers: { cookie } }));
  };

  it("answers a signed-in reader with the search page's results, as JSON", async () => {
    const cookie = await sessionCookie(handle.db, "viewer");
    const res = await get(`q=${encodeURIComponent("Does rank fusion lift recall?")}`, cookie);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: true; data: { index: string; hits: { paperId: string; page: number }[] } };
    expect(body.data.index).toBe("content");
    expect(body.data.hits[0]).toMatchObject({ paperId: "2401.01234v2", page: 2 });
    const summaries = (await (await get("q=long+scientific+documents&index=summaries", cookie)).json()) as {
      data: { papers: { paperId: string }[] };
    };
    expect(summaries.data.papers.map((p) => p.paperId)).toEqual(["2401.01234v2"]);
  });

  it("refuses without a session (401), and says what is wrong with a bad query (400)", async () => {
    expect((await get("q=recall", "")).status).toBe(401);
    const cookie = await sessionCookie(handle.db, "viewer");
    const empty = await get("q=%20%20", cookie);
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe("bad_request:query");
    const year = await get("q=recall&yearFrom=12", cookie);
    expect(year.status).toBe(400);
    expect(((await year.json()) as { error: { message: string } }).error.message).toBe("A year has four digits.");
  });
});
