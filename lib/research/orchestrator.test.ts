import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { finishRun, getRun, insertRun, listRuns, setFeedback } from "@/db/queries/research";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { searchSummaries } from "@/lib/search/search";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { analyzeWithRules } from "./analysis";
import { synthesizeExtractive } from "./compose";
import type { ResearchDeps } from "./deps";
import { type ComposedFrom, StepError } from "./lifecycle";
import { runResearch } from "./orchestrator";
import { INTERRUPTED_ERROR, recoverInterruptedRuns } from "./recovery";
import { cancelRun, startRun, subscribeRun, waitForRun } from "./runs";
import { analysisStep } from "./steps/analysis";
import { expansionStep } from "./steps/expansion";
import { contentSearchStep, NO_CONTENT_MESSAGE, NO_MATCH_MESSAGE } from "./steps/search-content";
import { NO_PAPERS_HINT, NO_PAPERS_MESSAGE, SUMMARY_SEARCH, summarySearchStep } from "./steps/search-summaries";
import { synthesisStep } from "./steps/synthesis";
import { mockModel, sourcesInPrompt, testResearchDeps, testStepContext } from "./testing";
import type { ResearchEvent, ResearchRunState } from "./types";
import { warmUpResearch } from "./warmup";

const ATTENTION = [
  "arXiv:2001.00001v1 [cs.CL] 2 Jan 2020\nScaled Attention for Sequence Transduction\nAda Lovelace\nAbstract\nWe propose an attention-only encoder-decoder for translation that trains faster than recurrent models.",
  "3.2 Scaled Dot-Product Attention\nWe divide the dot products of queries and keys by the square root of the key dimension. For large dimensions the dot products grow large in magnitude, pushing the softmax function into regions where it has extremely small gradients. Scaling counteracts this effect and keeps gradients healthy.",
  "5 Training\nWe trained on eight GPUs for three days with the Adam optimizer and label smoothing of 0.1. Dropout was applied to the output of each sub-layer before the residual connection.",
];
const LORA = [
  "arXiv:2106.00002v2 [cs.LG] 1 Jun 2021\nLow-Rank Adapters for Large Language Models\nAlan Turing\nAbstract\nWe freeze the pretrained weights and train small low-rank update matrices for each downstream task.",
  "4.1 No Additional Inference Latency\nWhen deployed in production, the low-rank update is merged into the frozen weight matrix, so the adapted model runs exactly as fast as the original one. There is no extra latency at inference time compared with full fine-tuning.",
];

let handle: DbHandle;
let lib: TestLibrary;
let embedder: EmbeddingProvider;

beforeAll(async () => {
  lib = await createTestLibrary([ATTENTION, LORA], { name: "research" });
  handle = lib.handle;
  embedder = lib.embedder;
});

afterAll(async () => {
  await lib?.close();
});

const deps = (over: Partial<ResearchDeps> = {}) => testResearchDeps(lib, over);

async function run(question: string, over: Partial<ResearchDeps> = {}, signal?: AbortSignal) {
  const events: ResearchEvent[] = [];
  const state = await runResearch(deps(over), question, { runId: "test", signal, onEvent: (e) => events.push(e) });
  return { state, events };
}

const QUESTION = "Why are the dot products divided by the square root of the key dimension?";

/** An answer that cites the first sentence of each source in the prompt, as a well-behaved model would. */
function citingModel(opts: { judge?: (prompt: string) => string; delayMs?: number } = {}) {
  const calls: string[] = [];
  const model = mockModel({
    delayMs: opts.delayMs,
    reply: (prompt, kind) => {
      calls.push(prompt);
      if (kind === "stream") {
        const sources = sourcesInPrompt(prompt).slice(0, 2);
        return `## Answer\n\n${sources.map((s) => `${s.firstSentence} ${s.citation}`).join(" ")}`;
      }
      if (prompt.includes("CLAIM:")) return opts.judge?.(prompt) ?? '{"verdicts": []}';
      if (prompt.includes("Intent:")) return '{"queries": ["scaling of attention logits"]}';
      return '{"intent": "technical", "confidence": 0.9, "keywords": ["dot products", "square root"]}';
    },
  });
  return { model, calls };
}

