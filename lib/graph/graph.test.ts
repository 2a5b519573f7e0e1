import { MockLanguageModelV4 } from "ai/test";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import {
  getEntityByCanonical,
  listEdgesWithPages,
  listPapersNeedingGraph,
  pruneOrphanEntities,
  setEdgeStatus,
  unlinkAlias,
} from "@/db/queries/graph";
import { deletePaper } from "@/db/queries/papers";
import { graphEdges, graphEntities, pages, papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { buildGraph, buildPendingGraph } from "./build";
import { coOccurring, evaluatedOn, graphStats, improvesOn, lookupEntity, queryRelation, usesOrExtends } from "./query";

/**
 * The graph on a real database (PGlite, or PostgreSQL with DATABASE_URL): papers written as rows, built offline,
 * queried; a replaced paper's edges replaced, a deleted one's gone with its orphan entities; a model's malformed
 * output counted and never written.
 */

const PAPERS: Record<string, { title: string; pages: string[] }> = {
  "2001.00001": {
    title: "Frobnicator: Fast Widget Retrieval",
    pages: [
      "Frobnicator: Fast Widget Retrieval\nAbstract\nWe introduce a Dense Widget Retriever (DWR) for widget search. " +
        "Frobnicator outperforms Lucene-BM25 and WidgetNet by a wide margin on every benchmark we tried.",
      "2 Method\nWe use the Adam optimizer with a small learning rate for all of our experiments in this work.\n" +
        "We evaluate Frobnicator on the WidgetQA dataset under the same setting as earlier work.",
    ],
  },
  "2001.00002": {
    title: "Gizmotron: Better Widget Retrieval",
    pages: [
      "Gizmotron: Better Widget Retrieval\nAbstract\nGizmotron outperforms Frobnicator on every widget benchmark we " +
        "tried.\nGizmotron extends WidgetNet with a second stage of careful ranking.",
    ],
  },
  "2001.00003": {
    title: "A Note on Widgets",
    pages: ["A note on widgets.\nThis short note makes no claims of any kind about any of the methods it mentions."],
  },
};

let handle: DbHandle;
const embedder = createHashingEmbedder({ dimensions: 16 });

async function addPaper(id: string, docId: string, p: { title: string; pages: string[] }) {
  await handle.db.insert(papers).values({
    id,
    docId,
    title: p.title,
    filePath: `papers/${docId}.pdf`,
    fileName: `${id}.pdf`,
    fileSize: 1,
    pageCount: p.pages.length,
    status: "ready",
    year: 2020,
  });
  await handle.db.insert(pages).values(p.pages.map((text, i) => ({ paperId: id, pageNumber: i + 1, text })));
}

beforeAll(async () => {
  handle = await createTestDatabase();
  for (const [i, [id, p]] of Object.entries(PAPERS).entries()) await addPaper(id, String(i).padStart(64, "a"), p);
});

afterAll(async () => {
  await handle?.close();
});

describe("buildGraph (offline) and its queries", () => {
  it("builds every ready paper, quotes on their pages at their offsets", async () => {
    expect(await listPapersNeedingGraph(handle.db)).toHaveLength(3);
    const report = await buildGraph(handle.db, { embedder });
    expect(report.papers).toBe(3);
    expect(report.failed).toEqual([]);
    expect(report.accepted).toBeGreaterThanOrEqual(4);
    expect(await listPapersNeedingGraph(handle.db)).toEqual([]);
    const edges = await listEdgesWithPages(handle.db, { statuses: ["accepted", "review"] });
    for (const e of edges) expect(e.pageText?.slice(e.charStart, e.charEnd)).toBe(e.quote);
    // the paper without claims has none, and that is fine
    expect(edges.some((e) => e.paperId === "2001.00003")).toBe(false);
  });

  it("answers who improves on X, directly and transitively with the path", async () => {
    const direct = await improvesOn(handle.db, "widgetnet");
    expect(direct.found && direct.edges.map((e) => e.source.name)).toEqual(["Frobnicator"]);
    const transitive = await improvesOn(handle.db, "WidgetNet", { transitive: true });
    if (!transitive.found) throw new Error("not found");
    const viaFrob = transitive.edges.find((e) => e.source.name === "Gizmotron");
    expect(viaFrob?.path).toEqual(["Gizmotron", "Frobnicator", "WidgetNet"]);
    expect(viaFrob?.depth).toBe(2);
    expect(viaFrob?.paper_id).toBe("2001.00002");
  });

  it("answers uses/extends, evaluated on, co-occurrence and entity lookups", async () => {
    const uses = await usesOrExtends(handle.db, "Gizmotron");
    expect(uses.found && uses.edges.map((e) => `${e.relation} ${e.target.name}`)).toContain("extends WidgetNet");
    const evaluated = await evaluatedOn(handle.db, "WidgetQA");
    expect(evaluated.found && evaluated.edges[0]?.source.name).toBe("Frobnicator");
    expect(evaluated.found && evaluated.edges[0]?.target.type).toBe("Dataset");
    const co = await coOccurring(handle.db, "Frobnicator");
    expect(co.found && co.cooccurring.map((c) => c.name)).toContain("WidgetNet");
    const entity = await lookupEntity(handle.db, "Frobnicator");
    if (!entity.found) throw new Error("not found");
    expect(entity.relations.map((r) => `${r.relation}:${r.direction}`)).toEqual(
      expect.arrayContaining(["improves_on:out", "improves_on:in", "uses:out", "evaluates_on:out"]),
    );
    const stats = await graphStats(handle.db);
    expect(stats.totals.accepted).toBeGreaterThanOrEqual(4);
  });

  it("links an acronym the paper defines to its long form (tier A), resolved when read; splitting is reversible", async () => {
    const long = await getEntityByCanonical(handle.db, { canonicalName: "dense widget retriever" });
    const short = await getEntityByCanonical(handle.db, { canonicalName: "dwr" });
    expect(long?.aliasOf).toBe(short?.id);
    expect(long?.aliasTier).toBe("A");
    const viaLong = await lookupEntity(handle.db, "Dense Widget Retriever");
    expect(viaLong.found && viaLong.entity.name).toBe("DWR");
    expect(await unlinkAlias(handle.db, { entityId: long?.id ?? -1 })).toBe(true);
    const apart = await lookupEntity(handle.db, "Dense Widget Retriever");
    expect(apart.found && apart.entity.name).toBe("Dense Widget Retriever");
    // a rebuild does not link a pair a person split
    await buildGraph(handle.db, { paperIds: ["2001.00001"] });
    expect((await getEntityByCanonical(handle.db, { canonicalName: "dense widget retriever" }))?.aliasOf).toBeNull();
  });

  it("says “no entity named …” with close names for an unknown name", async () => {
    const r = await lookupEntity(handle.db, "Frobnicatr");
    expect(r.found).toBe(false);
    if (r.found) return;
    expect(r.message).toMatch(/^No entity named “Frobnicatr”\. Did you mean “Frobnicator”/);
    expect(r.suggestions[0]?.name).toBe("Frobnicator");
    const none = await queryRelation(handle.db, { relation: "improves_on", target: "zzzz qqqq" });
    expect(none).toMatchObject({ found: false, suggestions: [] });
  });

  it("writes a name stored broken at a hyphen (by an older build) whole again when it rebuilds", async () => {
    await handle.db
      .update(graphEntities)
      .set({ name: "Lucene- BM25" })
      .where(eq(graphEntities.canonicalName, "lucene bm25"));
    await buildGraph(handle.db, { paperIds: ["2001.00001"] });
    expect((await getEntityByCanonical(handle.db, { canonicalName: "lucene bm25" }))?.name).toBe("Lucene-BM25");
  });

  it("keeps review decisions across a rebuild, replaces a replaced paper's edges, and drops a deleted paper's", async () => {
    const [edge] = await handle.db.select().from(graphEdges).where(eq(graphEdges.paperId, "2001.00002")).limit(1);
    if (!edge) throw new Error("no edge");
    await setEdgeStatus(handle.db, { id: edge.id, status: "rejected", reason: "wrong direction" });
    await buildGraph(handle.db, { paperIds: ["2001.00002"] });
    const [again] = await handle.db
      .select()
      .from(graphEdges)
      .where(
        sql`${graphEdges.paperId} = '2001.00002' and ${graphEdges.charStart} = ${edge.charStart} and ${graphEdges.relation} = ${edge.relation}`,
      );
    expect(again?.status).toBe("rejected");

    // a new version of paper 2: its pages change and its doc_id too, so the library step rebuilds it alone
    await handle.db
      .update(papers)
      .set({ docId: "f".repeat(64) })
      .where(eq(papers.id, "2001.00002"));
    await handle.db
      .update(pages)
      .set({
        text: "Gizmotron: Better Widget Retrieval\nGizmotron outperforms SprocketNet on every widget benchmark we tried.",
      })
      .where(eq(pages.paperId, "2001.00002"));
    expect(await listPapersNeedingGraph(handle.db)).toEqual(["2001.00002"]);
    const r = await buildPendingGraph(handle.db, {});
    expect(r?.papers).toBe(1);
    const giz = await usesOrExtends(handle.db, "Gizmotron");
    expect(giz.found && giz.edges).toEqual([]);
    expect((await improvesOn(handle.db, "SprocketNet")).found).toBe(true);
    expect(await buildPendingGraph(handle.db, {})).toBeNull();

    // deleting paper 1: its edges go (cascade) and its entities no other edge uses are pruned
    await deletePaper(handle.db, { id: "2001.00001" });
    await pruneOrphanEntities(handle.db);
    expect((await lookupEntity(handle.db, "WidgetQA")).found).toBe(false);
    expect((await lookupEntity(handle.db, "Gizmotron")).found).toBe(true);
    const orphans = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from graph_entities e where not exists
            (select 1 from graph_edges g where g.source_id = e.id or g.target_id = e.id) and e.alias_of is null
            and not exists (select 1 from graph_entities c where c.alias_of = e.id)`,
    );
    expect(Number(orphans[0]?.n)).toBe(0);
  });

  it("unlinking an entity that is no alias changes nothing", async () => {
    const e = await getEntityByCanonical(handle.db, { canonicalName: "gizmotron" });
    expect(await unlinkAlias(handle.db, { entityId: e?.id ?? -1 })).toBe(false);
  });
});

describe("buildGraph with a model", () => {
  it("validates the model's output: malformed items and quotes not on the page are counted, never written", async () => {
    await addPaper("2001.00009", "9".repeat(64), {
      title: "Widgetron: Widgets Again",
      pages: ["Widgetron: Widgets Again\nWidgetron outperforms Gizmotron on the widget benchmark by a wide margin."],
    });
    const text = JSON.stringify({
      relations: [
        {
          relation: "improves_on",
          source: "Widgetron",
          source_type: "Method",
          target: "Gizmotron",
          target_type: "Method",
          page: 1,
          quote: "Widgetron outperforms Gizmotron on the widget benchmark",
          confidence: 0.9,
        },
        {
          relation: "improves_on",
          source: "Widgetron",
          source_type: "Method",
          target: "GPT-9",
          target_type: "Method",
          page: 1,
          quote: "Widgetron outperforms GPT-9 everywhere", // not on the page
          confidence: 0.95,
        },
        { relation: "improves_on", source: 42 }, // malformed
      ],
    });
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      }),
    });
    const r = await buildGraph(handle.db, { paperIds: ["2001.00009"], model, modelName: "mock-model" });
    expect(r.extractor).toBe("mock-model");
    expect(r.malformed).toBeGreaterThanOrEqual(1);
    expect(r.rejected.quote_not_on_page).toBeGreaterThanOrEqual(1);
    expect(r.accepted).toBe(1);
    const better = await improvesOn(handle.db, "Gizmotron");
    expect(better.found && better.edges.map((e) => [e.source.name, e.extractor])).toEqual([
      ["Widgetron", "mock-model"],
    ]);
    expect((await lookupEntity(handle.db, "GPT-9")).found).toBe(false);
  });
});
