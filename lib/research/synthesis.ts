import { type LanguageModel, streamText } from "ai";
import type { EvidencePassage } from "./citations";
import { citationOf } from "./compose";

export {
  type ComposeOptions as ExtractiveOptions,
  citationOf,
  citeSentence,
  type PickedSentence,
  pickSentences,
  quotedIn,
  synthesizeExtractive,
} from "./compose";

/** Evidence as the model sees it: numbered passages with the exact citation to use for each. */
export function evidenceBlock(evidence: EvidencePassage[], maxChars = 24_000): string {
  const out: string[] = [];
  let used = 0;
  for (const e of evidence) {
    const block = `Source ${citationOf(e.paperId, e.page)} — ${e.title}\n${e.text.trim()}`;
    if (used + block.length > maxChars && out.length > 0) break;
    out.push(block);
    used += block.length;
  }
  return out.join("\n\n---\n\n");
}

export const SYNTHESIS_INSTRUCTIONS =
  "You answer a researcher's question using ONLY the numbered source passages given. Do not use outside knowledge; " +
  "if the passages do not answer something, say so. Write markdown with short headings (##). Cite EVERY factual " +
  "sentence with the exact citation of its source as given, like [1706.03762v5, page 4], placed at the end of the " +
  "sentence; cite several sources as [A, page 1] [B, page 2]. Do not cite anything else and do not add a reference list.";

export function synthesisPrompt(question: string, evidence: EvidencePassage[]): string {
  return `Question: ${question}\n\nSources:\n\n${evidenceBlock(evidence)}\n\nWrite the cited answer.`;
}

/**
 * Streams the model's answer, calling `onDelta` with each piece; resolves to the whole text. Throws on a model error,
 * an empty answer, or when `signal` aborts (the orchestrator's timeout or cancellation).
 */
export async function synthesizeWithLlm(
  model: LanguageModel,
  question: string,
  evidence: EvidencePassage[],
  {
    signal,
    idleTimeoutMs,
    onDelta,
    prompt,
    instructions,
  }: {
    signal?: AbortSignal;
    /** Abandons the call when the model sends nothing for this long (before its first token, or mid-stream). */
    idleTimeoutMs?: number;
    onDelta?: (text: string) => void;
    prompt?: string;
    instructions?: string;
  } = {},
): Promise<string> {
  const idle = new AbortController();
  const result = streamText({
    model,
    instructions: instructions ?? SYNTHESIS_INSTRUCTIONS,
    prompt: prompt ?? synthesisPrompt(question, evidence),
    temperature: 0.2,
    maxOutputTokens: 1500,
    maxRetries: 0,
    abortSignal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal,
  });
  let text = "";
  const parts = idleTimeoutMs ? withIdleTimeout(result.fullStream, idleTimeoutMs, signal, idle) : result.fullStream;
  for await (const part of parts) {
    if (part.type === "text-delta") {
      text += part.text;
      onDelta?.(part.text);
    } else if (part.type === "error") {
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    } else if (part.type === "abort") {
      throw signal?.reason instanceof Error ? signal.reason : new Error("The model call was aborted.");
    }
  }
  if (text.trim().length === 0) throw new Error("The model returned an empty answer.");
  return text;
}

/**
 * The items of `source`, failing when none arrives for `ms` (the first one included) or when `signal` aborts — even
 * when the source itself never settles (a model that stops sending mid-stream, a provider that ignores its abort
 * signal). `idle` is aborted on a timeout, so the underlying call is asked to stop too.
 */
export async function* withIdleTimeout<T>(
  source: AsyncIterable<T>,
  ms: number,
  signal: AbortSignal | undefined,
  idle: AbortController = new AbortController(),
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    while (true) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort: (() => void) | undefined;
      const stop = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const e = new Error(
            `The model sent nothing for ${formatSeconds(ms)} and was stopped (LECTERN_LLM_TIMEOUT_MS).`,
          );
          idle.abort(e);
          reject(e);
        }, ms);
        if (signal) {
          onAbort = () =>
            reject(signal.reason instanceof Error ? signal.reason : new Error("The model call was aborted."));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }
      });
      try {
        const next = await Promise.race([iterator.next(), stop]);
        if (next.done) return;
        yield next.value;
      } finally {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener("abort", onAbort);
      }
    }
  } finally {
    // not awaited: a source that never settles would hold the caller here
    void iterator.return?.()?.catch(() => {});
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
