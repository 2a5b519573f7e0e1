import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MockLanguageModelV4 } from "ai/test";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { chunks, pages, papers, summaries, summaryChunks } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { reembedLibrary } from "@/lib/embeddings/guard";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { listEdges } from "@/lib/graph/query";
import { removePaper } from "@/lib/library/remove";
import { searchContent } from "@/lib/search/search";
import { makeImageOnlyPdf, makeTestPdf } from "@/lib/testing/pdf";
import { createIngestContext, type IngestContext, ingestFiles } from "./pipeline";
import type { IngestInput, IngestProgressEvent } from "./progress";

const PAGE_1 = [
  "arXiv:2401.01234v2 [cs.CL] 5 Jan 2024",
  "Sparse Retrieval for Long Scientific Documents",
  "Ada Lovelace, Alan Turing",
  "Abstract",
  "We study retrieval over long scientific documents and show that page-level chunking improves recall of cited evidence by a wide margin.",
  "1 Introduction",
  "Researchers ask questions whose answers hide in a single page of a long paper.",
].join("\n");
const PAGE_2 =
  "2 Hybrid Retrieval\nThe hybrid retriever fuses lexical and dense rankings with reciprocal rank fusion. On our benchmark the fused ranking reaches a recall at five of 0.81 while the lexical ranking alone reaches 0.62. Diversification with maximal marginal relevance removes near-duplicate passages from the top results.";
const PAGE_3 =
  "3 Conclusion\nPage-aware chunking with exact character offsets lets every citation open the PDF at the right page with the passage highlighted.";

function input(name: string, bytes: Uint8Array): IngestInput {
  return { name, size: bytes.byteLength, read: async () => bytes };
}

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
let paperPdf: Uint8Array;

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-ingest-"));
  ctx = createIngestContext(handle, {
    dataDir,
    maxUploadBytes: 5 * 1024 * 1024,
    embedder: createHashingEmbedder({ dimensions: 512 }),
    chatModel: null,
  });
  paperPdf = await makeTestPdf({
    pages: [PAGE_1, PAGE_2, PAGE_3],
    title: "Sparse Retrieval for Long Scientific Documents",
  });
});

