import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { type Database, type DbHandle, queryRows } from "@/db";
import { noteContentChanged } from "@/db/queries/meta";
import { deletePaper, getPageTexts } from "@/db/queries/papers";
import { getContentRows, searchFullText } from "@/db/queries/search";
import { chunks } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { LecternError } from "@/lib/errors";
import { createIngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { makeTestPdf } from "@/lib/testing/pdf";
import { termOf } from "@/lib/text/terms";
import {
  bestPerPage,
  defaultEfSearch,
  fillBoundedCache,
  prefetchRetrieval,
  RetrievalCache,
  searchContent,
  searchedRespelled,
  searchSummaries,
  vocabularyRead,
  wordsAbsentFromLibrary,
} from "./search";

// Three small "papers" generated on the spot and ingested through the real pipeline.
const ATTENTION = [
  "arXiv:2001.00001v1 [cs.CL] 2 Jan 2020\nScaled Attention for Sequence Transduction\nAda Lovelace\nAbstract\nWe propose an attention-only encoder-decoder for translation.\n1 Introduction\nTranslation needs context.",
  "2 Scaled Dot-Product Attention\nWe divide the dot products of queries and keys by the square root of the key dimension. For large dimensions the dot products grow large in magnitude, pushing the softmax function into regions where it has extremely small gradients. Scaling counteracts this effect.",
  "3 Training\nWe trained on eight GPUs for three days with the Adam optimizer and label smoothing of 0.1. Dropout was applied to the output of each sub-layer before the residual connection.",
];
const LORA = [
  "arXiv:2106.00002v2 [cs.LG] 1 Jun 2021\nLow-Rank Adapters for Large Language Models\nAlan Turing\nAbstract\nWe freeze the pretrained weights and train small low-rank update matrices.",
  "4.1 No Additional Inference Latency\nWhen deployed in production, the low-rank update is merged into the frozen weight matrix, so the adapted model runs exactly as fast as the original one; there is no extra latency at inference time.",
  "References\nE. Hu and Y. Shen. 2021. Quokka pottery parsers for marsupial archives. In Proceedings of ACL 2021.\nK. Ito. 2019. Wombat tables at scale. In NeurIPS 2019.\nM. Ode. 2020. Frozen weights revisited. arXiv preprint 2020.",
];
const RAG = [
  "arXiv:2302.00003v1 [cs.IR] 3 Feb 2023\nRetrieval Every Few Tokens\nGrace Hopper\nAbstract\nA frozen language model reads retrieved documents prepended to its input.",
  "3 Retrieval stride\nWe retrieve new documents every four generated tokens; retrieving more often improves perplexity but costs runtime. A retrieval stride of four balances quality and speed.",
  "3 Retrieval stride (copy)\nWe retrieve new documents every four generated tokens; retrieving more often improves perplexity but costs runtime. A retrieval stride of four balances quality and speed.",
];

let handle: DbHandle;
let lib: TestLibrary;
let embedder: EmbeddingProvider;

beforeAll(async () => {
  lib = await createTestLibrary([ATTENTION, LORA, RAG], { name: "search" });
  handle = lib.handle;
  embedder = lib.embedder;
});

afterAll(async () => {
  await lib?.close();
});

async function expectBadRequest(p: Promise<unknown>): Promise<LecternError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LecternError);
  expect((e as LecternError).code).toBe("bad_request:query");
  return e as LecternError;
}

