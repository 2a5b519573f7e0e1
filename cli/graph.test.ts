import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages, papers } from "@/db/schema";
import { type CliLibrary, cli, openCliLibrary } from "./testing";

/**
 * `npm run cli -- graph …` over a fresh library (a PGlite directory, or a new database on DATABASE_URL's server):
 * build, query with the JSON shape, entity lookups (an unknown name with suggestions), stats, bad input.
 */

let lib: CliLibrary | undefined;

beforeAll(async () => {
  lib = await openCliLibrary("graph", () => ({ LECTERN_EMBEDDING_PROVIDER: "hashing" }));
  // the commands and this setup share one open library (cli/testing.ts: holdLibrary)
  const { db } = lib.handle;
  const rows = [
    [
      "2101.00001",
      "Frobnicator: Fast Widgets",
      "Frobnicator outperforms WidgetNet and BERT on every widget benchmark we tried.",
    ],
    [
      "2101.00002",
      "Gizmotron: Faster Widgets",
      "Gizmotron outperforms Frobnicator on every widget benchmark we tried so far.",
    ],
  ];
  for (const [i, [id, title, text]] of rows.entries()) {
    await db.insert(papers).values({
      id: id as string,
      docId: String(i).padStart(64, "b"),
      title: title as string,
      filePath: `papers/${i}.pdf`,
      fileName: `${i}.pdf`,
      fileSize: 1,
      pageCount: 1,
      status: "ready",
    });
    await db.insert(pages).values({ paperId: id as string, pageNumber: 1, text: `${title}\n${text}` });
  }
}, 180_000);

afterAll(() => lib?.close());

describe("cli graph", () => {
  it("builds, printing progress on stderr and counts as JSON on stdout", async () => {
    const r = await cli("graph", "build", "--json");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Building the knowledge graph \(offline rules\)/);
    const out = JSON.parse(r.stdout);
    expect(out.report.papers).toBe(2);
    expect(out.stats.totals.accepted).toBeGreaterThanOrEqual(3);
  });

  it("answers a query in the issue's shape, best first, and transitively with the path", async () => {
    const r = await cli("graph", "query", "--relation", "improves_on", "--target", "WidgetNet", "--json");
    expect(r.code).toBe(0);
    const edges = JSON.parse(r.stdout);
    expect(edges).toEqual([
      {
        relation: "improves_on",
        source: { name: "Frobnicator", type: "Method" },
        target: { name: "WidgetNet", type: "Method" },
        paper_id: "2101.00001",
        page: 1,
        quote: "Frobnicator outperforms WidgetNet and BERT on every widget benchmark we tried.",
        confidence: expect.any(Number),
      },
    ]);
    const t = await cli("graph", "query", "--relation", "improves_on", "--target", "BERT", "--transitive", "--json");
    const chain = JSON.parse(t.stdout) as { source: { name: string }; path: string[] }[];
    expect(chain.map((e) => e.source.name)).toEqual(["Frobnicator", "Gizmotron"]);
    expect(chain[1]?.path).toEqual(["Gizmotron", "Frobnicator", "BERT"]);
  });

  it("looks an entity up, and says which names are close when there is none", async () => {
    const ok = await cli("graph", "entity", "frobnicator", "--json");
    expect(ok.code).toBe(0);
    const entity = JSON.parse(ok.stdout);
    expect(entity.entity.name).toBe("Frobnicator");
    expect(
      entity.relations.map((r: { relation: string; direction: string }) => `${r.relation}:${r.direction}`),
    ).toEqual(["improves_on:out", "improves_on:in"]);
    const missing = await cli("graph", "entity", "Frobnicatorr");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No entity named “Frobnicatorr”\. Did you mean “Frobnicator”/);
    const json = await cli("graph", "query", "--relation", "uses", "--source", "Nothing Like It", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error.code).toBe("not_found:entity");
  });

  it("prints stats, and refuses bad input with a message", async () => {
    const s = await cli("graph", "stats", "--json");
    expect(JSON.parse(s.stdout).totals.edges).toBeGreaterThanOrEqual(3);
    const bad = await cli("graph", "query", "--relation", "loves", "--target", "BERT");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--relation is one of improves_on/);
    const both = await cli("graph", "query", "--target", "BERT", "--source", "X");
    expect(both.code).toBe(1);
    expect((await cli("graph")).code).toBe(2);
  });
});
