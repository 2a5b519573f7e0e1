import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPapers } from "@/db/queries/papers";
import { graphStats } from "@/lib/graph/query";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { deepRunner } from "./deep/run";
import { RELATIONS_HEADING, relationsStep } from "./deep/steps/relations";
import type { ResearchDeps } from "./deps";
import { runResearch } from "./orchestrator";
import { composeGraphSection, eachInTurn, relatesApart } from "./steps/graph-search";
import { mockModel, sourcesInPrompt, testResearchDeps, testStepContext } from "./testing";
import type { ResearchEvent, StepOf } from "./types";

/**
 * The graph_search step in a real run: papers ingested from PDFs (the graph is built by ingestion, offline), a
 * lineage question answered from the graph's edges with their quotes cited and verified like passages; an unknown
 * name reported with close names; a question of another kind has no graph step.
 */

const FROB = [
  "arXiv:2001.00001v1 [cs.IR] 2 Jan 2020\nFrobnicator: Fast Widget Retrieval\nAda Lovelace\nAbstract\nWe propose Frobnicator, a dense retriever for widget search. Frobnicator outperforms WidgetNet by a wide margin on every widget benchmark we tried.",
  "4 Experiments\nWe evaluate Frobnicator on the WidgetQA dataset under the same setting as earlier work. Retrieval accuracy improves by eleven points over the sparse baseline.",
  // the same claim again: one answer in the graph's part, not two
  "5 Analysis\nOn long widgets, Frobnicator outperforms WidgetNet again, as the third table shows.",
];
const GIZMO = [
  "arXiv:2002.00002v1 [cs.IR] 3 Feb 2020\nGizmotron: Better Widget Retrieval\nAlan Turing\nAbstract\nWe introduce Gizmotron, a two-stage widget retriever. Gizmotron outperforms Frobnicator on every widget benchmark we tried, at the same cost.",
  "3 Method\nGizmotron extends Frobnicator with a second stage of careful ranking over the retrieved widgets.",
];

let lib: TestLibrary;

beforeAll(async () => {
  lib = await createTestLibrary([FROB, GIZMO], { name: "graph-research" });
});

afterAll(async () => {
  await lib?.close();
});

const deps = (over: Partial<ResearchDeps> = {}) => testResearchDeps(lib, over);

async function run(question: string, over: Partial<ResearchDeps> = {}) {
  const events: ResearchEvent[] = [];
  const state = await runResearch(deps(over), question, { runId: "test", onEvent: (e) => events.push(e) });
  const graph = state.steps.find((s): s is StepOf<"graph_search"> => s.type === "graph_search");
  return { state, events, graph };
}