describe("searchContent", () => {
  it("ranks the answering page first for a paraphrased question, with both retrievers' scores", async () => {
    const rs = await searchContent(
      handle.db,
      "Why are query-key dot products scaled by the square root of the key size before the softmax?",
      embedder,
    );
    expect(rs[0]).toMatchObject({ paperId: "2001.00001v1", page: 2 });
    const top = rs[0];
    expect(top?.fts?.rank).toBeGreaterThan(0);
    expect(top?.vector?.rank).toBeGreaterThan(0);
    // the exact chunk text: the page's text between the chunk's offsets
    expect(top && top.charEnd > top.charStart).toBe(true);
    const [pageText] = await getPageTexts(handle.db, { paperId: "2001.00001v1" }).then((ps) =>
      ps.filter((p) => p.pageNumber === 2).map((p) => p.text),
    );
    expect(top?.text).toBe(pageText?.slice(top?.charStart, top?.charEnd));
    expect(top?.text).toContain("square root of the key dimension");
    expect(top?.title).toBe("Scaled Attention for Sequence Transduction");
    // the section the passage is in, found in the paper's headings
    expect(top?.section).toBe("2 Scaled Dot-Product Attention");
  });

  it("answers a question on another paper with that paper's page", async () => {
    const rs = await searchContent(handle.db, "Does the adapted low-rank model add latency once deployed?", embedder);
    expect(rs[0]).toMatchObject({ paperId: "2106.00002v2", page: 2 });
  });

  it("searches a British spelling the library does not hold in its American one", async () => {
    // the library spells it "optimizer"; "optimiser" is nowhere in it
    const british = await searchContent(handle.db, "Which optimiser trained the model?", embedder, {
      retriever: "fts",
    });
    const american = await searchContent(handle.db, "Which optimizer trained the model?", embedder, {
      retriever: "fts",
    });
    expect(american[0]).toMatchObject({ paperId: "2001.00001v1", page: 3 });
    expect(british.map((r) => r.chunkUid)).toEqual(american.map((r) => r.chunkUid));
    expect(british[0]?.fts?.score).toBeCloseTo(american[0]?.fts?.score ?? 0, 6);
    // a word that only looks British is not respelled into another word the library holds ("devised" is not "dev…")
    expect(await searchContent(handle.db, "How was the crop rotation schedule devised?", embedder)).toEqual([]);
  });

  it("searches a misspelt word by the library's term, unless the question writes it as a name", async () => {
    const asked = (q: string) => searchContent(handle.db, q, embedder, { retriever: "fts" });
    const right = await asked("How does attention scale the dot products?");
    expect(right[0]).toMatchObject({ paperId: "2001.00001v1" });
    const typo = await asked("How does atention scale the dot products?");
    expect(typo.map((r) => r.chunkUid)).toEqual(right.map((r) => r.chunkUid));
    expect(typo[0]?.fts?.score).toBeCloseTo(right[0]?.fts?.score ?? 0, 6);
    // written with a capital inside the sentence it is a name the library does not hold
    expect((await asked("How does Atention scale the dot products?")).map((r) => r.chunkUid)).not.toEqual(
      right.map((r) => r.chunkUid),
    );
    // …in every query of the search: the lower-cased keywords of an expansion do not make it a plain word
    const ids = async (qs: string[]) =>
      (await searchContent(handle.db, qs, embedder, { retriever: "fts" })).map((r) => r.chunkUid);
    expect(await ids(["How does Atention scale the dot products?", "atention dot products"])).toEqual(
      await ids(["How does Atention scale the dot products?", "Atention dot products"]),
    );
    expect(await ids(["How does atention scale the dot products?", "atention dot products"])).not.toEqual(
      await ids(["How does Atention scale the dot products?", "Atention dot products"]),
    );
    expect((await wordsAbsentFromLibrary(handle.db, "How does atention scale the dot products?")).absent).toEqual([]);
    expect((await wordsAbsentFromLibrary(handle.db, "How does Atention scale the dot products?")).absent).toEqual([
      "Atention",
    ]);
  });

  it("names the question's words no paper contains, as written, its British spellings of library words not among them", async () => {
    const r = await wordsAbsentFromLibrary(
      handle.db,
      "Does scaled attention run faster on neuromorphic Loihi hardware?",
    );
    expect(r.absent).toEqual(["neuromorphic", "Loihi", "hardware"]);
    expect(r.terms).toBeGreaterThanOrEqual(6);
    // "optimiser": the library has "optimizer"; reference lists count as the library too ("Quokka")
    const quokka = await wordsAbsentFromLibrary(handle.db, "Which optimiser trained the Quokka model?");
    expect(quokka.absent).toEqual([]);
    // words at most three passages hold are rare, as written (the American spelling's passages counted)
    expect(quokka.rare).toEqual(["optimiser", "trained", "Quokka"]);
    expect(await wordsAbsentFromLibrary(handle.db, "the of and")).toMatchObject({ absent: [], terms: 0 });
    expect(r.passages).toBeGreaterThan(0);
  });

  it("returns nothing for a topic absent from the library", async () => {
    const rs = await searchContent(
      handle.db,
      "How does 3D Gaussian splatting achieve real-time novel-view rendering compared with NeRF?",
      embedder,
    );
    expect(rs).toEqual([]);
  });

  it("filters by paper id and by year", async () => {
    const q = "retrieval of documents and attention";
    const onlyRag = await searchContent(handle.db, q, embedder, { paperIds: ["2302.00003v1"], cutoff: 0 });
    expect(onlyRag.length).toBeGreaterThan(0);
    expect(new Set(onlyRag.map((r) => r.paperId))).toEqual(new Set(["2302.00003v1"]));
    const recent = await searchContent(handle.db, q, embedder, { yearFrom: 2021, cutoff: 0 });
    expect(recent.every((r) => r.year !== null && r.year >= 2021)).toBe(true);
    expect(await searchContent(handle.db, q, embedder, { yearFrom: 2030, cutoff: 0 })).toEqual([]);
    await expectBadRequest(searchContent(handle.db, q, embedder, { yearFrom: 2024, yearTo: 2019 }));
  });

  it("leaves the papers' reference lists out unless asked for them", async () => {
    const q = "quokka pottery parsers for marsupial archives";
    const content = await searchContent(handle.db, q, embedder, { cutoff: 0 });
    expect(content.some((r) => r.paperId === "2106.00002v2" && r.page === 3)).toBe(false);
    expect(content.every((r) => !r.bibliography)).toBe(true);
    const withLists = await searchContent(handle.db, q, embedder, { includeBibliography: true });
    expect(withLists[0]).toMatchObject({ paperId: "2106.00002v2", page: 3, section: "References", bibliography: true });
  });

  it("fuses several queries and tags each result with the queries that found it", async () => {
    const queries = ["square root of the key dimension", "how often are new documents retrieved while generating"];
    const rs = await searchContent(handle.db, queries, embedder, { cutoff: 0 });
    const attention = rs.find((r) => r.paperId === "2001.00001v1" && r.page === 2);
    const rag = rs.find((r) => r.paperId === "2302.00003v1");
    expect(attention?.queries).toContain(queries[0]);
    expect(rag?.queries).toContain(queries[1]);
    for (const r of rs) expect(r.queries.length).toBeGreaterThan(0);
  });

  it("MMR drops a near-duplicate passage that plain relevance keeps", async () => {
    const q = "retrieval stride every four generated tokens";
    const plain = await searchContent(handle.db, q, embedder, { mmrAlpha: 1, k: 2, cutoff: 0 });
    // pages 2 and 3 hold the same passage
    expect(plain.map((r) => [r.paperId, r.page])).toEqual([
      ["2302.00003v1", 2],
      ["2302.00003v1", 3],
    ]);
    const diverse = await searchContent(handle.db, q, embedder, { mmrAlpha: 0.3, k: 2, cutoff: 0 });
    expect([diverse[0]?.paperId, diverse[0]?.page]).toEqual(["2302.00003v1", 2]);
    expect(diverse).toHaveLength(2);
    expect(diverse.some((r) => r.paperId === "2302.00003v1" && r.page === 3)).toBe(false);
  });

  it("copes with every kind of bad input: a clear bad_request or sensible results, never a crash", async () => {
    await expectBadRequest(searchContent(handle.db, "", embedder));
    await expectBadRequest(searchContent(handle.db, "   ", embedder));
    await expectBadRequest(searchContent(handle.db, "x".repeat(20_000), embedder));
    await expectBadRequest(searchContent(handle.db, "?!... ;;; ---", embedder));
    await expectBadRequest(searchContent(handle.db, "🚀🔥🤖", embedder));
    await expectBadRequest(searchContent(handle.db, "<-> ! | & ( ) :* \\", embedder));
    await expectBadRequest(searchContent(handle.db, "attention", embedder, { k: 0 }));
    await expectBadRequest(searchContent(handle.db, "attention", embedder, { mmrAlpha: 2 }));
    const odd = [
      "the of and a to",
      "attention & (softmax | !scaling):*",
      "'; DROP TABLE chunks; --",
      "\"square root\" OR 'key dimension'",
      "注意力 机制 Трансформер",
      "square root 🚀 of the key dimension",
      "SELECT * FROM papers WHERE 1=1",
    ];
    for (const q of odd) {
      const rs = await searchContent(handle.db, q, embedder);
      expect(Array.isArray(rs)).toBe(true);
    }
    expect(await searchContent(handle.db, "the of and a to", embedder)).toEqual([]);
    const withOps = await searchContent(handle.db, "square & root | !key:* (dimension)", embedder);
    expect(withOps[0]).toMatchObject({ paperId: "2001.00001v1", page: 2 });
    // the library is intact after the SQL-looking query
    expect((await searchContent(handle.db, "square root key dimension", embedder)).length).toBeGreaterThan(0);
  });
});