afterAll(async () => {
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("ingestFiles", () => {
  it("ingests a PDF: paper, pages, exact chunks, summary index, vectors and full text", async () => {
    const events: IngestProgressEvent[] = [];
    const [r] = await ingestFiles([input("some/folder/paper.pdf", paperPdf)], ctx, {
      onProgress: (e) => events.push(e),
    });
    expect(r).toMatchObject({ status: "ingested", paper_id: "2401.01234v2", pages: 3, error: null });
    expect(r?.chunks).toBeGreaterThanOrEqual(3);
    expect(events[0]).toMatchObject({ type: "file_start", index: 0, total: 1 });
    // the file, then the library step: the new vectors' hubness (this embedder's vectors came with the file), then
    // the knowledge graph of the new paper
    const library = events.findLast((e) => e.type === "library_done" || e.type === "library_error");
    expect(events.at(-1)).toMatchObject({ type: "graph_done", papers: 1 });
    expect(library).toMatchObject({ type: "library_done", embedded: 0 });
    expect(library?.type === "library_done" && library.neighbours).toBeGreaterThanOrEqual(r?.chunks ?? 1);
    expect(events.findLastIndex((e) => e.type === "file_done")).toBeLessThan(
      events.findIndex((e) => e.type === "library_done"),
    );
    const stages = new Set(events.flatMap((e) => (e.type === "file_stage" ? [e.stage] : [])));
    expect([...stages]).toEqual(["validating", "extracting", "chunking", "summarizing", "embedding", "saving"]);

    const db = handle.db;
    const [paper] = await db.select().from(papers).where(eq(papers.id, "2401.01234v2"));
    expect(paper).toMatchObject({ arxivId: "2401.01234v2", pageCount: 3, status: "ready", year: 2024 });
    expect(paper?.fileName).toBe("paper.pdf");
    expect(paper?.categories).toContain("cs.CL");
    expect(fs.existsSync(path.join(dataDir, paper?.filePath ?? "missing"))).toBe(true);

    const pageRows = await db.select().from(pages).where(eq(pages.paperId, "2401.01234v2")).orderBy(pages.pageNumber);
    expect(pageRows.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(pageRows[1]?.text).toContain("reciprocal rank fusion");

    const chunkRows = await db.select().from(chunks).where(eq(chunks.paperId, "2401.01234v2"));
    for (const c of chunkRows) {
      const pageText = pageRows.find((p) => p.pageNumber === c.pageNumber)?.text ?? "";
      expect(pageText.slice(c.charStart, c.charEnd)).toBe(c.text);
      expect(c.embedding).toHaveLength(512);
    }
    // each chunk knows the section most of its text is in; the first page's is mostly its abstract (the title above
    // it is in no section)
    expect(
      chunkRows.sort((a, b) => a.pageNumber - b.pageNumber || a.chunkIndex - b.chunkIndex).map((c) => c.section),
    ).toEqual(["Abstract", "2 Hybrid Retrieval", "3 Conclusion"]);
    const fts = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from chunks where tsv @@ to_tsquery('simple', 'reciprocal & rank & fusion')`,
    );
    expect(fts[0]?.n).toBe(1);

    const [summary] = await db.select().from(summaries).where(eq(summaries.paperId, "2401.01234v2"));
    expect(summary?.method).toBe("extractive");
    const passages = await db.select().from(summaryChunks).where(eq(summaryChunks.paperId, "2401.01234v2"));
    expect(passages.length).toBeGreaterThan(0);
    for (const p of passages) expect(summary?.text.slice(p.charStart, p.charEnd)).toBe(p.text);
  });

  it("treats the same bytes again as a no-op", async () => {
    const [r] = await ingestFiles([input("copy-of-paper.pdf", paperPdf)], ctx);
    expect(r).toMatchObject({ status: "unchanged", paper_id: "2401.01234v2", pages: 3 });
    const n = await handle.db.select({ n: sql<number>`count(*)::int` }).from(papers);
    expect(n[0]?.n).toBe(1);
  });

  it("ingests the same bytes once when they come twice in one batch, also with extraction running ahead", async () => {
    const pdf = await makeTestPdf({ pages: ["Twice In One Batch\nAbstract\nThe same file was dropped twice."] });
    const results = await ingestFiles([input("a.pdf", pdf), input("b.pdf", pdf)], { ...ctx, lookahead: 2 });
    expect(results.map((r) => r.status)).toEqual(["ingested", "unchanged"]);
    expect(results[1]?.paper_id).toBe(results[0]?.paper_id);
    const removal = await removePaper(ctx, results[0]?.paper_id ?? "");
    expect(removal).not.toBeNull();
    await removal?.vectors;
  });

  it("replaces a paper with the same id and different bytes, in one go", async () => {
    const [before] = await handle.db.select().from(papers).where(eq(papers.id, "2401.01234v2"));
    const revised = await makeTestPdf({ pages: [PAGE_1, `${PAGE_2} A revised sentence about calibration.`] });
    const [r] = await ingestFiles([input("paper-v2.pdf", revised)], ctx);
    expect(r).toMatchObject({ status: "replaced", paper_id: "2401.01234v2", pages: 2 });
    const pageRows = await handle.db.select().from(pages).where(eq(pages.paperId, "2401.01234v2"));
    expect(pageRows).toHaveLength(2);
    const old = await handle.db.select().from(chunks).where(eq(chunks.pageNumber, 3));
    expect(old).toHaveLength(0);
    expect(fs.existsSync(path.join(dataDir, before?.filePath ?? "x"))).toBe(false);
  });

  it("reports each bad file with a clear message and still ingests the rest of the batch", async () => {
    const good = await makeTestPdf({
      pages: [
        "Graph Neural Networks for Molecules\nGrace Hopper\nAbstract\nMessage passing predicts molecular properties well.",
      ],
    });
    const corrupt = paperPdf.slice(0, Math.floor(paperPdf.byteLength / 3));
    const encrypted = new Uint8Array(fs.readFileSync(path.join(__dirname, "../testing/fixtures/encrypted.pdf")));
    const results = await ingestFiles(
      [
        input("empty.pdf", new Uint8Array()),
        input("notes.pdf", new TextEncoder().encode("just some notes, not a pdf")),
        input("corrupt.pdf", corrupt),
        input("locked.pdf", encrypted),
        input("scan.pdf", await makeImageOnlyPdf(2)),
        input("good.pdf", good),
      ],
      ctx,
    );
    expect(results.map((r) => r.status)).toEqual(["error", "error", "error", "error", "error", "ingested"]);
    expect(results[0]?.error).toMatch(/empty/i);
    expect(results[1]?.error).toMatch(/not a PDF/i);
    expect(results[2]?.error).toMatch(/corrupt|unreadable/i);
    expect(results[3]?.error).toMatch(/encrypted|password/i);
    expect(results[4]?.error).toMatch(/no text layer/i);
    for (const r of results.slice(0, 5)) expect(r.error_code).toBe("bad_request:pdf");
    expect(fs.readdirSync(path.join(dataDir, "pdfs"))).toHaveLength(2); // only the two good papers' files
  });

  it("rejects a file over the size limit before reading it", async () => {
    let read = false;
    const big: IngestInput = {
      name: "huge.pdf",
      size: 50 * 1024 * 1024,
      read: async () => {
        read = true;
        return paperPdf;
      },
    };
    const [r] = await ingestFiles([big], ctx);
    expect(r?.status).toBe("error");
    expect(r?.error).toMatch(/LECTERN_MAX_UPLOAD_MB/);
    expect(read).toBe(false);
  });

  it("leaves nothing behind when a file fails midway (embedder error, database error)", async () => {
    const countAll = async () => {
      const r = await queryRows<{ n: number }>(
        handle.db,
        sql`select (select count(*) from papers) + (select count(*) from pages) + (select count(*) from chunks) + (select count(*) from summary_chunks) as n`,
      );
      return Number(r[0]?.n);
    };
    const before = await countAll();
    const filesBefore = fs.readdirSync(path.join(dataDir, "pdfs")).length;
    const pdf = await makeTestPdf({ pages: ["Failure Modes\nAbstract\nWe describe how systems fail midway.", PAGE_2] });

    const base = ctx.embedder;
    let calls = 0;
    const failing: EmbeddingProvider = {
      ...base,
      kind: base.kind,
      model: base.model,
      dimensions: base.dimensions,
      embed: async (texts) => {
        if (++calls > 0) throw new Error("embedding service went away");
        return base.embed(texts);
      },
    };
    const [a] = await ingestFiles([input("fail-embed.pdf", pdf)], { ...ctx, embedder: failing });
    expect(a?.status).toBe("error");
    expect(a?.error).toMatch(/embedding service went away/);

    // wrong-length vectors make the chunk insert fail inside the transaction, after the paper and pages rows
    const wrongDims: EmbeddingProvider = {
      ...base,
      kind: base.kind,
      model: base.model,
      dimensions: base.dimensions,
      embed: async (texts) => texts.map(() => new Array(7).fill(0.1)),
    };
    const [b] = await ingestFiles([input("fail-db.pdf", pdf)], { ...ctx, embedder: wrongDims });
    expect(b?.status).toBe("error");
    expect(await countAll()).toBe(before);
    expect(fs.readdirSync(path.join(dataDir, "pdfs")).length).toBe(filesBefore);
  });

  it("refuses to mix embedders, and re-embedding switches the library over", async () => {
    const other: EmbeddingProvider = {
      kind: "openai",
      model: "fake-embedding-model",
      dimensions: 256,
      embed: async (texts) => createHashingEmbedder({ dimensions: 256 }).embed(texts),
    };
    const pdf = await makeTestPdf({
      pages: ["Mixing Embedders\nAbstract\nVectors from two models cannot be compared."],
    });
    await expect(ingestFiles([input("mix.pdf", pdf)], { ...ctx, embedder: other })).rejects.toThrow(/reembed/);

    const res = await reembedLibrary(handle.db, other);
    expect(res.resized).toBe(true);
    expect(res.chunks).toBeGreaterThan(0);
    const dims = await queryRows<{ d: number }>(handle.db, sql`select vector_dims(embedding) as d from chunks limit 1`);
    expect(Number(dims[0]?.d)).toBe(256);
    // the HNSW indexes are rebuilt for the new width, and vector search uses them
    const defs = await queryRows<{ def: string }>(
      handle.db,
      sql`select indexdef as def from pg_indexes where indexname in ('chunks_embedding_hnsw', 'summary_chunks_embedding_hnsw')`,
    );
    expect(defs).toHaveLength(2);
    for (const d of defs) {
      expect(d.def).toMatch(
        handle.driver === "pglite" ? /vector_cosine_ops.*m='32'/ : /halfvec\(256\)\) halfvec_cosine_ops.*m='32'/,
      );
    }
    const [r] = await ingestFiles([input("mix.pdf", pdf)], { ...ctx, embedder: other });
    expect(r?.status).toBe("ingested");
    const found = await searchContent(handle.db, "vectors from two models cannot be compared", other, {
      retriever: "vector",
      cutoff: 0,
    });
    expect(found.length).toBeGreaterThan(0);
    // and back, so later tests keep the default embedder
    await reembedLibrary(handle.db, ctx.embedder);
  });

  it("summarises with the configured model, and falls back to the extractive summary when the model fails", async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const working = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: "text", text: "The paper studies model summaries.\n\n- Models can summarise (p. 1)" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      }),
    });
    const failing = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error("model server unreachable");
      },
    });
    const a = await makeTestPdf({ pages: ["Model Summaries\nAbstract\nWe let a language model summarise papers."] });
    const b = await makeTestPdf({
      pages: ["Fallback Summaries\nAbstract\nWhen the model fails the extractive summary is used."],
    });
    const [ra] = await ingestFiles([input("llm.pdf", a)], { ...ctx, chatModel: working });
    const [rb] = await ingestFiles([input("fallback.pdf", b)], { ...ctx, chatModel: failing });
    const [sa] = await handle.db
      .select()
      .from(summaries)
      .where(eq(summaries.paperId, ra?.paper_id ?? ""));
    const [sb] = await handle.db
      .select()
      .from(summaries)
      .where(eq(summaries.paperId, rb?.paper_id ?? ""));
    expect(sa).toMatchObject({ method: "llm", model: "mock-model-id" });
    expect(sa?.text).toContain("Models can summarise (p. 1)");
    expect(rb?.status).toBe("ingested");
    expect(sb).toMatchObject({ method: "extractive", model: null });
  });

  it("builds the knowledge graph with the configured model, and with the rules when the model answers nothing", async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const quote = "Zorbnet outperforms Quillnet on the Marble benchmark by nine points.";
    // a model that extracts the one relation it is shown (graph prompts carry the page markers), and summarises
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        const prompt = JSON.stringify(options.prompt);
        const text = prompt.includes("[page ")
          ? JSON.stringify({
              entities: [],
              relations: prompt.includes("Zorbnet outperforms")
                ? [
                    {
                      relation: "improves_on",
                      source: "Zorbnet",
                      source_type: "Method",
                      target: "Quillnet",
                      target_type: "Method",
                      page: 1,
                      quote,
                      confidence: 0.9,
                    },
                  ]
                : [],
            })
          : "A summary.";
        return {
          content: [{ type: "text", text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      },
    });
    const failing = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error("model server unreachable");
      },
    });
    const a = await makeTestPdf({ pages: [`Zorbnet: Ranking Widgets\nAbstract\nWe propose Zorbnet. ${quote}`] });
    const b = await makeTestPdf({
      pages: [
        "Glimmer: Sorting Widgets\nAbstract\nWe propose Glimmer. Glimmer outperforms Sortnet on every widget set.",
      ],
    });
    const [ra] = await ingestFiles([input("graph-model.pdf", a)], { ...ctx, chatModel: model });
    const [rb] = await ingestFiles([input("graph-fallback.pdf", b)], { ...ctx, chatModel: failing });
    const edgesOf = async (paperId: string) =>
      (await listEdges(handle.db, { includeReview: true })).filter((e) => e.paper_id === paperId);
    const byModel = await edgesOf(ra?.paper_id ?? "");
    expect(byModel).toEqual([expect.objectContaining({ relation: "improves_on", extractor: "mock-model-id", quote })]);
    const byRules = await edgesOf(rb?.paper_id ?? "");
    expect(byRules.some((e) => e.source.name === "Glimmer" && e.target.name === "Sortnet")).toBe(true);
    expect(byRules.every((e) => e.extractor === "rules")).toBe(true);
  });

  it("says the database is not available only when its connection is lost or refused", async () => {
    // a database whose every call fails the same way (the first one reads the library's embedding settings)
    const failing = (err: Error) =>
      new Proxy(
        {},
        {
          get: () => () => {
            throw err;
          },
        },
      ) as typeof ctx.db;
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    await expect(ingestFiles([], { ...ctx, db: failing(refused) })).rejects.toMatchObject({
      code: "unavailable:database",
      message: "The database is not available: connect ECONNREFUSED 127.0.0.1:5432",
    });
    const bug = Object.assign(new Error('column "signature" does not exist'), { code: "42703" });
    const err = await ingestFiles([], { ...ctx, db: failing(bug) }).catch((e: unknown) => e);
    expect(err).toBe(bug);
  });

  it("removes a paper with everything that belongs to it, and its file", async () => {
    const [paper] = await handle.db.select().from(papers).where(eq(papers.id, "2401.01234v2"));
    const removal = await removePaper(ctx, "2401.01234v2");
    expect(removal).not.toBeNull();
    await removal?.vectors;
    expect(await handle.db.select().from(chunks).where(eq(chunks.paperId, "2401.01234v2"))).toHaveLength(0);
    expect(await handle.db.select().from(summaryChunks).where(eq(summaryChunks.paperId, "2401.01234v2"))).toHaveLength(
      0,
    );
    expect(fs.existsSync(path.join(dataDir, paper?.filePath ?? "x"))).toBe(false);
    expect(await removePaper(ctx, "2401.01234v2")).toBeNull();
  });
});
