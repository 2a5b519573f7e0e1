import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { TestLibrary } from "@/lib/testing/library";
import type { ResearchDeps } from "./deps";
import type { StepContext } from "./lifecycle";
import type { ResearchStep } from "./types";

/**
 * Mock language models for tests and benchmarks of the research pipeline (the AI SDK's own mocks underneath).
 * `reply` decides the text from the prompt; `delayMs` is the model's latency, honouring the call's abort signal.
 */

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

/** The whole prompt of a call as text (instructions and messages). */
export function promptText(options: LanguageModelV4CallOptions): string {
  return options.prompt
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join(""),
    )
    .join("\n");
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error("aborted"));
      return;
    }
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason ?? new Error("aborted"));
      },
      { once: true },
    );
  });
}

export interface MockModelOptions {
  /** The reply to a call; throw to make the call fail. */
  reply: (prompt: string, kind: "generate" | "stream") => string;
  delayMs?: number;
  /** Pieces the streamed reply is cut into. */
  streamChunkChars?: number;
  modelId?: string;
  /** Sum of the time spent inside calls (for overhead measurements). */
  onCallTime?: (ms: number) => void;
  /** A streamed reply sends this many characters, then nothing more, never ending (and ignoring its abort signal). */
  stallStreamAfterChars?: number;
}

export function mockModel(o: MockModelOptions): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    modelId: o.modelId ?? "mock-model",
    doGenerate: async (options) => {
      const t0 = performance.now();
      try {
        await wait(o.delayMs ?? 0, options.abortSignal);
        const text = o.reply(promptText(options), "generate");
        return {
          content: [{ type: "text", text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      } finally {
        o.onCallTime?.(performance.now() - t0);
      }
    },
    doStream: async (options) => {
      const t0 = performance.now();
      try {
        await wait(o.delayMs ?? 0, options.abortSignal);
        const text = o.reply(promptText(options), "stream");
        const size = o.streamChunkChars ?? 12;
        const chunks: LanguageModelV4StreamPart[] = [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
        ];
        for (let i = 0; i < text.length; i += size)
          chunks.push({ type: "text-delta", id: "t", delta: text.slice(i, i + size) });
        if (o.stallStreamAfterChars !== undefined) {
          const sent = text.slice(0, o.stallStreamAfterChars);
          const stalled = new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              controller.enqueue({ type: "stream-start", warnings: [] });
              controller.enqueue({ type: "text-start", id: "t" });
              if (sent) controller.enqueue({ type: "text-delta", id: "t", delta: sent });
              // and then nothing, ever: a server that stopped responding mid-answer
            },
          });
          return { stream: stalled };
        }
        chunks.push(
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        );
        return { stream: simulateReadableStream({ chunks }) };
      } finally {
        o.onCallTime?.(performance.now() - t0);
      }
    },
  });
}

/** The `Source [ID, page N]` lines of a synthesis prompt, with each source's first sentence. */
export function sourcesInPrompt(prompt: string): { citation: string; firstSentence: string }[] {
  const out: { citation: string; firstSentence: string }[] = [];
  for (const m of prompt.matchAll(/Source (\[[^\]]+, page \d+\]) — [^\n]*\n([^\n]+)/g)) {
    const sentence = /^(.{20,300}?[.!?])(\s|$)/.exec(m[2] as string)?.[1] ?? (m[2] as string).slice(0, 200);
    out.push({ citation: m[1] as string, firstSentence: sentence });
  }
  return out;
}

/** Research over a test library: offline unless `over` brings a model; 5 s per model call, 30 s per run. */
export function testResearchDeps(
  lib: Pick<TestLibrary, "handle" | "embedder">,
  over: Partial<ResearchDeps> = {},
): ResearchDeps {
  return {
    db: lib.handle.db,
    embedder: lib.embedder,
    chatModel: null,
    llmTimeoutMs: 5_000,
    runTimeoutMs: 30_000,
    ...over,
  };
}

/** A step's context for calling a step's `run` directly in a test: never cancelled, warnings and deltas dropped. */
export function testStepContext<S extends ResearchStep>(deps: ResearchDeps, question: string): StepContext<S> {
  const controller = new AbortController();
  return {
    deps,
    question,
    llm: null,
    signal: controller.signal,
    callSignal: () => controller.signal,
    stopped: () => false,
    warn: () => {},
    delta: () => {},
    record: () => {},
    composed: () => {},
    progress: () => {},
  };
}