describe("graph_search in a research run (offline)", () => {
  it("ingestion built the graph the test relies on", async () => {
    const stats = await graphStats(lib.handle.db);
    expect(stats.totals.accepted).toBeGreaterThanOrEqual(2);
  });

  it("answers a lineage question from the graph: edges as chips, quotes cited and verified, transitive paths", async () => {
    const { state, events, graph } = await run("Which papers improve on WidgetNet?");
    expect(state.status).toBe("completed");
    // planned from the start, right after the analysis
    const started = events.find((e) => e.kind === "run_started");
    const plan = started?.kind === "run_started" ? started.steps.map((s) => s.type) : [];
    expect(plan.slice(0, 3)).toEqual(["analysis", "graph_search", "query_expansion"]);
    // the analysis card says what it asks of the graph
    const analysis = state.steps.find((s) => s.type === "analysis");
    expect(analysis?.type === "analysis" && analysis.data?.graphQuestion).toBe("what improves on WidgetNet");

    expect(graph?.status).toBe("completed");
    const edges = graph?.data?.edges ?? [];
    const direct = edges.find((e) => e.source === "Frobnicator" && e.target === "WidgetNet");
    expect(direct).toMatchObject({ relation: "improves_on", paperId: expect.stringMatching(/^2001\.00001/), page: 1 });
    expect(direct?.quote).toContain("Frobnicator outperforms WidgetNet");
    // stated on two pages, answered once
    expect(edges.filter((e) => e.source === "Frobnicator" && e.target === "WidgetNet")).toHaveLength(1);
    // Gizmotron improves on Frobnicator, which improves on WidgetNet
    const through = edges.find((e) => e.source === "Gizmotron");
    expect(through?.path).toEqual(["Gizmotron", "Frobnicator", "WidgetNet"]);

    // the answer leads with the graph's relations, cited as ordinary citations and verified against the quotes
    expect(state.answer).toMatch(/^## What improves on WidgetNet, from the knowledge graph/);
    expect(state.answer).toContain("**Frobnicator** improves on **WidgetNet**");
    // each line claims only what its quote states: the transitive one sits under its own heading, without the path
    expect(state.answer).toMatch(
      /### Through other works: improving on a work that improves on WidgetNet\n\n- \*\*Gizmotron\*\* improves on \*\*Frobnicator\*\*: “Gizmotron outperforms Frobnicator/,
    );
    expect(state.answer).not.toContain("and so");
    const cited = state.citations.filter((c) => c.chunkUid?.startsWith("graph:"));
    expect(new Set(cited.map((c) => c.paperId.slice(0, 10)))).toEqual(new Set(["2001.00001", "2002.00002"]));
    for (const c of cited) {
      expect(c.supported).toBe(true);
      // the highlight is the quote's place on its page
      expect(c.charStart).not.toBeNull();
      expect(c.charEnd).toBeGreaterThan(c.charStart as number);
    }
  });

  it("reports a name the graph does not hold, with close names, before the searches", async () => {
    const { state, graph } = await run("Which papers improve on Frobnicatr?");
    // the passages do not know the misspelt name either: the run ends there, the graph card has said what it knows
    expect(state.error?.code).toBe("no_papers");
    expect(graph?.status).toBe("completed");
    expect(graph?.data?.edges).toEqual([]);
    expect(graph?.data?.names[0]).toMatchObject({ asked: "Frobnicatr", entity: null });
    expect(graph?.data?.names[0]?.suggestions).toContain("Frobnicator");
    expect(graph?.reasoning).toContain("No entity named “Frobnicatr”");
    expect(state.answer).not.toContain("from the knowledge graph");
  });

  it("a name found with no relation answering: the card says so and the answer comes from the passages", async () => {
    const { state, graph } = await run("Which methods are evaluated on WidgetNet?");
    expect(state.status).toBe("completed");
    expect(graph?.data?.names[0]).toMatchObject({ asked: "WidgetNet", entity: "WidgetNet" });
    expect(graph?.data?.edges).toEqual([]);
    expect(graph?.reasoning).toContain("holds no relation that answers what is evaluated on WidgetNet");
    expect(state.answer).not.toContain("from the knowledge graph");
    expect(state.citations.length).toBeGreaterThan(0);
  });

  it("what a work builds on: its extends / uses / improves-on edges", async () => {
    const { state, graph } = await run("What does Gizmotron build on?");
    expect(state.status).toBe("completed");
    const edges = graph?.data?.edges ?? [];
    expect(edges.some((e) => e.relation === "extends" && e.target === "Frobnicator")).toBe(true);
    expect(edges.every((e) => e.source === "Gizmotron")).toBe(true);
    expect(state.answer).toContain("**Gizmotron** extends **Frobnicator**");
  });

  it("two names of one entity: no relation between them, and not the entity's own relations as if they answered", async () => {
    const { state, graph } = await run("How does Gizmotron relate to the Gizmotron model?");
    // (this tiny library's summaries do not match the question: without relations in hand the run ends there)
    expect(graph?.status).toBe("completed");
    expect(graph?.data?.names.map((n) => n.entity)).toEqual(["Gizmotron", "Gizmotron"]);
    expect(graph?.data?.edges).toEqual([]);
    expect(graph?.reasoning).toContain("“Gizmotron” and “Gizmotron model” are one entity in the knowledge graph");
    expect(state.answer).not.toContain("from the knowledge graph");
  });

  it("a comparison with a qualifier after the second name: the name before it ('Frobnicator on the widget benchmarks')", async () => {
    const { graph } = await run("How does Gizmotron compare to Frobnicator on the widget benchmarks?");
    expect(graph?.data?.names.map((n) => [n.asked, n.entity])).toEqual([
      ["Gizmotron", "Gizmotron"],
      ["Frobnicator on the widget benchmarks", "Frobnicator"],
    ]);
    const edges = graph?.data?.edges ?? [];
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.every((e) => e.source === "Gizmotron" && e.target === "Frobnicator")).toBe(true);
  });

  it("has no graph step for a question of another kind", async () => {
    const { state, graph } = await run("How many points does retrieval accuracy improve over the sparse baseline?");
    expect(state.status).toBe("completed");
    expect(graph).toBeUndefined();
  });

  it("with a model: the edges' quotes are sources in the synthesis prompt, and its citations of them verified", async () => {
    let prompt = "";
    const model = mockModel({
      reply: (p, kind) => {
        if (kind !== "stream") return "{}";
        prompt = p;
        const sources = sourcesInPrompt(p).slice(0, 2);
        return sources.map((s) => `${s.firstSentence} ${s.citation}`).join(" ");
      },
    });
    const { state, graph } = await run("Which papers improve on WidgetNet?", { chatModel: model });
    expect(graph?.data?.edges.length).toBeGreaterThan(0);
    expect(prompt).toContain("Frobnicator outperforms WidgetNet");
    expect(state.citations.length).toBeGreaterThan(0);
    expect(state.citations.every((c) => c.supported)).toBe(true);
  });
});