describe("searchSummaries", () => {
  it("returns each paper once, with its matching summary passages", async () => {
    const rs = await searchSummaries(handle.db, "low-rank update matrices for frozen pretrained weights", embedder, {
      cutoff: 0,
    });
    expect(rs[0]?.paperId).toBe("2106.00002v2");
    expect(new Set(rs.map((r) => r.paperId)).size).toBe(rs.length);
    expect(rs[0]?.passages.length).toBeGreaterThan(0);
    expect(rs.length).toBeLessThanOrEqual(8);
  });

  it("returns nothing for an absent topic and rejects bad input", async () => {
    expect(await searchSummaries(handle.db, "Gaussian splatting NeRF novel-view rendering", embedder)).toEqual([]);
    await expectBadRequest(searchSummaries(handle.db, "", embedder));
  });
});

describe("searchContent options", () => {
  it("refuses a query embedder other than the library's, and says how to fix it", async () => {
    const other = createHashingEmbedder({ dimensions: 256 });
    const e = await searchContent(handle.db, "low-rank update", other).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(LecternError);
    expect((e as LecternError).code).toBe("conflict:embedding");
    expect((e as LecternError).message).toMatch(/reembed/);
    // full text alone needs no vectors
    const fts = await searchContent(handle.db, "low-rank update", other, { retriever: "fts" });
    expect(fts[0]?.paperId).toBe("2106.00002v2");
  });

  it("ranks by proximity only when it is fused or asked for", async () => {
    const q = "square root of the key dimension";
    const plain = await searchContent(handle.db, q, embedder);
    expect(plain.every((r) => r.proximity === null)).toBe(true);
    const shown = await searchContent(handle.db, q, embedder, { showProximity: true });
    expect(shown.map((r) => r.chunkUid)).toEqual(plain.map((r) => r.chunkUid));
    expect(shown[0]?.proximity).toMatchObject({ rank: expect.any(Number), score: expect.any(Number) });
    const fused = await searchContent(handle.db, q, embedder, { weights: { proximity: 1 } });
    expect(fused[0]?.proximity?.score).toBeGreaterThan(0);
  });
});

