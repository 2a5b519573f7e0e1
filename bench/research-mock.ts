/**
 * A mock chat model for `bench/research.ts`: every call takes a fixed time, and the model records how long it spent
 * in each call, so a run's own overhead is its duration minus the time inside the model.
 *
 * - analysis (`classify research questions`): the rules' intent and keywords as JSON, confidence 0.8;
 * - expansion (`write search queries`): two keyword queries as JSON;
 * - judge (`check whether each claim`): a verdict per claim: supported when the claim is in the SOURCE it is shown
 *   (whitespace and case ignored) or ≥ 80 % of the claim's words are; the judge sees what the real one would see;
 * - synthesis (streamed): per source of the prompt (`Source [ID, page N] — title`), in order, up to `maxClaims`, the
 *   sentence that shares the most words with the question, cited with the source's own citation. The claims are
 *   the sources' words, so every citation names a retrieved page and is supported.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { splitSentences } from "@/lib/ingest/chunk";
import { analyzeWithRules } from "@/lib/research/analysis";

export type CallKind = "analysis" | "expansion" | "judge" | "synthesis" | "other";

export interface ModelCall {
  kind: CallKind;
  /** performance.now() at the call's start and at the end of its output (the stream's last part). */
  start: number;
  end: number;
}

export interface MockJudgeStats {
  claims: number;
  supported: number;
  /** Claims judged unsupported only because the judge's SOURCE is cut at 1,500 characters (the claim is further on). */
  cutOff: number;
}

const USAGE = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 50, text: 50, reasoning: 0 },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function promptText(options: LanguageModelV4CallOptions): { system: string; user: string } {
  let system = "";
  let user = "";
  for (const m of options.prompt) {
    if (m.role === "system") system += `${m.content}\n`;
    else if (m.role === "user") {
      for (const part of m.content) if (part.type === "text") user += `${part.text}\n`;
    }
  }
  return { system, user };
}