describe("deep research: How these works relate", () => {
  it("adds the graph's relations between the review's works, cited and verified", async () => {
    const outline = {
      title: "Widget retrieval",
      search_strategy: "",
      knowledge_points: [
        {
          id: "kp1",
          category: "Methods",
          topic: "Dense widget retrievers",
          search_keywords: ["widget retriever", "widget benchmark"],
          importance: "high" as const,
        },
      ],
    };
    const state = await deepRunner({ outline })(deps(), "How has widget retrieval improved?", {
      runId: "deep-test",
      onEvent: () => {},
    });
    expect(state.status).toBe("completed");
    const step = state.steps.find((s): s is StepOf<"graph_relations"> => s.type === "graph_relations");
    expect(step?.status).toBe("completed");
    const pairs = (step?.data?.edges ?? []).map((e) => `${e.source} ${e.relation} ${e.target}`);
    expect(pairs).toContain("Gizmotron improves_on Frobnicator");
    // one edge per pair of works: Gizmotron's "extends Frobnicator" is the same pair
    expect(pairs.filter((p) => p.startsWith("Gizmotron") && p.endsWith("Frobnicator"))).toHaveLength(1);
    expect(state.answer).toContain(`## ${RELATIONS_HEADING}`);
    expect(state.answer).toContain("**Gizmotron** improves on **Frobnicator**");
    const cited = state.citations.filter((c) => c.chunkUid?.startsWith("graph:"));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((c) => c.supported && c.relevance !== "off_topic")).toBe(true);
  });
});

describe("deep research: relations that bear on the review", () => {
  it("leaves out the relations among its papers that share no key term with its question or topics", async () => {
    const evidence = (await listPapers(lib.handle.db, {})).map((p, i) => ({
      chunkUid: `c${i}`,
      paperId: p.id,
      title: p.title,
      page: 1,
      charStart: 0,
      charEnd: 1,
      text: "x",
    }));
    expect(evidence).toHaveLength(2);
    const relate = (question: string, topics: string[] = []) =>
      relationsStep.run(testStepContext(deps(), question), { evidence, topics });
    const onTopic = await relate("How has widget retrieval improved?");
    expect(onTopic.result.edges.length).toBeGreaterThan(0);
    const offTopic = await relate("How do salmon find the river they hatched in?");
    expect(offTopic.result.edges).toEqual([]);
    expect(offTopic.patch?.title).toBe("No relation between these works in the knowledge graph bears on the question");
    // the outline's topics count as the question's own words
    expect(
      (await relate("How do salmon find the river they hatched in?", ["Widget benchmarks"])).result.edges.length,
    ).toBeGreaterThan(0);
  });
});

describe("composeGraphSection", () => {
  const entity = (id: number, name: string) => ({ id, name, type: "Method" as const });
  const edge = (id: number, source: ReturnType<typeof entity>, target: ReturnType<typeof entity>) => ({
    id,
    relation: "improves_on" as const,
    source,
    target,
    paper_id: "2001.00001",
    paper_title: "A paper",
    year: 2020,
    page: 1,
    quote: `${source.name} outperforms ${target.name}.`,
    char_start: 0,
    char_end: 10,
    confidence: 0.9,
    status: "accepted" as const,
    extractor: "rules",
  });
  const [x, y, z] = [entity(1, "Xnet"), entity(2, "Ynet"), entity(3, "Znet")];

  it("two names with no edge between them: the heading says the edges are each one's, instead of claiming how they relate", () => {
    const apart = {
      question: { kind: "relate" as const, entities: ["Xnet", "Ynet"] },
      names: [
        { asked: "Xnet", found: true as const, entity: x },
        { asked: "Ynet", found: true as const, entity: y },
      ],
      edges: [edge(1, x, z)],
    };
    const md = composeGraphSection(apart);
    expect(md).toMatch(/^## What the knowledge graph holds about Xnet and Ynet, each on its own\n/);
    // (no claim that nothing relates them: the passages may well compare them)
    expect(md).not.toContain("no relation");
    expect(relatesApart(apart)).toBe(true);
    expect(relatesApart({ ...apart, edges: [edge(1, x, y)] })).toBe(false);
    expect(relatesApart({ ...apart, question: { kind: "improves_on", entities: ["Xnet"] } as never })).toBe(false);
    // each name's own edges in turn, best first within each, at most the limit
    const w = entity(4, "Wnet");
    const many = { ...apart, edges: [edge(1, x, z), edge(2, x, w), edge(3, x, z), edge(4, y, z), edge(5, y, w)] };
    expect(eachInTurn(many, 3).map((e) => e.id)).toEqual([1, 2, 4]);
    expect(eachInTurn(many, 10)).toHaveLength(5);
    const linked = composeGraphSection({
      question: { kind: "relate", entities: ["Xnet", "Ynet"] },
      names: [
        { asked: "Xnet", found: true, entity: x },
        { asked: "Ynet", found: true, entity: y },
      ],
      edges: [edge(1, x, y)],
    });
    expect(linked).toMatch(/^## How Xnet relates to Ynet, from the knowledge graph\n/);
  });

  it("one name unknown: the heading names the one found", () => {
    const md = composeGraphSection({
      question: { kind: "relate", entities: ["Xnet", "Qnet"] },
      names: [
        { asked: "Xnet", found: true, entity: x },
        { asked: "Qnet", found: false, message: "No entity named “Qnet”.", suggestions: [] },
      ],
      edges: [edge(1, x, z)],
    });
    expect(md).toMatch(/^## What the knowledge graph holds about Xnet\n/);
  });
});