describe("RetrievalCache", () => {
  const QUERIES = [
    "low-rank update matrices",
    "retrieval stride every four tokens",
    "square root of the key dimension",
  ];

  it("gives the same results as an uncached search, prefetched or not, and searches each query once", async () => {
    const plain = await searchSummaries(handle.db, QUERIES, embedder, { cutoff: 0 });
    const cache = new RetrievalCache();
    await prefetchRetrieval(handle.db, "summaries", QUERIES.slice(0, 2), embedder, { cutoff: 0, cache });
    expect(cache.size).toBe(2);
    expect(cache.hits).toBe(0);
    const cached = await searchSummaries(handle.db, QUERIES, embedder, { cutoff: 0, cache });
    expect(cache.hits).toBe(2);
    expect(cache.size).toBe(3);
    expect(cached).toEqual(plain);
    // fusion options apply after retrieval: a different k reuses the lists; a different filter does not
    await searchSummaries(handle.db, QUERIES, embedder, { cutoff: 0, k: 2, cache });
    expect(cache.hits).toBe(5);
    await searchSummaries(handle.db, QUERIES, embedder, { cutoff: 0, yearFrom: 2021, cache });
    expect(cache.size).toBe(6);
  });

  it("keeps the content and summary indexes, and paper filters, apart", async () => {
    const cache = new RetrievalCache();
    const q = "retrieve new documents every four generated tokens";
    const summaries = await searchSummaries(handle.db, q, embedder, { cache });
    const content = await searchContent(handle.db, q, embedder, { cache });
    expect(cache.hits).toBe(0);
    expect(content).toEqual(await searchContent(handle.db, q, embedder));
    expect(summaries).toEqual(await searchSummaries(handle.db, q, embedder));
    const restricted = await searchContent(handle.db, q, embedder, { paperIds: ["2106.00002v2"], cache, cutoff: 0 });
    expect(cache.hits).toBe(0);
    expect(cache.size).toBe(3);
    expect(restricted.every((r) => r.paperId === "2106.00002v2")).toBe(true);
  });

  it("does not keep a failed retrieval: the next search retrieves it again", async () => {
    const cache = new RetrievalCache();
    const broken = { ...embedder, embed: async () => Promise.reject(new Error("embedder down")) };
    await expect(prefetchRetrieval(handle.db, "content", "low-rank update", broken, { cache })).rejects.toThrow(
      "embedder down",
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.size).toBe(0);
    const rs = await searchContent(handle.db, "low-rank update", embedder, { cache });
    expect(rs[0]?.paperId).toBe("2106.00002v2");
  });

  it("retrieves again a query whose prefetch fails while a search waits for it", async () => {
    const cache = new RetrievalCache();
    let fail = true;
    const flaky: EmbeddingProvider = {
      ...embedder,
      embed: async (texts) => {
        if (fail) {
          fail = false;
          throw new Error("transient");
        }
        return embedder.embed(texts);
      },
    };
    const prefetch = prefetchRetrieval(handle.db, "content", "low-rank update", flaky, { cache });
    const search = searchContent(handle.db, "low-rank update", flaky, { cache });
    await expect(prefetch).rejects.toThrow("transient");
    expect((await search)[0]?.paperId).toBe("2106.00002v2");
  });
});