function kindOf(system: string): CallKind {
  if (/classify research questions/i.test(system)) return "analysis";
  if (/write search queries/i.test(system)) return "expansion";
  if (/check whether each claim/i.test(system)) return "judge";
  if (/answer a researcher's question/i.test(system)) return "synthesis";
  return "other";
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function wordShare(claim: string, source: string): number {
  const c = words(claim);
  if (c.length === 0) return 0;
  const s = new Set(words(source));
  return c.filter((w) => s.has(w)).length / c.length;
}

function supports(claim: string, source: string): boolean {
  return norm(source).includes(norm(claim)) || wordShare(claim, source) >= 0.8;
}

interface PromptSource {
  citation: string;
  text: string;
}

/** The sources of a synthesis prompt, as `evidenceBlock` writes them. */
export function parseSources(user: string): PromptSource[] {
  const body = user.split(/\nSources:\n\n/)[1] ?? "";
  const out: PromptSource[] = [];
  for (const block of body.split("\n\n---\n\n")) {
    const m = /^Source (\[[^\]]+, page \d+\]) — [^\n]*\n([\s\S]*)$/.exec(block);
    if (m)
      out.push({ citation: m[1] as string, text: (m[2] as string).replace(/\n\nWrite the cited answer\.\s*$/, "") });
  }
  return out;
}

function bestSentence(question: string, text: string): string | null {
  const q = new Set(words(question).filter((w) => w.length > 3));
  let best: { s: string; score: number } | null = null;
  for (const { text: s } of splitSentences(text)) {
    if (s.length < 40 || s.length > 400 || !/[.!?]$/.test(s)) continue;
    const score = words(s).filter((w) => q.has(w)).length;
    if (!best || score > best.score) best = { s, score };
  }
  return best?.s ?? null;
}

export function mockAnswer(user: string, maxClaims: number): string {
  const question = /^Question: (.*)$/m.exec(user)?.[1] ?? "";
  const claims: string[] = [];
  for (const src of parseSources(user)) {
    if (claims.length >= maxClaims) break;
    const s = bestSentence(question, src.text);
    if (!s || claims.some((c) => c.startsWith(s.slice(0, -1)))) continue;
    // the citation at the end of the sentence, before its full stop, as the instructions ask
    claims.push(`${s.slice(0, -1)} ${src.citation}${s.slice(-1)}`);
  }
  if (claims.length === 0) return "The sources do not answer this question.";
  const [lead, ...rest] = claims;
  return `## Answer\n\n${lead}\n\n${rest.length > 0 ? `## Evidence\n\n${rest.map((c) => `- ${c}`).join("\n")}\n` : ""}`;
}

function judge(user: string, lastSources: PromptSource[], stats: MockJudgeStats): string {
  const verdicts: { i: number; supported: boolean; reason?: string }[] = [];
  for (const m of user.matchAll(/^#(\d+)\nCLAIM: (.*)\nSOURCE: ([\s\S]*?)(?=\n\n#\d+\nCLAIM: |\n?$(?![\s\S]))/gm)) {
    const claim = m[2] as string;
    const source = m[3] as string;
    const ok = supports(claim, source);
    stats.claims++;
    if (ok) stats.supported++;
    else if (lastSources.some((s) => supports(claim, s.text))) stats.cutOff++;
    verdicts.push(
      ok ? { i: Number(m[1]), supported: true } : { i: Number(m[1]), supported: false, reason: "not in the source" },
    );
  }
  return JSON.stringify({ verdicts });
}

function reply(kind: CallKind, user: string, lastSources: PromptSource[], stats: MockJudgeStats): string {
  switch (kind) {
    case "analysis": {
      const question = /^Question: (.*)$/m.exec(user)?.[1] ?? user;
      const a = analyzeWithRules(question);
      return JSON.stringify({
        intent: a.intent === "unknown" ? "technical" : a.intent,
        confidence: 0.8,
        keywords: a.keywords,
        reason: "mock",
      });
    }
    case "expansion": {
      const kw = (/^Keywords: (.*)$/m.exec(user)?.[1] ?? "").split(", ").filter(Boolean);
      const queries = [kw.slice(0, 4).join(" "), kw.slice(2, 7).join(" ")].filter((q) => q.length >= 2);
      return `\`\`\`json\n${JSON.stringify({ queries })}\n\`\`\``;
    }
    case "judge":
      return judge(user, lastSources, stats);
    default:
      return "{}";
  }
}

export interface TimedMock {
  model: MockLanguageModelV4;
  calls: ModelCall[];
  judgeStats: MockJudgeStats;
}

/**
 * `latencyMs`: every call's duration. A generate call sleeps it, then returns; a streamed answer spends a third of it
 * before the first token and spreads the rest over its deltas (a few words each).
 */
export function timedMockModel({ latencyMs, maxClaims = 5 }: { latencyMs: number; maxClaims?: number }): TimedMock {
  const calls: ModelCall[] = [];
  const judgeStats: MockJudgeStats = { claims: 0, supported: 0, cutOff: 0 };
  let lastSources: PromptSource[] = [];
  const model = new MockLanguageModelV4({
    modelId: `mock-${latencyMs}ms`,
    doGenerate: async (options) => {
      const start = performance.now();
      const { system, user } = promptText(options);
      const kind = kindOf(system);
      const text = reply(kind, user, lastSources, judgeStats);
      await sleep(Math.max(0, latencyMs - (performance.now() - start)));
      calls.push({ kind, start, end: performance.now() });
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: USAGE,
        warnings: [],
      };
    },
    doStream: async (options) => {
      const start = performance.now();
      const { system, user } = promptText(options);
      const kind = kindOf(system);
      lastSources = parseSources(user);
      const answer = kind === "synthesis" ? mockAnswer(user, maxClaims) : reply(kind, user, lastSources, judgeStats);
      const pieces = answer.match(/(?:\S+\s*){1,4}|\s+/g) ?? [answer];
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
        ...pieces.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: "t", delta })),
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
      ];
      const first = latencyMs / 3;
      const stream = simulateReadableStream({
        chunks,
        initialDelayInMs: first,
        chunkDelayInMs: (latencyMs - first) / chunks.length,
      }).pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          flush() {
            calls.push({ kind, start, end: performance.now() });
          },
        }),
      );
      return { stream };
    },
  });
  return { model, calls, judgeStats };
}
