import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { getRun, listRuns, listVersions } from "@/db/queries/research";
import { researchRuns } from "@/db/schema";
import { addPerson, createOwner } from "@/lib/auth/people";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { LecternError } from "@/lib/errors";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { tokenize } from "@/lib/text/terms";
import type { ResearchDeps } from "../deps";
import { exportBibtex, exportMarkdown } from "../export";
import { waitForRun } from "../runs";
import { mockModel } from "../testing";
import type { ResearchEvent, ResearchRunState } from "../types";
import { dedupKey } from "./evidence";
import {
  diffOutlines,
  generateClarifyingQuestions,
  generateOutline,
  improveRun,
  isEmptyDiff,
  outlineForFeedback,
  parseOutline,
  rerunWithOutline,
  startDeepRun,
} from "./index";
import { NO_LIBRARY } from "./phrases";
import { fallbackOutline, partSubjects, topicAnswers, yearsFromAnswers } from "./plan";
import { pointQueries } from "./steps/point-search";
import { SECTION_EVIDENCE_CHARS } from "./steps/section";
import { CLARIFY_PURPOSES, type Outline } from "./types";

const ATTENTION = [
  "arXiv:2001.00001v1 [cs.CL] 2 Jan 2020\nScaled Attention for Sequence Transduction\nAda Lovelace\nAbstract\nWe propose an attention-only encoder-decoder for machine translation. Scaled dot-product attention replaces recurrence.",
  "3.2 Scaled Dot-Product Attention\nWe divide the dot products of queries and keys by the square root of the key dimension. For large dimensions the dot products grow large in magnitude, pushing the softmax function into regions where it has extremely small gradients. Scaled dot-product attention counteracts this effect.",
  "5 Training\nWe trained the machine translation model on eight GPUs for three days with the Adam optimizer and label smoothing of 0.1. Dropout was applied to the output of each sub-layer before the residual connection.",
];
const LORA = [
  "arXiv:2106.00002v2 [cs.LG] 1 Jun 2021\nLow-Rank Adapters for Large Language Models\nAlan Turing\nAbstract\nWe freeze the pretrained weights and train small low-rank update matrices. Low-rank adapters cut the trainable parameters of machine translation and other tasks.",
  "4.1 No Additional Inference Latency\nWhen deployed in production, the low-rank update is merged into the frozen weight matrix, so the adapted model runs exactly as fast as the original one. Low-rank adapters add no extra inference latency compared with full fine-tuning.",
  "5 Experiments\nLow-rank adapters match full fine-tuning on machine translation while training one percent of the parameters. The rank of the update matrices can be as small as four.",
];

let handle: DbHandle;
let lib: TestLibrary;
let embedder: EmbeddingProvider;
let deps: ResearchDeps;

beforeAll(async () => {
  lib = await createTestLibrary([ATTENTION, LORA], { name: "deep" });
  handle = lib.handle;
  embedder = lib.embedder;
  deps = { db: handle.db, embedder, chatModel: null, llmTimeoutMs: 5_000, runTimeoutMs: 60_000 };
});

afterAll(async () => {
  await lib?.close();
});

const QUESTION = "How do attention and low-rank adapters work for machine translation?";

async function finish(started: { runId: string; events: AsyncIterable<ResearchEvent> }) {
  const events: ResearchEvent[] = [];
  for await (const e of started.events) events.push(e);
  const state = (await waitForRun(started.runId)) as ResearchRunState;
  return { events, state };
}

function outline(points: Outline["knowledge_points"], extra: Partial<Outline> = {}): Outline {
  return parseOutline({ title: "Attention and adapters", knowledge_points: points, search_strategy: "", ...extra });
}

const ATTENTION_POINT = {
  id: "a",
  category: "Methods",
  topic: "Scaled dot-product attention",
  search_keywords: ["dot products", "square root", "softmax"],
  importance: "high" as const,
};
const LORA_POINT = {
  id: "b",
  category: "Methods",
  topic: "Low-rank adapters",
  search_keywords: ["low-rank update", "inference latency"],
  importance: "medium" as const,
};