describe("searchFullText", () => {
  it("gives each query the same list whether it is searched alone or together with others", async () => {
    const t = (w: string) => termOf(w) as string;
    // A selects with "square", B with "latency"; both also score "root" (in the attention paper, not the LoRA one)
    const a = { lexemes: [t("square"), t("root")], matchLexemes: [t("square")], idf: [1, 1] };
    const b = { lexemes: [t("latency"), t("root")], matchLexemes: [t("latency")], idf: [1, 1] };
    const opts = { table: "chunks" as const, avgLength: 100, filters: {}, limit: 20 };
    const [together] = [await searchFullText(handle.db, { ...opts, queries: [a, b] })];
    const aloneA = (await searchFullText(handle.db, { ...opts, queries: [a] }))[0];
    const aloneB = (await searchFullText(handle.db, { ...opts, queries: [b] }))[0];
    expect(together?.[0]).toEqual(aloneA);
    expect(together?.[1]).toEqual(aloneB);
    // the attention page (square root) is not in B's list: only B's own selecting word brings rows in
    expect(aloneB?.every((h) => h.paperId === "2106.00002v2")).toBe(true);
    expect(aloneB?.length).toBeGreaterThan(0);
  });

  it("gives each row the cover density ts_rank_cd gives it (its query as an OR, normalised by ln(1 + lexemes))", async () => {
    const t = (w: string) => termOf(w) as string;
    // words that repeat within and across pages, several per query, two queries sharing one
    const queries = [
      ["retriev", "document", "token", "stride"].map((w) => t(w)),
      ["low", "rank", "weight", "frozen"].map((w) => t(w)),
      ["dot", "product", "root", "attention", "frozen"].map((w) => t(w)),
    ].map((lexemes) => ({ lexemes, idf: lexemes.map(() => 1) }));
    const lists = await searchFullText(handle.db, {
      table: "chunks",
      queries,
      avgLength: 100,
      filters: { includeBibliography: true },
      limit: 50,
    });
    let compared = 0;
    let repeated = 0;
    for (const [qi, list] of lists.entries()) {
      const lexemes = queries[qi]?.lexemes ?? [];
      const tsquery = lexemes.map((l) => `'${l}'`).join(" | ");
      for (const hit of list) {
        const rows = await queryRows<{ cd: number; rank: number }>(
          handle.db,
          sql`select (x.rank / ln(x.dl + 1))::float8 as cd, x.rank::float8 as rank from (
                select ts_rank_cd(ts_filter(setweight(c.tsv, 'A', ${sql.param(lexemes)}::text[]), '{a}'),
                  to_tsquery('simple', ${tsquery}), 0) as rank, greatest(length(c.tsv), 1) as dl
                from chunks c where c.chunk_uid = ${hit.chunkUid}) x`,
        );
        expect(hit.coverDensity).toBe(Number(rows[0]?.cd));
        compared++;
        // more covers than matched words: a word occurs more than once
        if (Number(rows[0]?.rank) > hit.matched.length) repeated++;
      }
    }
    expect(compared).toBeGreaterThan(6);
    expect(repeated).toBeGreaterThan(0);
  });
});