describe("runResearch, offline", () => {
  it("runs every step in order and answers with verified citations", async () => {
    const { state, events } = await run(QUESTION);
    expect(events[0]?.kind).toBe("run_started");
    expect(events.at(-1)).toMatchObject({ kind: "run_finished", status: "completed" });
    // each step goes pending → in_progress → completed, in plan order
    const order = [
      "analysis",
      "query_expansion",
      "search_summaries",
      "search_content",
      "synthesis",
      "verification",
      "formatting",
    ];
    const firstStart = order.map((id) =>
      events.findIndex((e) => e.kind === "step" && e.step.id === id && e.step.status === "in_progress"),
    );
    expect(firstStart.every((i) => i > 0)).toBe(true);
    expect([...firstStart].sort((a, b) => a - b)).toEqual(firstStart);
    expect(state.steps.map((s) => [s.id, s.status])).toEqual(order.map((id) => [id, "completed"]));
    for (const s of state.steps) {
      expect(s.durationMs).toBeGreaterThanOrEqual(0);
      expect(s.startedAt).not.toBeNull();
    }
    const summaries = state.steps.find((s) => s.id === "search_summaries");
    expect(summaries?.type).toBe("rag_search");
    expect(summaries?.type === "rag_search" && summaries.stage).toBe("summaries");
    expect(summaries?.data).toEqual({ papers: expect.arrayContaining(["2001.00001v1"]) });
    expect(summaries?.sources[0]?.paperId).toBe("2001.00001v1");
    const content = state.steps.find((s) => s.id === "search_content");
    expect(content?.sources.some((s) => s.paperId === "2001.00001v1" && s.page === 2)).toBe(true);
    // a passage's chip carries its section only when one was found: page 2 has none (its "3.2" and page 3's "5" make
    // no numbering, and page 1's abstract reaches no further than its page)
    const chip = content?.sources.find((s) => s.paperId === "2001.00001v1" && s.page === 2);
    expect(chip).toBeDefined();
    expect(chip && "section" in chip).toBe(false);
    const expansion = state.steps.find((s) => s.id === "query_expansion");
    expect(expansion?.queries[0]).toBe(QUESTION);
    expect(expansion?.queries.length).toBeLessThanOrEqual(6);

    expect(state.mode).toBe("offline");
    expect(state.answer).toMatch(/^## Answer/);
    expect(state.answer).toContain("[2001.00001v1, page 2]");
    expect(state.answer).toMatch(/## References\n\n1\. \*\*2001\.00001v1\*\* — Scaled Attention/);
    expect(state.citations.length).toBeGreaterThan(0);
    expect(state.citations.every((c) => c.supported && c.chunkUid)).toBe(true);
    const onPage2 = state.citations.find((c) => c.page === 2);
    expect(onPage2?.quote).toMatch(/square root of the key dimension|grow large in magnitude/);
    expect(state.references.map((r) => r.paperId)).toContain("2001.00001v1");
    const verification = state.steps.find((s) => s.id === "verification");
    expect(verification?.data).toMatchObject({ unsupported: 0 });
    expect(verification?.confidence).toBe(1);
    expect(events.filter((e) => e.kind === "answer_delta").length).toBeGreaterThan(0);
  });

  it("says, in plain words, that no paper is about a topic the library lacks; the steps after it are skipped", async () => {
    const q = "coral reef photosynthesis in tropical oceans";
    const { state, events } = await run(q);
    expect(state.status).toBe("failed");
    expect(state.error).toEqual({ code: "no_papers", message: NO_PAPERS_MESSAGE, hint: NO_PAPERS_HINT });
    expect(state.error?.message).toBe("No paper in the library is about this question.");
    const statuses = state.steps.map((s) => [s.id, s.status]);
    const at = state.steps.findIndex((s) => s.id === "search_summaries");
    expect(statuses.slice(0, at + 1).map(([, st]) => st)).toEqual([...Array(at).fill("completed"), "failed"]);
    expect(statuses.slice(at + 1)).toEqual(state.steps.slice(at + 1).map((s) => [s.id, "skipped"]));
    expect(statuses.slice(at + 1).map(([id]) => id)).toContain("synthesis");
    // streamed (and so saved) before the run's end, like any change of a step
    const finished = events.findIndex((e) => e.kind === "run_finished");
    const skipped = events.findIndex(
      (e) => e.kind === "step" && e.step.id === "synthesis" && e.step.status === "skipped",
    );
    expect(skipped).toBeGreaterThan(0);
    expect(skipped).toBeLessThan(finished);
  });

  it("rejects an empty or wordless question with a clear message", async () => {
    for (const q of ["", "   ", "?!… 🙂", "x".repeat(20_000)]) {
      const { state } = await run(q);
      expect(state.status).toBe("failed");
      expect(state.error?.code).toBe("bad_request");
      expect(state.error?.message.length).toBeGreaterThan(10);
    }
  });

  it("survives hostile text: tsquery operators, quotes and SQL", async () => {
    const { state } = await run(`square root"); DROP TABLE chunks; -- & | ! :* (( key dimension`);
    expect(["completed", "failed"]).toContain(state.status);
    if (state.status === "failed") expect(state.error?.code).toBe("no_papers");
    const [row] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from chunks`);
    expect(Number(row?.n)).toBeGreaterThan(0);
  });

  it("tells the caller what the offline answer was composed from, and composing from it gives that answer", async () => {
    const composed: ComposedFrom[] = [];
    const state = await runResearch(deps(), QUESTION, {
      runId: "composed",
      onEvent: () => {},
      onComposed: (c) => composed.push(c),
    });
    expect(state.status).toBe("completed");
    expect(composed).toHaveLength(1);
    const [c] = composed as [ComposedFrom];
    expect(c.question).toBe(QUESTION);
    expect(c.evidence.length).toBeGreaterThan(0);
    // the answer is the composer's output on exactly this input, then the references (the benchmark's fit relies on it)
    const body = synthesizeExtractive(c.question, c.evidence, { intent: c.intent, keywords: c.keywords });
    expect(body).toContain("[2001.00001v1, page 2]");
    expect(state.answer?.split("\n\n## References\n")[0]).toBe(body);
  });

  it("goes on, and warns, when the onComposed hook throws or changes what it was given", async () => {
    const plain = await run(QUESTION);
    const state = await runResearch(deps(), QUESTION, {
      runId: "composed-throws",
      onEvent: () => {},
      onComposed: (c) => {
        for (const e of c.evidence) e.text = "Tampered.";
        throw new Error("evaluation broke");
      },
    });
    expect(state.status).toBe("completed");
    expect(state.answer).toBe(plain.state.answer);
    expect(state.warnings).toContain("The run's onComposed hook failed: evaluation broke");
  });

  it("stops when cancelled and says so", async () => {
    const controller = new AbortController();
    const events: ResearchEvent[] = [];
    const state = await runResearch(deps(), QUESTION, {
      runId: "cancel",
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.kind === "step" && e.step.id === "query_expansion" && e.step.status === "in_progress") {
          controller.abort(new Error("cancelled"));
        }
      },
    });
    expect(state.status).toBe("cancelled");
    expect(state.error?.code).toBe("cancelled");
    // the step running when it was cancelled is stopped; the ones it never reached are skipped
    expect(state.steps.find((s) => s.id === "query_expansion")?.error?.code).toBe("cancelled");
    expect(state.steps.find((s) => s.id === "synthesis")?.status).toBe("skipped");
    expect(state.steps.some((s) => s.status === "pending" || s.status === "in_progress")).toBe(false);
  });
});

describe("runResearch with a model (AI SDK mocks)", () => {
  it("streams the model's answer token by token and verifies its citations", async () => {
    const { model, calls } = citingModel({ judge: () => '{"verdicts": [{"i": 1, "supported": true}]}' });
    const { state, events } = await run("RWKV scaling", { chatModel: model });
    // "RWKV scaling" has no rule intent: the model is asked (and its expansion used)
    expect(state.steps[0]?.data).toMatchObject({ intent: "technical", method: "llm" });
    expect(state.steps[1]?.queries).toContain("scaling of attention logits");
    expect(state.mode).toBe("llm");
    expect(state.model).toBe("mock-model");
    const deltas = events.filter((e) => e.kind === "answer_delta");
    expect(deltas.length).toBeGreaterThan(3);
    const synthesisPrompt = calls.find((c) => c.includes("Do not use outside knowledge"));
    expect(synthesisPrompt).toBeDefined();
    expect(state.status).toBe("completed");
    expect(state.citations.length).toBeGreaterThan(0);
    expect(state.citations.every((c) => c.supported)).toBe(true);
    expect(state.steps.find((s) => s.id === "verification")?.data).toMatchObject({ method: "llm" });
  });

  it("searches the summaries with the queries it already has while the model writes its own", async () => {
    const log: string[] = [];
    // the model's queries come back only once the search ahead has embedded (whatever the machine's speed)
    let embedded = () => {};
    const firstEmbed = new Promise<void>((r) => {
      embedded = r;
    });
    const recording: EmbeddingProvider = {
      ...embedder,
      embed: async (texts, o) => {
        log.push(`embed ${JSON.stringify(texts)}`);
        embedded();
        return embedder.embed(texts, o);
      },
    };
    const { model } = citingModel();
    const inner = model.doGenerate.bind(model);
    model.doGenerate = async (options) => {
      const r = await inner(options);
      if (JSON.stringify(options.prompt).includes("Intent:")) await firstEmbed;
      const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      if (text.includes('"queries"')) log.push("model queries returned");
      return r;
    };
    const { state } = await run(QUESTION, { chatModel: model, embedder: recording });
    expect(state.status).toBe("completed");
    const queries = state.steps.find((s) => s.id === "query_expansion")?.queries ?? [];
    expect(queries).toContain("scaling of attention logits");
    const returned = log.indexOf("model queries returned");
    expect(returned).toBeGreaterThan(0);
    // before the model's queries came back, the question and the rules' queries were already being searched
    const before = log.slice(0, returned).filter((l) => l.startsWith("embed"));
    expect(before).toHaveLength(1);
    expect(JSON.parse((before[0] as string).slice(6))).toContain(QUESTION);
    // afterwards the summary search embedded only the model's new query; the full text search embedded them all
    const after = log.slice(returned + 1).map((l) => JSON.parse(l.slice(6)) as string[]);
    expect(after[0]).toEqual(["scaling of attention logits"]);
    expect(after[1]).toEqual(queries);
    // and the shortlist is what one search with every query finds
    const direct = await searchSummaries(handle.db, queries, embedder, SUMMARY_SEARCH);
    expect(state.steps.find((s) => s.id === "search_summaries")?.data).toMatchObject({
      papers: direct.map((p) => p.paperId),
    });
  });

  it("stops the model's expansion call when the step fails for another reason", async () => {
    // the call either never reaches the model (the SDK sees the aborted signal) or is aborted in flight; without
    // the step's own abort it would run to completion after the run had already failed
    let outcome: Promise<string> = Promise.resolve("not called");
    const { model } = citingModel({ delayMs: 300 });
    const inner = model.doGenerate.bind(model);
    model.doGenerate = (options) => {
      const p = inner(options);
      if (JSON.stringify(options.prompt).includes("Intent:")) {
        outcome = Promise.resolve(p).then(
          () => "completed",
          () => "aborted",
        );
      }
      return p;
    };
    const away = Object.create(handle.db) as DbHandle["db"];
    away.execute = (() => Promise.reject(new Error("database went away"))) as unknown as DbHandle["db"]["execute"];
    const { state } = await run(QUESTION, { chatModel: model, db: away });
    expect(state.status).toBe("failed");
    expect(state.steps.find((s) => s.id === "query_expansion")?.status).toBe("failed");
    // an unexpected error's own text stays in the server's log
    expect(state.error?.message).toBe("Something went wrong on our side. The details were logged.");
    // the SDK calls the model a few ticks after the request: give it the time to get there
    await new Promise((r) => setTimeout(r, 100));
    expect(["aborted", "not called"]).toContain(await outcome);
  });

  it("shows what the model judge rejects as unsupported, with its reason", async () => {
    const { model } = citingModel({
      judge: () => '{"verdicts": [{"i": 1, "supported": false, "reason": "The passage says otherwise."}]}',
    });
    const { state } = await run(QUESTION, { chatModel: model });
    expect(state.citations[0]).toMatchObject({ supported: false, reason: "The passage says otherwise." });
    expect(state.steps.find((s) => s.id === "verification")?.data).toMatchObject({ unsupported: 1 });
  });

  it("drops a claim the judge finds off-topic from the answer, counts it, and shows each kept claim's relevance", async () => {
    const model = mockModel({
      reply: (prompt, kind) => {
        const [first] = sourcesInPrompt(prompt);
        if (kind === "stream") {
          const claim = "We divide the dot products of queries and keys by the square root of the key dimension.";
          return `## Answer\n\n${claim} ${first?.citation} The weather in Paris is mild. ${first?.citation}`;
        }
        if (prompt.includes("CLAIM:")) {
          return JSON.stringify({
            verdicts: [
              { i: 1, supported: true, relevance: "relevant", relevance_reason: "states the reason" },
              { i: 2, supported: false, relevance: "off_topic", relevance_reason: "about the weather" },
            ],
          });
        }
        if (prompt.includes("Passages:")) return '{"scores": [{"i": 1, "score": 9, "reason": "on the point"}]}';
        return '{"intent": "technical", "confidence": 0.9, "keywords": ["dot products", "square root"]}';
      },
    });
    const { state } = await run(QUESTION, { chatModel: model });
    expect(state.status).toBe("completed");
    expect(state.answer).not.toContain("weather");
    expect(state.citations).toHaveLength(1);
    expect(state.citations[0]).toMatchObject({ index: 1, relevance: "relevant", relevanceReason: "states the reason" });
    const verification = state.steps.find((s) => s.id === "verification");
    expect(verification?.data).toMatchObject({ total: 1, offTopic: 1, relevant: 1 });
    expect(verification?.reasoning).toContain("1 off-topic sentence was dropped");
  });

  it("declines a question about things no paper of the library mentions, not one whose rest it answers", async () => {
    // the synthesis step on its own, given a passage the search might bring for a question mostly not about it
    const [row] = await queryRows<{
      chunk_uid: string;
      paper_id: string;
      page_number: number;
      char_start: number;
      char_end: number;
      text: string;
    }>(
      handle.db,
      sql`select chunk_uid, paper_id, page_number, char_start, char_end, text from chunks where text like '%square root%' limit 1`,
    );
    const evidence = [
      {
        chunkUid: row?.chunk_uid ?? "",
        paperId: row?.paper_id ?? "",
        title: "Scaled Attention for Sequence Transduction",
        page: row?.page_number ?? 0,
        charStart: row?.char_start ?? 0,
        charEnd: row?.char_end ?? 0,
        text: row?.text ?? "",
      },
    ];
    const synthesize = (question: string, over: Partial<ResearchDeps> = {}) =>
      synthesisStep.run(testStepContext(deps(over), question), { evidence, analysis: analyzeWithRules(question) });
    // this library is two short papers: its vocabulary counts only with the minimum lowered
    const small = { vocabularyMinPassages: 1 };
    const asked =
      "How much energy do frozen adapters save in translation latency per dot product on neuromorphic Loihi chips?";
    const declined = await synthesize(asked, small).then(
      () => null,
      (e: unknown) => e,
    );
    expect(declined).toBeInstanceOf(StepError);
    expect((declined as StepError).detail).toMatchObject({ code: "no_answer" });
    expect((declined as StepError).detail.message).toMatch(
      /no paper in it mentions .*“neuromorphic”, “Loihi” or “chips”/,
    );
    expect((declined as StepError).detail.hint).toContain("misspelled");
    // at its default, a library this small is not judged by the words it lacks
    expect((await synthesize(asked)).result).toContain("dot products");
    // the same unknown words beside a question the passages answer: answered
    const mostly = await run(
      "Why are the dot products scaled by the square root of the key dimension on neuromorphic Loihi chips?",
      small,
    );
    expect(mostly.state.status).toBe("completed");
    expect(mostly.state.answer).toContain("square root");
  });

  it("ends with no_answer when the judge finds every cited sentence off the question", async () => {
    const model = mockModel({
      reply: (prompt, kind) => {
        const [first] = sourcesInPrompt(prompt);
        if (kind === "stream") return `## Answer\n\nThe weather in Paris is mild. ${first?.citation}`;
        if (prompt.includes("CLAIM:")) {
          return '{"verdicts": [{"i": 1, "supported": false, "relevance": "off_topic", "relevance_reason": "weather"}]}';
        }
        if (prompt.includes("Passages:")) return '{"scores": [{"i": 1, "score": 9, "reason": "on the point"}]}';
        return '{"intent": "technical", "confidence": 0.9, "keywords": ["dot products", "square root"]}';
      },
    });
    const { state } = await run(QUESTION, { chatModel: model });
    expect(state.status).toBe("failed");
    expect(state.error).toMatchObject({ code: "no_answer" });
    expect(state.error?.message).toContain("was off the question");
  });

  it("falls back to the offline path when every model call fails", async () => {
    const failing = mockModel({
      reply: () => {
        throw new Error("connection refused");
      },
    });
    const { state } = await run(QUESTION, { chatModel: failing });
    expect(state.status).toBe("completed");
    expect(state.warnings.some((w) => w.startsWith("Failed to synthesize research answer: connection refused"))).toBe(
      true,
    );
    expect(state.steps.find((s) => s.id === "synthesis")?.data).toMatchObject({ method: "extractive", fallback: true });
    expect(state.citations.length).toBeGreaterThan(0);
    expect(state.citations.every((c) => c.supported)).toBe(true);
  });

  it("abandons a model call after its timeout and carries on offline", async () => {
    const { model } = citingModel({ delayMs: 5_000 });
    const { state } = await run("RWKV scaling dot products", { chatModel: model, llmTimeoutMs: 100 });
    // (the abort reason is worded by the runtime or the SDK: only the fallback is asserted)
    expect(state.warnings.some((w) => w.startsWith("Query analysis fell back to rules:"))).toBe(true);
    expect(state.status).toBe("completed");
    expect(state.steps[0]?.data).toMatchObject({ method: "rules" });
    expect(state.warnings.some((w) => w.startsWith("Failed to synthesize research answer:"))).toBe(true);
  });

  it("abandons a streamed answer the model stops sending mid-stream, and shows the extractive answer", async () => {
    const model = mockModel({
      reply: (prompt, kind) =>
        kind === "stream"
          ? `## Answer\n\n${sourcesInPrompt(prompt)[0]?.firstSentence} and then the server went quiet`
          : '{"intent": "technical", "confidence": 0.9, "keywords": ["dot products", "square root"]}',
      stallStreamAfterChars: 20,
    });
    // the run may last 30 s: only the per-call timeout can end the stalled stream this early
    const { state, events } = await run(QUESTION, { chatModel: model, llmTimeoutMs: 300, runTimeoutMs: 30_000 });
    expect(state.status).toBe("completed");
    const synthesis = state.steps.find((s) => s.id === "synthesis");
    expect(synthesis?.status).toBe("completed");
    expect(synthesis?.data).toMatchObject({ method: "extractive", fallback: true });
    expect(synthesis?.type === "synthesis" && synthesis.data?.modelError).toMatch(/sent nothing for 300 ms/);
    expect(state.warnings.some((w) => /^Failed to synthesize research answer: The model sent nothing/.test(w))).toBe(
      true,
    );
    // the final answer is the extractive one (whatever the model had sent before it went quiet is replaced)
    expect(events.some((e) => e.kind === "answer_delta")).toBe(true);
    expect(state.answer).not.toContain("the server went quiet");
    expect(state.citations.length).toBeGreaterThan(0);
  });

  it("lets the model re-rank the passages: the one it scores best leads the evidence synthesis sees", async () => {
    const prompts: string[] = [];
    const model = mockModel({
      reply: (prompt, kind) => {
        prompts.push(prompt);
        if (kind === "stream")
          return `## Answer\n\n${sourcesInPrompt(prompt)[0]?.firstSentence} ${sourcesInPrompt(prompt)[0]?.citation}`;
        if (prompt.includes("Passages:")) {
          // the training passage (eight GPUs) is what this model finds best; the rest are weak
          const n = (prompt.match(/^#\d+ — /gm) ?? []).length;
          const blocks = prompt.split(/^#\d+ — /m).slice(1);
          const scores = Array.from({ length: n }, (_, i) => ({
            i: i + 1,
            score: blocks[i]?.includes("eight GPUs") ? 10 : 1,
            reason: blocks[i]?.includes("eight GPUs") ? "states the hardware" : "off the point",
          }));
          return JSON.stringify({ scores });
        }
        if (prompt.includes("CLAIM:")) return '{"verdicts": []}';
        if (prompt.includes("Intent:")) return '{"queries": ["training hardware"]}';
        return '{"intent": "technical", "confidence": 0.9, "keywords": ["training", "GPUs"]}';
      },
    });
    const { state } = await run("How was the scaled attention encoder-decoder trained?", { chatModel: model });
    expect(state.error).toBeUndefined();
    expect(state.status).toBe("completed");
    const step = state.steps.find((s) => s.id === "model_rerank");
    expect(step?.status).toBe("completed");
    expect(step?.type === "model_rerank" && step.data).toMatchObject({ method: "llm" });
    const data = step?.type === "model_rerank" ? step.data : null;
    expect(data?.verdicts[0]).toMatchObject({ score: 10, reason: "states the hardware" });
    expect(step?.sources[0]?.excerpt).toContain("eight GPUs");
    // …which the search had not ranked first
    const searched = state.steps.find((s) => s.id === "search_content")?.sources ?? [];
    expect(searched.findIndex((s) => s.excerpt.includes("eight GPUs"))).toBeGreaterThan(0);
    // the synthesis prompt lists the model's choice first
    const synthesisPrompt = prompts.find((p) => sourcesInPrompt(p).length > 0 && !p.includes("Passages:")) ?? "";
    expect(synthesisPrompt.indexOf("eight GPUs")).toBeGreaterThan(-1);
    expect(synthesisPrompt.indexOf("eight GPUs")).toBeLessThan(synthesisPrompt.indexOf("square root") >>> 0);
    expect(state.warnings.filter((w) => w.includes("re-rank"))).toEqual([]);
  });

  it("keeps the search's ranking, with a warning, when the model's re-ranking is malformed or too slow", async () => {
    const malformed = mockModel({
      reply: (prompt, kind) =>
        kind === "stream"
          ? `## Answer\n\n${sourcesInPrompt(prompt)[0]?.firstSentence} ${sourcesInPrompt(prompt)[0]?.citation}`
          : prompt.includes("Passages:")
            ? "Sure! Passage 1 is great."
            : '{"intent": "technical", "confidence": 0.9, "keywords": ["dot products"]}',
    });
    const a = (await run(QUESTION, { chatModel: malformed })).state;
    expect(a.status).toBe("completed");
    const stepA = a.steps.find((s) => s.id === "model_rerank");
    expect(stepA?.type === "model_rerank" && stepA.data?.method).toBe("fallback");
    expect(a.warnings.some((w) => w.startsWith("The model could not re-rank the passages"))).toBe(true);
    expect(a.citations.length).toBeGreaterThan(0);

    const { model: slow } = citingModel({ delayMs: 2_000 });
    const b = (await run(QUESTION, { chatModel: slow, llmTimeoutMs: 100 })).state;
    expect(b.status).toBe("completed");
    const stepB = b.steps.find((s) => s.id === "model_rerank");
    expect(stepB?.type === "model_rerank" && stepB.data?.method).toBe("fallback");
    expect(b.warnings.some((w) => w.startsWith("The model could not re-rank"))).toBe(true);
  });

  it("stops the whole run at its timeout", async () => {
    const { model } = citingModel({ delayMs: 5_000 });
    const { state } = await run("RWKV scaling", { chatModel: model, llmTimeoutMs: 10_000, runTimeoutMs: 200 });
    expect(state.status).toBe("failed");
    expect(state.error?.code).toBe("timeout");
    expect(state.error?.message).toMatch(/longer than 0 s|longer than/);
  });
});

describe("runs: background, persisted, replayable", () => {
  it("saves every step and the answer; the stored run reads back as it was", async () => {
    const started = startRun(deps(), QUESTION);
    const seen: ResearchEvent[] = [];
    for await (const e of started.events) seen.push(e);
    const final = (await waitForRun(started.runId)) as ResearchRunState;
    expect(started.runId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(seen[0]?.kind).toBe("run_started");
    const stored = await getRun(handle.db, started.runId);
    expect(stored).not.toBeNull();
    expect(stored?.status).toBe("completed");
    expect(stored?.answer).toBe(final.answer);
    expect(stored?.citations).toEqual(final.citations);
    expect(stored?.references).toEqual(final.references);
    expect(stored?.steps.map((s) => [s.id, s.status, s.durationMs])).toEqual(
      final.steps.map((s) => [s.id, s.status, s.durationMs]),
    );
    // what evaluation needs: retrieved chunk ids with ranks, per stage
    expect(stored?.retrieved.some((r) => r.stage === "content" && r.rank === 1)).toBe(true);
    expect(stored?.retrieved.some((r) => r.stage === "summaries")).toBe(true);
    // a late subscriber gets the whole run from the start
    const replay: ResearchEvent[] = [];
    for await (const e of subscribeRun(started.runId) ?? []) replay.push(e);
    expect(replay).toEqual(seen);
    expect(cancelRun(started.runId)).toBe(false);
    expect((await listRuns(handle.db)).some((r) => r.id === started.runId)).toBe(true);
    expect(await setFeedback(handle.db, started.runId, { rating: "helpful", comment: "clear" })).toBe(true);
    expect((await getRun(handle.db, started.runId))?.feedback).toMatchObject({ rating: "helpful", comment: "clear" });
    expect(await setFeedback(handle.db, "nope", { rating: "helpful" })).toBe(false);
    expect(await getRun(handle.db, "nope")).toBeNull();
  });

  it("streams a run's end only once it is saved: a page that shows it ended finds it ended in the database", async () => {
    const started = startRun(deps(), QUESTION);
    for await (const e of started.events) {
      if (e.kind !== "run_finished") continue;
      // read at once, as an export, a reload or another instance would
      const stored = await getRun(handle.db, started.runId);
      expect(stored?.status).toBe(e.status);
      expect(stored?.answer).not.toBeNull();
    }
    await waitForRun(started.runId);
  });

  it("streams a run's start only once it is saved: a page that learns its address finds it in the database", async () => {
    // a database whose transactions (the run's insert is one) start late, as under load
    const slow = new Proxy(handle.db, {
      get(target, prop, receiver) {
        if (prop === "transaction") {
          return async (...args: Parameters<typeof target.transaction>) => {
            await new Promise((r) => setTimeout(r, 100));
            return target.transaction(...args);
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const started = startRun(deps({ db: slow }), QUESTION);
    for await (const e of started.events) {
      expect(e.kind).toBe("run_started");
      // read at once, as a reload or another instance would
      expect(await getRun(handle.db, started.runId)).not.toBeNull();
      break;
    }
    await waitForRun(started.runId);
  });

  it("cancels a run in flight and stores it as cancelled", async () => {
    const { model } = citingModel({ delayMs: 2_000 });
    const started = startRun(deps({ chatModel: model }), "RWKV scaling");
    // wait for the first step to be under way, then cancel
    for await (const e of started.events) {
      if (e.kind === "step" && e.step.status === "in_progress") {
        expect(cancelRun(started.runId)).toBe(true);
        break;
      }
    }
    await waitForRun(started.runId);
    const stored = await getRun(handle.db, started.runId);
    expect(stored?.status).toBe("cancelled");
    expect(stored?.error?.code).toBe("cancelled");
  });
});

describe("runResearch with a misspelt question", () => {
  it("searches the word as the library spells it, says so on the full-text card, and answers", async () => {
    const { state } = await run(
      "Why are the dot products divided by the square root of the key dimension in atention?",
    );
    const content = state.steps.find((s) => s.id === "search_content");
    expect(content?.reasoning).toContain("Searched “atention” as “attention”");
    expect(state.status).toBe("completed");
    expect(state.answer).toContain("square root of the key dimension");
  });
});

describe("the full-text step when nothing matches the question well enough", () => {
  it("says so, not that the index is broken", async () => {
    const question = "Why are the dot products divided by the square root of the key dimension?";
    const [lora] = await queryRows<{ id: string }>(handle.db, sql`select id from papers where title like 'Low-Rank%'`);
    expect(lora).toBeDefined();
    const warnings: string[] = [];
    const ctx = { ...testStepContext<never>(deps(), question), warn: (m: string) => warnings.push(m) };
    // only the adapters paper shortlisted: it is indexed, and none of its passages is about dot products
    const shortlist = [
      {
        paperId: lora?.id as string,
        title: "",
        year: null,
        authors: [],
        score: 1,
        relevance: 1,
        passages: [],
        queries: [],
      },
    ];
    const failure = await contentSearchStep
      .run(ctx, { queries: [question], papers: shortlist, analysis: analyzeWithRules(question) })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(StepError);
    expect((failure as StepError).detail).toMatchObject({ code: "no_content", message: NO_MATCH_MESSAGE });
    expect((failure as StepError).detail.hint).not.toMatch(/reembed/);
    // …and with the web to fall back on, no index warning either
    const fallback = await contentSearchStep.run(ctx, {
      queries: [question],
      papers: shortlist,
      analysis: analyzeWithRules(question),
      orElse: "web",
    });
    expect(fallback.result).toEqual([]);
    expect(warnings).toEqual([]);
  });
});

describe("runResearch when the index is broken", () => {
  it("says no content was found and how to rebuild the index", async () => {
    await handle.db.execute(sql`delete from chunks`);
    const { state } = await run(QUESTION);
    expect(state.status).toBe("failed");
    expect(state.error?.code).toBe("no_content");
    expect(state.error?.message).toBe(NO_CONTENT_MESSAGE);
    expect(state.error?.hint).toMatch(/reembed/);
  });
});

describe("warmUpResearch", () => {
  it("runs one offline question over the library, saving nothing and calling no model", async () => {
    const before = await listRuns(handle.db, { limit: 100 });
    const w = await warmUpResearch({ db: handle.db, embedder });
    // (earlier tests here leave papers whose index is broken: the run may end failed; it still ran every stage it
    // reached, which is what warms the caches)
    expect(w.ran).toBe("research");
    expect(["completed", "failed"]).toContain(w.status);
    expect((await listRuns(handle.db, { limit: 100 })).length).toBe(before.length);
  });

  it("with a remote embedder, warms the full-text searches only (no embedding call)", async () => {
    const remote: EmbeddingProvider = {
      kind: "openai",
      model: "text-embedding-3-small",
      dimensions: 512,
      embed: async () => {
        throw new Error("no embedding calls in a warm-up");
      },
    };
    expect((await warmUpResearch({ db: handle.db, embedder: remote })).ran).toBe("full-text");
  });

  it("never throws: a database that is away only means no warm-up", async () => {
    const away = {
      select: () => {
        throw new Error("connection refused");
      },
    } as unknown as DbHandle["db"];
    expect(await warmUpResearch({ db: away, embedder })).toMatchObject({ ran: "nothing", error: "connection refused" });
  });
});

describe("interrupted runs", () => {
  const insert = (id: string, startedAt: Date) =>
    insertRun(handle.db, {
      id,
      question: "q",
      mode: "offline",
      model: "extractive",
      startedAt: startedAt.toISOString(),
      steps: [
        { ...analysisStep.card(), status: "completed", startedAt: startedAt.toISOString(), durationMs: 3 },
        { ...expansionStep.card(), status: "in_progress", startedAt: startedAt.toISOString() },
        summarySearchStep.card(),
      ],
    });

  it("marks every run left running on the embedded database interrupted at start (one process holds it)", async () => {
    const now = new Date();
    await insert("left-1", new Date(now.getTime() - 5_000));
    await insert("left-2", new Date(now.getTime() - 3_600_000));
    const n = await recoverInterruptedRuns(handle.db, { driver: "pglite", runTimeoutMs: 180_000, now });
    expect(n).toBe(2);
    for (const id of ["left-1", "left-2"]) {
      const run = await getRun(handle.db, id);
      expect(run?.status).toBe("interrupted");
      expect(run?.error).toEqual(INTERRUPTED_ERROR);
      // the step that was running when the server stopped is stopped with it, the ones after it skipped, the ones
      // before it as they were
      expect(run?.steps.map((s) => [s.id, s.status, s.error?.code])).toEqual([
        ["analysis", "completed", undefined],
        ["query_expansion", "failed", "interrupted"],
        ["search_summaries", "skipped", undefined],
      ]);
    }
    // a finished run is never touched
    expect(await recoverInterruptedRuns(handle.db, { driver: "pglite", runTimeoutMs: 180_000 })).toBe(0);
  });

  it("runs saved before skipped steps existed: the migration skips the pending steps of the ended ones", async () => {
    const at = new Date(Date.now() - 60_000);
    await insert("legacy-ended", at);
    await finishRun(handle.db, "legacy-ended", { status: "failed", durationMs: 5 });
    await insert("legacy-running", new Date());
    const migration = readFileSync(
      fileURLToPath(new URL("../../drizzle/0019_skipped_steps.sql", import.meta.url)),
      "utf8",
    );
    await handle.db.execute(sql.raw(migration));
    const ended = await getRun(handle.db, "legacy-ended");
    expect(ended?.steps.map((s) => [s.id, s.status])).toEqual([
      ["analysis", "completed"],
      ["query_expansion", "in_progress"],
      ["search_summaries", "skipped"],
    ]);
    // the payload, which the page reads, says so too; a run still going is left alone
    const running = await getRun(handle.db, "legacy-running");
    expect(running?.steps.map((s) => s.status)).toEqual(["completed", "in_progress", "pending"]);
    await finishRun(handle.db, "legacy-running", { status: "completed", durationMs: 1 });
  });

  it("on PostgreSQL marks only the runs older than a run may last (other instances may be running the rest)", async () => {
    const now = new Date();
    await insert("pg-old", new Date(now.getTime() - 3_600_000));
    await insert("pg-new", new Date(now.getTime() - 5_000));
    expect(await recoverInterruptedRuns(handle.db, { driver: "postgres", runTimeoutMs: 180_000, now })).toBe(1);
    expect((await getRun(handle.db, "pg-old"))?.status).toBe("interrupted");
    expect((await getRun(handle.db, "pg-new"))?.status).toBe("running");
    await finishRun(handle.db, "pg-new", { status: "completed", durationMs: 1 });
  });
});

describe("event loop", () => {
  it("lets timers and I/O run while a run is working (so a streamed response is written as it goes)", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const seen: number[] = [];
    try {
      await runResearch(deps(), QUESTION, { runId: "loop", onEvent: () => seen.push(ticks) });
    } finally {
      clearInterval(timer);
    }
    // timers fired between the first event and the last: the run did not hold the event loop
    expect((seen.at(-1) ?? 0) - (seen[0] ?? 0)).toBeGreaterThan(0);
  });
});