describe("clarifying questions", () => {
  it("offline: 2–4 questions chosen from the library, each with a purpose", async () => {
    const r = await generateClarifyingQuestions(deps, QUESTION);
    expect(r.method).toBe("library");
    expect(r.value.length).toBeGreaterThanOrEqual(2);
    expect(r.value.length).toBeLessThanOrEqual(4);
    for (const q of r.value) expect(CLARIFY_PURPOSES).toContain(q.purpose);
    // the focus options are the library's own phrases
    const library = [...ATTENTION, ...LORA].join(" ").toLowerCase();
    const focus = r.value.find((q) => q.purpose === "focus");
    expect(focus?.options.filter((o) => library.includes(o)).length).toBeGreaterThanOrEqual(2);
    // when the matching papers span years, a time range question names the span
    const both = await generateClarifyingQuestions(deps, "machine translation");
    const years = both.value.find((q) => q.purpose === "timerange");
    expect(years?.question).toMatch(/2020.2021/);
    // two years: the recent choice is the last one alone, not the whole span again under another name
    expect(years?.options).toEqual(["All (2020–2021)", "Only 2021"]);
    expect(yearsFromAnswers([{ id: "timerange", question: "", answer: "Only 2021" }])).toEqual({
      year_from: 2021,
      year_to: 2021,
    });
  });

  it("with a model: fenced JSON is read; malformed JSON falls back to sensible questions", async () => {
    const good = mockModel({
      reply: () =>
        '```json\n{"questions": [{"id": "q1", "question": "¿Qué aspecto?", "purpose": "focus", "options": ["a"]}, {"id": "q2", "question": "¿Qué años?", "purpose": "timerange"}]}\n```',
    });
    const r = await generateClarifyingQuestions({ ...deps, chatModel: good }, "¿Cómo funciona la atención?");
    expect(r.method).toBe("llm");
    expect(r.value.map((q) => q.question)).toEqual(["¿Qué aspecto?", "¿Qué años?"]);
    for (const reply of ['{"questions": [{"id": 1}]}', "no json at all", '{"questions": [']) {
      const bad = mockModel({ reply: () => reply });
      const f = await generateClarifyingQuestions({ ...deps, chatModel: bad }, QUESTION);
      expect(f.method).toBe("fallback");
      expect(f.warning).toMatch(/without the model/);
      expect(f.value.length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("outlines", () => {
  it("offline: 4–8 validated points built from the library's phrases, not a template", async () => {
    const r = await generateOutline(deps, QUESTION);
    expect(r.method).toBe("library");
    const points = r.value.knowledge_points;
    expect(points.length).toBeGreaterThanOrEqual(4);
    expect(points.length).toBeLessThanOrEqual(8);
    const library = [...ATTENTION, ...LORA].join(" ").toLowerCase();
    // the topics come from the library's own text
    expect(points.filter((p) => library.includes(p.topic.toLowerCase())).length).toBeGreaterThanOrEqual(2);
    expect(r.value.search_strategy).toMatch(/key phrases/);
    expect(new Set(points.map((p) => p.id)).size).toBe(points.length);
  });

  it("offline: a question asking two things has a point for each part's subject", async () => {
    const r = await generateOutline(
      deps,
      "Why is scaled dot-product attention divided by the key size, and how do low-rank adapters cut trainable parameters?",
    );
    expect(r.method).toBe("library");
    const topics = r.value.knowledge_points.map((p) => p.topic.toLowerCase());
    expect(
      topics.some((t) => t.includes("dot-product attention")),
      topics.join("; "),
    ).toBe(true);
    expect(topics.some((t) => t.includes("low-rank adapters") || t.includes("trainable parameters"))).toBe(true);
  });

  it("names a part's subject by its names and the library's fullest phrase of its words", () => {
    const phrase = (text: string, score: number) => ({
      text,
      stems: tokenize(text),
      docs: new Set([0]),
      papers: new Set(["p"]),
      named: false,
      score,
    });
    const phrases = [
      phrase("attention heads", 3),
      phrase("multi-head attention", 2),
      phrase("trainable parameters", 1),
    ];
    expect(partSubjects("how does BERT use multi-head attention?", phrases, NO_LIBRARY)).toEqual([
      "BERT",
      "multi-head attention",
    ]);
    expect(partSubjects("How does LoRA cut trainable parameters", phrases, NO_LIBRARY)).toEqual([
      "LoRA",
      "trainable parameters",
    ]);
    expect(partSubjects("why is it scaled", phrases, NO_LIBRARY)).toEqual([]);
    // adjacent capitalised words are one name; a name the sources define as something generic is none
    expect(partSubjects("what is Constitutional AI?", phrases, NO_LIBRARY)).toEqual(["Constitutional AI"]);
    const texts = ["Large language models (LLMs) answer questions.", "Low-Rank Adaptation (LoRA) freezes weights."];
    // (a library where language models are what most papers are about)
    const common = new Set(tokenize("large language models"));
    const library = { common: (stem: string) => common.has(stem), specificity: () => 1 };
    expect(partSubjects("why does LoRA work for fine-tuning LLMs", phrases, library, texts)).toEqual(["LoRA"]);
    expect(partSubjects("how do we correct LLM outputs", phrases, library, texts)).toEqual([]);
    expect(partSubjects("how do we correct LLM outputs", phrases, library)).toEqual(["LLM"]);
  });

  it("honours a year range asked for in the answers", async () => {
    expect(yearsFromAnswers([{ id: "t", question: "", answer: "Since 2021" }])).toEqual({ year_from: 2021 });
    expect(yearsFromAnswers([{ id: "t", question: "", answer: "2019–2020 only" }])).toEqual({
      year_from: 2019,
      year_to: 2020,
    });
    expect(yearsFromAnswers([{ id: "t", question: "", answer: "All (2020–2021)" }])).toEqual({});
    const now = new Date("2026-11-29T00:00:00Z");
    expect(yearsFromAnswers([{ id: "t", question: "", answer: "The last 3 years" }], now)).toEqual({
      year_from: 2024,
    });
  });

  it("searches with the answers that say what the review is about, not with the ones that set scope, depth or years", () => {
    const a = (id: string, answer: string) => ({ id, question: "", answer });
    const topics = topicAnswers([
      a("focus", "Low-rank adaptation"),
      a("scope", "Only the closest papers"),
      a("depth", "A short overview"),
      a("timerange", "Since 2020"),
      a("timerange", "The last 3 years"),
      a("timerange", "The past 2 years"),
      a("focus", "All of them"),
      a("scope", "LoRA: Low-Rank Adaptation of Large Language Models"),
      a("extra", "adapters since 2020"),
    ]).map((t) => t.answer);
    expect(topics).toEqual([
      "Low-rank adaptation",
      "LoRA: Low-Rank Adaptation of Large Language Models",
      "adapters since 2020",
    ]);
  });

  it("with a model: a valid outline is used; too few points or bad JSON fall back", async () => {
    const points = ["Scaled dot-product attention", "Low-rank adapters", "Inference latency", "Label smoothing"].map(
      (topic, i) => ({
        id: `kp${i + 1}`,
        category: "Methods",
        topic,
        search_keywords: [topic.toLowerCase()],
        importance: "high",
      }),
    );
    const good = mockModel({
      reply: () => JSON.stringify({ title: "A review", knowledge_points: points, search_strategy: "s" }),
    });
    const r = await generateOutline({ ...deps, chatModel: good }, QUESTION, [
      { id: "t", question: "", answer: "since 2021" },
    ]);
    expect(r.method).toBe("llm");
    expect(r.value.knowledge_points.map((p) => p.topic)).toEqual(points.map((p) => p.topic));
    expect(r.warning).toBeUndefined();
    expect(r.value.year_from).toBe(2021);
    const tooFew = mockModel({ reply: () => JSON.stringify({ title: "T", knowledge_points: points.slice(0, 2) }) });
    const f = await generateOutline({ ...deps, chatModel: tooFew }, QUESTION);
    expect(f.method).toBe("library");
    expect(f.warning).toMatch(/unusable/);
    expect(f.value.knowledge_points.length).toBeGreaterThanOrEqual(4);
  });

  it("falls back to a fixed outline from the question's words when the library has nothing", () => {
    const o = fallbackOutline("What is quantum chromodynamics?");
    expect(o.knowledge_points).toHaveLength(4);
    expect(o.knowledge_points[0]?.search_keywords).toContain("quantum");
  });

  it("rejects invalid edited outlines with a clear message", () => {
    const bad = [
      { title: "T", knowledge_points: [] },
      { title: "T", knowledge_points: [ATTENTION_POINT, { ...LORA_POINT, id: "a" }] },
      { title: "T", knowledge_points: [{ ...ATTENTION_POINT, search_keywords: [] }] },
      { title: "T", knowledge_points: [ATTENTION_POINT], year_from: 2022, year_to: 2020 },
    ];
    for (const o of bad) {
      expect(() => parseOutline(o)).toThrow(LecternError);
      expect(() => parseOutline(o)).toThrow(/The outline is not valid/);
    }
    expect(() => parseOutline({ title: "Title", knowledge_points: [{ ...ATTENTION_POINT, topic: "x" }] })).toThrow(
      "The outline is not valid: point 1's topic is too short (at least 2 characters).",
    );
    expect(() => parseOutline({ title: "Title", knowledge_points: [] })).toThrow(
      "the list of knowledge points needs at least 1 entry.",
    );
    expect(() =>
      parseOutline({ title: "Title", knowledge_points: [{ ...ATTENTION_POINT, importance: "urgent" }] }),
    ).toThrow(/point 1's importance must be one of "high", "medium", "low"/);
  });
});

describe("per-point search rules", () => {
  it("builds several queries per point", () => {
    expect(pointQueries(ATTENTION_POINT)).toEqual([
      "Scaled dot-product attention dot products square root softmax",
      "dot products square root softmax",
      "Scaled dot-product attention",
    ]);
  });

  it("deduplicates by DOI, else title and page, else a content hash", () => {
    expect(dedupKey({ doi: "10.1/ABC", title: "T", page: 2, text: "x" })).toBe("doi:10.1/abc#2");
    expect(dedupKey({ doi: null, title: "Some  Title", page: 2, text: "x" })).toBe("title:some title#2");
    expect(dedupKey({ doi: null, title: " ", page: 2, text: "a  b" })).toBe(
      dedupKey({ title: null, page: 9, text: "a b" }),
    );
  });
});

describe("deep runs", () => {
  it("searches each point as its own step and writes a sectioned, cited review", async () => {
    const o = outline([ATTENTION_POINT, LORA_POINT]);
    const { state, events } = await finish(startDeepRun(deps, { question: QUESTION, outline: o }));
    expect(state.status).toBe("completed");
    const pointSteps = state.steps.filter((s) => s.id.startsWith("point_"));
    expect(pointSteps.map((s) => [s.id, s.status])).toEqual([
      ["point_a", "completed"],
      ["point_b", "completed"],
    ]);
    expect(pointSteps[0]?.sources.some((s) => s.paperId === "2001.00001v1")).toBe(true);
    expect(state.answer).toMatch(/^# Attention and adapters\n\n## Introduction/);
    expect(state.answer).toContain("## Scaled dot-product attention");
    expect(state.answer).toContain("## Low-rank adapters");
    expect(state.answer).toContain("## References");
    expect(state.answer).toMatch(/## Conclusion\n\n[^\n]+\n\n## References/);
    expect(state.citations.length).toBeGreaterThan(1);
    expect(state.citations.every((c) => c.supported)).toBe(true);
    // sections stream as they are written, in order
    const deltas = events.filter((e) => e.kind === "answer_delta").map((e) => (e as { text: string }).text);
    const joined = deltas.join("");
    expect(joined.indexOf("## Scaled dot-product attention")).toBeLessThan(joined.indexOf("## Low-rank adapters"));
    // a passage is used by one point only
    const a = new Set(pointSteps[0]?.sources.map((s) => s.id));
    const stored = await getRun(handle.db, state.runId);
    expect(stored?.options).toMatchObject({ deep: true, outline: o });
    const content = stored?.retrieved ?? [];
    expect(new Set(content.map((r) => r.chunkUid)).size).toBe(content.length);
    expect(a.size).toBeGreaterThan(0);
  });

  it("honours the outline's year range in every search", async () => {
    const o = outline([ATTENTION_POINT, LORA_POINT], { year_from: 2021 });
    const { state } = await finish(startDeepRun(deps, { question: QUESTION, outline: o }));
    const sources = state.steps.filter((s) => s.id.startsWith("point_")).flatMap((s) => s.sources);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((s) => s.paperId === "2106.00002v2")).toBe(true);
    expect(state.citations.every((c) => c.paperId === "2106.00002v2")).toBe(true);
  });

  it("reruns an edited outline as a new version and shows what changed", async () => {
    const first = await finish(
      startDeepRun(deps, { question: QUESTION, outline: outline([ATTENTION_POINT, LORA_POINT]) }),
    );
    const edited = outline([
      LORA_POINT,
      {
        id: "c",
        category: "Training",
        topic: "Training setup",
        search_keywords: ["GPUs", "Adam optimizer"],
        importance: "low",
      },
    ]);
    const second = await finish(await rerunWithOutline(deps, first.state.runId, edited, null));
    expect(second.state.status).toBe("completed");
    const versions = await listVersions(handle.db, second.state.runId);
    expect(versions.map((v) => v.id)).toEqual([first.state.runId, second.state.runId]);
    expect(versions[1]?.parentId).toBe(first.state.runId);
    const diff = diffOutlines(versions[0]?.options.outline as Outline, versions[1]?.options.outline as Outline);
    expect(diff.added.map((p) => p.id)).toEqual(["c"]);
    expect(diff.removed.map((p) => p.id)).toEqual(["a"]);
    expect(isEmptyDiff(diff)).toBe(false);
    expect(isEmptyDiff(diffOutlines(edited, edited))).toBe(true);
    await expect(rerunWithOutline(deps, "missing", edited, null)).rejects.toThrow(/does not exist/);
  });

  it("improves a run with feedback: a new point and new evidence when the feedback asks for more", async () => {
    const first = await finish(startDeepRun(deps, { question: QUESTION, outline: outline([ATTENTION_POINT]) }));
    const { started, addedPoint } = await improveRun(
      deps,
      first.state.runId,
      "improve: add more on training with GPUs and the Adam optimizer",
      null,
    );
    const second = await finish(started);
    expect(addedPoint).toMatch(/training with GPUs/i);
    expect(second.state.status).toBe("completed");
    const stored = await getRun(handle.db, second.state.runId);
    expect(stored?.parentId).toBe(first.state.runId);
    expect(stored?.options).toMatchObject({
      feedback: "improve: add more on training with GPUs and the Adam optimizer",
    });
    expect(second.state.citations.some((c) => c.page === 3 && c.paperId === "2001.00001v1")).toBe(true);
    // the recent list numbers the versions as the run page does, and carries the feedback
    const third = await finish(await rerunWithOutline(deps, first.state.runId, outline([ATTENTION_POINT]), null));
    const listed = new Map((await listRuns(handle.db, { limit: 100 })).map((r) => [r.id, r]));
    const numbers = new Map((await listVersions(handle.db, third.state.runId)).map((v, i) => [v.id, i + 1]));
    for (const id of [first.state.runId, second.state.runId, third.state.runId]) {
      expect(listed.get(id)?.version).toBe(numbers.get(id));
    }
    expect(listed.get(first.state.runId)).toMatchObject({ version: 1, feedback: null });
    expect(listed.get(second.state.runId)).toMatchObject({
      version: 2,
      feedback: "improve: add more on training with GPUs and the Adam optimizer",
    });
    expect(listed.get(third.state.runId)).toMatchObject({ version: 3, feedback: null });
    // lead-ins are not the topic
    const asked = outlineForFeedback(outline([ATTENTION_POINT]), "improve: add more on GPU training schedules");
    expect(asked.addedPoint?.topic).toBe("GPU training schedules");
    expect(asked.addedPoint?.search_keywords).not.toContain("add");
    // feedback the outline already covers adds no point
    expect(
      outlineForFeedback(outline([ATTENTION_POINT]), "more on the softmax and dot products").addedPoint,
    ).toBeNull();
    await expect(improveRun(deps, first.state.runId, " ", null)).rejects.toThrow(/what to improve/);
  });

  it("refuses to improve a run without a whole answer: declined, cancelled or interrupted (as the page offers none)", async () => {
    const feedback = "improve: add more on the Adam optimizer";
    const declined = await finish(startDeepRun(deps, { question: QUESTION, outline: outline([ATTENTION_POINT]) }));
    await handle.db.update(researchRuns).set({ answerMarkdown: "" }).where(eq(researchRuns.id, declined.state.runId));
    await expect(improveRun(deps, declined.state.runId, feedback, null)).rejects.toMatchObject({
      code: "conflict:run",
      message: "That run has no answer to improve: ask the question again, or differently.",
    });
    const cancelled = await finish(startDeepRun(deps, { question: QUESTION, outline: outline([ATTENTION_POINT]) }));
    await handle.db.update(researchRuns).set({ status: "cancelled" }).where(eq(researchRuns.id, cancelled.state.runId));
    await expect(improveRun(deps, cancelled.state.runId, feedback, null)).rejects.toMatchObject({
      code: "conflict:run",
      message: expect.stringMatching(/^That run was cancelled before its answer was finished/),
    });
    await handle.db
      .update(researchRuns)
      .set({ status: "interrupted" })
      .where(eq(researchRuns.id, cancelled.state.runId));
    await expect(improveRun(deps, cancelled.state.runId, feedback, null)).rejects.toMatchObject({
      message: expect.stringMatching(/^That run was interrupted before its answer was finished/),
    });
    // no new version was started for either
    expect(await listVersions(handle.db, declined.state.runId)).toHaveLength(1);
    expect(await listVersions(handle.db, cancelled.state.runId)).toHaveLength(1);
  });

  it("improve with an off-topic request: the new section says the library has little on it, and quotes nothing", async () => {
    const first = await finish(startDeepRun(deps, { question: QUESTION, outline: outline([ATTENTION_POINT]) }));
    const { started, addedPoint } = await improveRun(
      deps,
      first.state.runId,
      "improve: add more on multi-agent debate",
      null,
    );
    expect(addedPoint).toBe("Multi-agent debate");
    const { state } = await finish(started);
    expect(state.status).toBe("completed");
    const answer = state.answer ?? "";
    const section = /## Multi-agent debate\n\n([^\n]*)/.exec(answer)?.[1] ?? "";
    expect(section).toMatch(/^_There is little in the library on multi-agent debate: /);
    // no quote from passages that do not mention it
    expect(section).not.toMatch(/\[[^\]]+, page \d+\]/);
    expect(state.steps.find((s) => s.id === "section_kp2")?.title).toBe("Little in the library on: Multi-agent debate");
    // the introduction does not count it among the topics covered
    expect(answer).toMatch(/in 1 topic: Scaled dot-product attention\./);
    // the sections that do have evidence still quote it
    expect(answer).toMatch(/## Scaled dot-product attention\n\n[^_\n][^\n]*\[2001\.00001v1, page \d\]/);
  });

  it("a section quotes only the passages that mention its topic", async () => {
    // the keywords pull in the attention paper's training page, which says nothing of adapters
    const o = outline([{ ...LORA_POINT, search_keywords: ["eight GPUs", "Adam optimizer", "low-rank update"] }]);
    const { state } = await finish(startDeepRun(deps, { question: QUESTION, outline: o }));
    const searched = state.steps.find((s) => s.id === "point_b")?.sources ?? [];
    expect(searched.some((s) => s.paperId === "2001.00001v1")).toBe(true);
    const section = /## Low-rank adapters\n\n([^\n]*)/.exec(state.answer ?? "")?.[1] ?? "";
    const cited = [...section.matchAll(/\[([^,\]]+), page \d+\]/g)].map((m) => m[1]);
    expect(cited.length).toBeGreaterThan(0);
    expect(new Set(cited)).toEqual(new Set(["2106.00002v2"]));
  });

  it("streams each section from the model within its evidence budget", async () => {
    const prompts: string[] = [];
    const model = mockModel({
      reply: (prompt, kind) => {
        prompts.push(prompt);
        if (kind === "stream") {
          const heading = /Section heading: (## [^\n]+)/.exec(prompt)?.[1] ?? "## Section";
          const src = /Source (\[[^\]]+\]) — [^\n]*\n([^\n]+?[.!?])(\s|$)/.exec(prompt);
          return `${heading}\n\n${src?.[2] ?? "Nothing."} ${src?.[1] ?? ""}`;
        }
        return '{"verdicts": []}';
      },
    });
    const { state, events } = await finish(
      startDeepRun(
        { ...deps, chatModel: model },
        { question: QUESTION, outline: outline([ATTENTION_POINT, LORA_POINT]) },
      ),
    );
    expect(state.status).toBe("completed");
    expect(events.filter((e) => e.kind === "answer_delta").length).toBeGreaterThan(4);
    const sectionPrompts = prompts.filter((p) => p.includes("Section heading:"));
    expect(sectionPrompts).toHaveLength(2);
    for (const p of sectionPrompts) expect(p.length).toBeLessThan(SECTION_EVIDENCE_CHARS + 3_000);
    expect(state.citations.length).toBeGreaterThan(0);
  });
});

describe("versions belong to the run's author", () => {
  it("refuses a rerun or an improvement of someone else's run, and gives the author's new version to the author", async () => {
    const owner = await createOwner(handle.db, {
      email: "ada@lab.example",
      name: "Ada",
      password: "correct horse battery",
    });
    const other = await addPerson(handle.db, owner, {
      email: "max@lab.example",
      name: "Max",
      password: "correct horse battery",
      role: "member",
    });
    const mine = await finish(
      startDeepRun(deps, { question: QUESTION, outline: outline([ATTENTION_POINT]), ownerId: owner.id }),
    );
    const edited = outline([LORA_POINT]);
    await expect(rerunWithOutline(deps, mine.state.runId, edited, other.id)).rejects.toMatchObject({
      code: "forbidden:run",
    });
    await expect(improveRun(deps, mine.state.runId, "add more on adapters", other.id)).rejects.toMatchObject({
      code: "forbidden:run",
    });
    const next = await finish(await rerunWithOutline(deps, mine.state.runId, edited, owner.id));
    expect((await getRun(handle.db, next.state.runId))?.ownerId).toBe(owner.id);
  });
});

describe("export", () => {
  it("exports markdown with citations intact and BibTeX of the cited papers", async () => {
    const { state } = await finish(
      startDeepRun(deps, { question: QUESTION, outline: outline([ATTENTION_POINT, LORA_POINT]) }),
    );
    const md = exportMarkdown(state);
    expect(md).toContain("[2001.00001v1, page 2]");
    expect(md).toContain("## References");
    const bib = exportBibtex(state.references);
    expect(bib).toMatch(/@misc\{lovelace2020scaled,/);
    expect(bib).toContain("eprint = {2001.00001v1}");
    expect(bib).toContain("archivePrefix = {arXiv}");
    expect(bib.match(/^@/gm)?.length).toBe(state.references.length);
  });
});