describe("corpus statistics", () => {
  it("reads the row count again only after a write by this process (or a few seconds)", async () => {
    // the clock stands still: the searches below fall within the recheck interval however slow the machine is
    const now = performance.now();
    const clock = vi.spyOn(performance, "now").mockReturnValue(now);
    onTestFinished(() => clock.mockRestore());
    const seen: string[] = [];
    const dialect = new PgDialect();
    const spy = Object.create(handle.db) as Database;
    spy.execute = ((q: SQL) => {
      seen.push(dialect.sqlToQuery(q).sql);
      return handle.db.execute(q);
    }) as Database["execute"];
    const counts = () => seen.filter((s) => /select count\(\*\) from chunks/.test(s)).length;
    await searchContent(spy, "low-rank update matrices", embedder);
    expect(counts()).toBe(1);
    await searchContent(spy, "square root of the key dimension", embedder);
    expect(counts()).toBe(1);
    noteContentChanged();
    const after = await searchContent(spy, "low-rank update matrices", embedder);
    expect(counts()).toBe(2);
    expect(after[0]?.paperId).toBe("2106.00002v2");
    // …and again once the interval has passed (another process may have written)
    clock.mockReturnValue(now + 5_001);
    await searchContent(spy, "low-rank update matrices", embedder);
    expect(counts()).toBe(3);
  });
});

describe("fillBoundedCache (the document-frequency cache)", () => {
  it("looks up only what it lacks, stays within its limit, and gives every value asked for whatever it drops", async () => {
    const asked: string[][] = [];
    const lookup = async (keys: string[]) => {
      asked.push(keys);
      return new Map(keys.filter((k) => k !== "absent").map((k) => [k, k.length]));
    };
    const cache = new Map<string, number>();
    const first = await fillBoundedCache(cache, ["ab", "abc", "absent"], 4, lookup);
    expect([...first]).toEqual([
      ["ab", 2],
      ["abc", 3],
      ["absent", 0],
    ]);
    expect(cache.size).toBe(3);
    await fillBoundedCache(cache, ["ab", "abcd"], 4, lookup);
    expect(asked.at(-1)).toEqual(["abcd"]);
    // one more would pass the limit: the cache is emptied, and this call still gets "ab" (before: the keys of the
    // call were dropped with the rest, and read as absent)
    const third = await fillBoundedCache(cache, ["ab", "abcde"], 4, lookup);
    expect(asked.at(-1)).toEqual(["abcde"]);
    expect(third.get("ab")).toBe(2);
    expect(third.get("abcde")).toBe(5);
    expect(cache.size).toBeLessThanOrEqual(4);
  });

  it("keeps a caller's values when another empties the cache while its lookup runs", async () => {
    const cache = new Map<string, number>([["kept", 1]]);
    let release: () => void = () => {};
    const slow = (keys: string[]) =>
      new Promise<Map<string, number>>((resolve) => {
        release = () => resolve(new Map(keys.map((k) => [k, 7])));
      });
    const pending = fillBoundedCache(cache, ["kept", "new"], 100, slow);
    cache.clear(); // another search's overflow
    release();
    expect([...(await pending)]).toEqual([
      ["kept", 1],
      ["new", 7],
    ]);
  });
});

describe("defaultEfSearch", () => {
  it("widens the HNSW walk as the table grows, within pgvector's limit", () => {
    expect(defaultEfSearch(0)).toBe(100);
    expect(defaultEfSearch(1_934)).toBe(114);
    expect(defaultEfSearch(100_000)).toBe(815);
    expect(defaultEfSearch(10_000_000)).toBe(1000);
    expect(defaultEfSearch(50_000)).toBeGreaterThan(defaultEfSearch(20_000));
  });
});

describe("bestPerPage", () => {
  const r = (id: string, paperId: string, pageNumber: number) => ({ id, row: { paperId, pageNumber } });
  const list = [r("a", "p1", 4), r("b", "p1", 4), r("c", "p2", 4), r("d", "p1", 5), r("e", "p1", 4)];

  it("keeps the best chunk of each page, in order", () => {
    expect(bestPerPage(list, 1).map((x) => x.id)).toEqual(["a", "c", "d"]);
  });

  it("keeps up to n chunks per page when asked", () => {
    expect(bestPerPage(list, 2).map((x) => x.id)).toEqual(["a", "b", "c", "d"]);
  });
});

