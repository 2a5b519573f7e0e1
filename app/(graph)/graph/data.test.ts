import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { listEntityNames } from "@/db/queries/graph-review";
import { pages, papers } from "@/db/schema";
import { createAppTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { buildGraph } from "@/lib/graph/build";
import { loadGraphOverview, searchEntity } from "./data";
import { entityPageName, graphQuery } from "./schema";

// What /graph loads, on a real database: the empty graph, then one built offline from a small paper.

let handle: DbHandle;

beforeAll(async () => {
  handle = await createAppTestDatabase();
});

afterAll(async () => {
  await handle?.close();
});

describe("/graph's data", () => {
  it("an empty graph: zero counts, no names, nothing to start from, and no entity by any name", async () => {
    expect(await loadGraphOverview(handle.db)).toEqual({
      summary: { entities: 0, edges: 0, papers: 0, review: 0, pendingSuggestions: 0 },
      names: [],
      starters: [],
      index: [],
    });
    expect(await searchEntity(handle.db, "BERT")).toEqual({ found: false, name: "BERT", suggestions: [] });
  });

  it("after a build: counts, names with their roots, an entity's edges both ways, close names for a typo", async () => {
    await handle.db.insert(papers).values({
      id: "2102.00001",
      docId: "d".repeat(64),
      title: "Frobnicator: Fast Widget Retrieval",
      filePath: "papers/x.pdf",
      fileName: "x.pdf",
      fileSize: 1,
      pageCount: 1,
      status: "ready",
      year: 2021,
    });
    await handle.db.insert(pages).values({
      paperId: "2102.00001",
      pageNumber: 1,
      text:
        "Frobnicator: Fast Widget Retrieval\nAbstract\nWe introduce a Dense Widget Retriever (DWR) for widget search. " +
        "Frobnicator outperforms WidgetNet by a wide margin on every benchmark we tried.\n" +
        "We evaluate Frobnicator on the WidgetQA dataset under the same setting as earlier work.",
    });
    await buildGraph(handle.db, { embedder: createHashingEmbedder({ dimensions: 16 }) });

    const overview = await loadGraphOverview(handle.db);
    expect(overview.summary.edges).toBeGreaterThanOrEqual(2);
    expect(overview.summary.papers).toBe(1);
    expect(overview.starters[0]).toBe("Frobnicator");
    expect(overview.names).toContainEqual({ name: "WidgetQA", type: "Dataset", rootName: "WidgetQA" });
    // the index: per type, the entities accepted edges touch, with their edges and papers
    expect(overview.index).toContainEqual({ name: "WidgetQA", type: "Dataset", edges: 1, papers: 1 });
    const frob = overview.index.find((e) => e.name === "Frobnicator");
    expect(frob?.edges).toBe(overview.index.filter((e) => e.name !== "Frobnicator").reduce((n, e) => n + e.edges, 0));
    expect(new Set(overview.index.map((e) => e.type)).size).toBeGreaterThanOrEqual(2);
    // suggestions are bounded: the names most papers mention, in name order
    const some = await listEntityNames(handle.db, { limit: 2 });
    expect(some).toHaveLength(2);
    expect(some.map((n) => n.name)).toEqual([...some.map((n) => n.name)].sort((a, b) => a.localeCompare(b)));

    const found = await searchEntity(handle.db, "widgetnet");
    if (!found.found) throw new Error("WidgetNet not found");
    expect(found.entity.name).toBe("WidgetNet");
    // WidgetNet is only a target: its edges come in
    expect(found.edges.map((e) => `${e.source.name} ${e.relation} ${e.target.name}`)).toEqual([
      "Frobnicator improves_on WidgetNet",
    ]);
    expect(found.edges[0]?.quote).toContain("Frobnicator outperforms WidgetNet");

    const typo = await searchEntity(handle.db, "Frobnicatr");
    expect(typo).toMatchObject({ found: false, name: "Frobnicatr" });
    expect(!typo.found && typo.suggestions.map((s) => s.name)).toContain("Frobnicator");
  });

  it("reads ?q= once, trimmed and bounded", () => {
    expect(graphQuery({ q: "  BERT " })).toBe("BERT");
    expect(graphQuery({ q: ["DPR", "BERT"] })).toBe("DPR");
    expect(graphQuery({})).toBe("");
    expect(graphQuery({ q: "x".repeat(500) })).toHaveLength(200);
  });

  it("a name with a NUL or another control character is no entity, not a failed query (both addresses)", async () => {
    // the database refuses a NUL in a text parameter: unfiltered, /graph?q=%00 was a 500
    await expect(searchEntity(handle.db, "a\u0000b")).rejects.toThrow();
    for (const q of [graphQuery({ q: "\u0000" }), graphQuery({ q: "Frob\u0000nicator\n" }), entityPageName("%00")]) {
      expect(q).not.toMatch(/\p{Cc}/u);
      expect(await searchEntity(handle.db, q)).toMatchObject({ found: false });
    }
    expect(entityPageName("%00")).toBe("");
  });

  it("reads /graph/entity/<name> decoded once: slashes, percent signs, unicode, a malformed escape, 10 kB", () => {
    expect(entityPageName(encodeURIComponent("TCP/IP"))).toBe("TCP/IP");
    expect(entityPageName(encodeURIComponent("100% recall"))).toBe("100% recall");
    expect(entityPageName(encodeURIComponent("a%20b"))).toBe("a%20b");
    expect(entityPageName(encodeURIComponent("Ünïcode – 模型"))).toBe("Ünïcode – 模型");
    expect(entityPageName("100%")).toBe("100%");
    expect(entityPageName("%E0%A4%A")).toBe("%E0%A4%A");
    expect(entityPageName("x".repeat(10_000))).toHaveLength(200);
    expect(entityPageName("%20")).toBe("");
  });
});
