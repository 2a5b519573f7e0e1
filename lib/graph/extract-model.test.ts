import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { extractWithModel, sectionsForModel } from "./extract-model";

const reply = (text: string) => ({
  content: [{ type: "text" as const, text }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 10, text: 10, reasoning: 0 },
  },
  warnings: [],
});

const paper = {
  id: "p1",
  title: "Frobnicator: Fast Widgets",
  abstract: null,
  pages: [
    {
      pageNumber: 1,
      text: "Abstract\nFrobnicator outperforms WidgetNet on every benchmark we tried.\n1 Introduction\nWidgets matter.",
    },
    { pageNumber: 2, text: "2 Method\nWe use the Adam optimizer for training the widget model in all settings." },
  ],
};

const good = JSON.stringify({
  entities: [{ name: "Frobnicator", type: "Method", description: "a fast widget method" }],
  relations: [
    {
      relation: "improves_on",
      source: "Frobnicator",
      source_type: "Method",
      target: "WidgetNet",
      target_type: "Method",
      page: 1,
      quote: "Frobnicator outperforms WidgetNet on every benchmark we tried.",
      confidence: 0.9,
    },
    { relation: "improves_on", source: "Frobnicator" }, // malformed item: counted, dropped
  ],
});

describe("extractWithModel", () => {
  it("cuts the paper into sections with page markers", () => {
    const sections = sectionsForModel(paper);
    expect(sections.length).toBeGreaterThanOrEqual(2);
    expect(sections.every((s) => s.text.includes("[page "))).toBe(true);
  });

  it("turns the model's JSON into candidates, counting malformed items", async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => reply(good) });
    const x = await extractWithModel(paper, { model, modelName: "mock" });
    expect(x.candidates.length).toBeGreaterThanOrEqual(1);
    const c = x.candidates[0];
    expect(c).toMatchObject({ relation: "improves_on", extractor: "mock", page: 1 });
    expect(c?.source.description).toBe("a fast widget method");
    expect(x.malformed).toBeGreaterThanOrEqual(1);
    expect(x.failedSections).toBe(0);
  });

  it("degrades from the full to the compact prompt when the reply is not JSON, and gives up per section", async () => {
    const prompts: string[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async (opts) => {
        const system = JSON.stringify(opts.prompt[0]);
        prompts.push(system.includes("You extract a knowledge graph") ? "full" : "compact");
        return reply(prompts.at(-1) === "full" ? "Sure! Here are the relations: none, sorry" : good);
      },
    });
    const x = await extractWithModel(paper, { model, modelName: "mock", concurrency: 1 });
    expect(prompts.filter((p) => p === "full").length).toBe(prompts.filter((p) => p === "compact").length);
    expect(x.candidates.length).toBeGreaterThan(0);
    expect(x.malformed).toBeGreaterThan(0);

    const broken = new MockLanguageModelV4({ doGenerate: async () => reply("{ not json") });
    const none = await extractWithModel(paper, { model: broken, modelName: "mock" });
    // nothing of the model's is used: every section failed, so the paper falls back to the rules (next test)
    expect(none.candidates.every((c) => c.extractor === "rules")).toBe(true);
    expect(none.fellBackToRules).toBe(true);
    expect(none.failedSections).toBe(sectionsForModel(paper).length);
  });

  it("stops when aborted", async () => {
    const ac = new AbortController();
    ac.abort();
    const model = new MockLanguageModelV4({ doGenerate: async () => reply(good) });
    await expect(extractWithModel(paper, { model, modelName: "mock", signal: ac.signal })).rejects.toThrow();
  });

  it("a model that answers for no section: the paper gets the offline rules' candidates, flagged", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error("model server unreachable");
      },
    });
    const x = await extractWithModel(paper, { model, modelName: "mock" });
    expect(x.fellBackToRules).toBe(true);
    expect(x.failedSections).toBe(sectionsForModel(paper).length);
    expect(x.candidates.length).toBeGreaterThan(0);
    expect(x.candidates.every((c) => c.extractor === "rules")).toBe(true);
    expect(x.candidates.some((c) => c.relation === "improves_on" && c.target.name === "WidgetNet")).toBe(true);
  });
});