describe("the best-sentence ranking", () => {
  const CACHE = [
    "arXiv:2203.00009v1 [cs.DC] 9 Mar 2022\nCaching for Stream Processors\nEdsger Dijkstra\nAbstract\nWe add a cache. Throughput matters to us. Costs raise doubts. The cache is small. Throughput is reported.",
    "4 Results\nThe cluster ran eight nodes with shared disks. There, the cache raised throughput by 42 percent. Throughput was measured hourly. Memory use grew by a tenth.",
    "5 Limitations\nThe cluster was shared with other jobs. Network traffic was not isolated from the experiments.",
  ];
  let own: DbHandle;
  let dir: string;
  beforeAll(async () => {
    own = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-sentences-"));
    const ctx = createIngestContext(own, { dataDir: dir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
    const files = await Promise.all(
      [CACHE, ATTENTION, LORA].map(async (pages, i) => {
        const bytes = await makeTestPdf({ pages });
        return { name: `s-${i}.pdf`, size: bytes.byteLength, read: async () => bytes };
      }),
    );
    expect((await ingestFiles(files, ctx)).map((r) => r.status)).toEqual(["ingested", "ingested", "ingested"]);
  });
  afterAll(async () => {
    await own?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const q = "How much did the cache raise throughput?";
  const opts = { cutoff: 0, mmrAlpha: 1 } as const;

  it("puts first, for a question asking for a result, the page whose one sentence states it", async () => {
    // full text prefers the abstract (the words repeated, in separate sentences), vectors the results page: fused, a
    // tie that the order of the lists breaks for the abstract. The results page's one sentence holds all three words.
    const plain = await searchContent(own.db, q, embedder, { ...opts, weights: { sentence: 0 } });
    expect(plain[0]).toMatchObject({ paperId: "2203.00009v1", page: 1, sentence: null });
    expect(plain.find((r) => r.page === 1)?.fts?.rank).toBe(1);
    expect(plain.find((r) => r.page === 2)?.vector?.rank).toBe(1);
    const rs = await searchContent(own.db, q, embedder, opts);
    expect(rs[0]).toMatchObject({ paperId: "2203.00009v1", page: 2, sentence: { rank: 1 } });
    expect(rs[0]?.sentence?.score).toBeGreaterThan(rs.find((r) => r.page === 1)?.sentence?.score ?? 0);
  });

  it("can be asked for, or left out, whatever the question's kind; a word named like an object member is a word", async () => {
    const comparison = "Compare the cache with the memory use";
    const forced = await searchContent(own.db, comparison, embedder, { ...opts, sentenceRanking: true });
    expect(forced.some((r) => r.sentence !== null)).toBe(true);
    const off = await searchContent(own.db, q, embedder, { ...opts, sentenceRanking: false });
    expect(off.every((r) => r.sentence === null)).toBe(true);
    // "constructor" is in no passage: looked up in the positions, it must not find Object's own constructor
    const odd = await searchContent(own.db, "How much does the constructor raise throughput?", embedder, opts);
    expect(odd.length).toBeGreaterThan(0);
  });

  it("reads the positions Postgres stores as the term indexes of the passage's search text", async () => {
    const [row] = await getContentRows(own.db, {
      chunkUids: (await searchContent(own.db, q, embedder, opts)).slice(0, 1).map((r) => r.chunkUid),
      lexemes: ["cach", "throughput", "rais"],
      withPositions: true,
    });
    expect(row).toBeDefined();
    const [stored] = await own.db
      .select({ searchText: chunks.searchText })
      .from(chunks)
      .where(eq(chunks.chunkUid, row?.chunkUid ?? ""));
    const terms = (stored?.searchText ?? "").split(" ");
    for (const [lexeme, positions] of row?.positions ?? []) {
      expect(positions).toEqual(terms.flatMap((t, i) => (t === lexeme ? [i + 1] : [])));
    }
    expect(row?.positions.size).toBe(3);
  });

  it("is left out for comparisons, for full text or vectors alone, and for rows without their sentences", async () => {
    const comparison = await searchContent(own.db, "Compare the cache with the memory use", embedder, opts);
    expect(comparison.length).toBeGreaterThan(0);
    expect(comparison.every((r) => r.sentence === null)).toBe(true);
    for (const retriever of ["fts", "vector"] as const) {
      const rs = await searchContent(own.db, q, embedder, { ...opts, retriever });
      expect(rs.every((r) => r.sentence === null)).toBe(true);
    }
    // a library stored before the sentences were: ranked as before (the backfill fills them at the next start)
    await own.db.update(chunks).set({ sentenceEnds: null });
    noteContentChanged();
    const before = await searchContent(own.db, q, embedder, opts);
    expect(before[0]).toMatchObject({ page: 1, sentence: null });
  });
});

describe("wordsAbsentFromLibrary after the library grows", () => {
  let own: DbHandle;
  let dir: string;
  const ingest = async (pages: string[], name: string) => {
    const ctx = createIngestContext(own, { dataDir: dir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
    const bytes = await makeTestPdf({ pages });
    const [r] = await ingestFiles([{ name, size: bytes.byteLength, read: async () => bytes }], ctx);
    expect(r?.status).toBe("ingested");
  };
  beforeAll(async () => {
    own = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-absent-"));
    await ingest(ATTENTION, "a.pdf");
  });
  afterAll(async () => {
    await own?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("finds a word a new paper brought in, the frequencies it had cached notwithstanding", async () => {
    const asked = "Is scaled attention trained on neuromorphic Loihi chips?";
    // a search first: the statistics it keeps are where the frequencies are cached
    await searchContent(own.db, asked, embedder);
    expect((await wordsAbsentFromLibrary(own.db, asked)).absent).toEqual(["neuromorphic", "Loihi", "chips"]);
    await ingest(
      [
        "arXiv:2301.00004v1 [cs.NE] 4 Jan 2023\nSpiking Attention\nAlan Kay\nAbstract\nWe run attention on neuromorphic chips with spikes.",
      ],
      "b.pdf",
    );
    expect((await wordsAbsentFromLibrary(own.db, asked)).absent).toEqual(["Loihi"]);
  });

  it("respells to a new paper's word once the vocabulary is read again; until then searches use the one they have, and never a word the library no longer holds", async () => {
    const asked = "How is the metamatrial lens built?";
    // the library's vocabulary is read (no word is one slip from "metamatrial")
    expect(await searchedRespelled(own.db, asked)).toEqual([]);
    const pages = [
      "arXiv:2301.00005v1 [physics.optics] 5 Jan 2023\nFlat Optics\nAda Byron\nAbstract\nA metamaterial lens bends light in a layer thinner than its wavelength.",
      "2 Fabrication\nEach metamaterial cell is etched into silicon nitride with electron-beam lithography.",
      "3 Measurements\nThe focal spot of the metamaterial lens was imaged at three wavelengths.",
    ];
    await ingest(pages, "c.pdf");
    // the library changed: this search does not wait for the new read, it uses the vocabulary it has
    expect(await searchedRespelled(own.db, asked)).toEqual([]);
    await vocabularyRead(own.db, "chunks");
    expect(await searchedRespelled(own.db, asked)).toEqual([{ written: "metamatrial", searched: "metamaterial" }]);
    // the paper goes: the vocabulary in hand still has the word, but the search does not respell to it
    await deletePaper(own.db, { id: "2301.00005v1" });
    noteContentChanged();
    expect(await searchedRespelled(own.db, asked)).toEqual([]);
    await vocabularyRead(own.db, "chunks");
    expect(await searchedRespelled(own.db, asked)).toEqual([]);
  });

  it("respells a short misspelt word only to the word the library writes beside the query's neighbouring word", async () => {
    // "hed" is one slip from "head" and from "bed", both in the library on enough pages to be corrected to
    await ingest(
      [
        "arXiv:2301.00006v1 [cs.CL] 6 Jan 2023\nHeads and Beds\nAda Byron\nAbstract\nMulti head attention runs several heads side by side.",
        "2 Heads\nEach multi head layer projects the queries once per head, and a hospital bed count is our toy data.",
        "3 More heads\nThe multi head output is concatenated; hospital bed occupancy in the ward is predicted per head.",
        "4 Results\nWith eight heads the multi head model predicts hospital bed use best; a head of department checked each bed.",
      ],
      "d.pdf",
    );
    // (a search after the library changed starts the vocabulary's read again)
    await searchedRespelled(own.db, "multi-hed attention");
    await vocabularyRead(own.db, "chunks");
    // (as a word of the library with that term: "heads" is searched as "head")
    const searched = async (q: string) =>
      (await searchedRespelled(own.db, q)).map((r) => [r.written, termOf(r.searched.toLowerCase())]);
    expect(await searched("multi-hed attention")).toEqual([["hed", "head"]]);
    expect(await searched("hospital hed occupancy")).toEqual([["hed", "bed"]]);
    // alone, or beside a word the library never writes it with, a short word stays as typed
    expect(await searched("hed")).toEqual([]);
    expect(await searched("ward hed")).toEqual([]);
    const typo = await searchContent(own.db, "multi-hed attention", embedder, { retriever: "fts" });
    const right = await searchContent(own.db, "multi-head attention", embedder, { retriever: "fts" });
    expect(typo.map((r) => r.chunkUid)).toEqual(right.map((r) => r.chunkUid));
  });
});
