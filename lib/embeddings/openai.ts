// must come first: clears empty OPENAI_* variables before the SDK reads them (see the module)
import "@/lib/ai/sdk-env";
import { createOpenAI } from "@ai-sdk/openai";
import { type EmbeddingModel, embedMany } from "ai";
import { OPENAI_DEFAULT_BASE_URL, PLACEHOLDER_API_KEY } from "@/lib/ai/providers";
import { LecternError } from "@/lib/errors";
import type { EmbeddingProvider } from "./types";

/** Unit length; a zero vector (a server bug) becomes the fixed unit vector, as in the hashing embedder. */
function normalise(v: number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  if (n === 0) return v.map((_, i) => (i === 0 ? 1 : 0));
  const inv = 1 / Math.sqrt(n);
  return v.map((x) => x * inv);
}

export interface EmbedderFromModelOptions {
  /** Recorded as the provider's model (the library's embedding signature). */
  modelName: string;
  /** The vector length every response must have. */
  dimensions: number;
  /** Ask the server for `dimensions` (OpenAI text-embedding-3 and other matryoshka models shorten their vectors). */
  requestDimensions?: boolean;
  /** Texts per request (default 96); the SDK splits further if the model's per-call limit is lower. */
  batchSize?: number;
}

/** Wraps any AI SDK embedding model (tests inject MockEmbeddingModelV4). */
export function createEmbedderFromModel(model: EmbeddingModel, opts: EmbedderFromModelOptions): EmbeddingProvider {
  const batchSize = Math.max(1, opts.batchSize ?? 96);
  return {
    kind: "openai",
    model: opts.modelName,
    dimensions: opts.dimensions,
    async embed(texts, options) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        options?.signal?.throwIfAborted();
        // OpenAI rejects empty strings; a blank text embeds as a single space
        const values = texts.slice(i, i + batchSize).map((t) => (t.trim() === "" ? " " : t));
        let embeddings: number[][];
        try {
          ({ embeddings } = await embedMany({
            model,
            values,
            abortSignal: options?.signal,
            maxRetries: 2,
            // AI SDK 7 passes `dimensions` to the provider (the OpenAI provider sends it as the request's `dimensions`)
            ...(opts.requestDimensions ? { dimensions: opts.dimensions } : {}),
          }));
        } catch (e) {
          if (options?.signal?.aborted) throw e;
          throw new LecternError(
            "unavailable:embedding",
            `The embedding model ${opts.modelName} failed: ${(e as Error).message}`,
            { cause: e },
          );
        }
        if (embeddings.length !== values.length) {
          throw new LecternError(
            "unavailable:embedding",
            `The embedding model ${opts.modelName} returned ${embeddings.length} vectors for ${values.length} texts.`,
          );
        }
        for (const v of embeddings) {
          if (v.length !== opts.dimensions) {
            throw new LecternError(
              "conflict:embedding",
              `The embedding model ${opts.modelName} returned ${v.length}-dimensional vectors, but ${opts.dimensions} ` +
                "were configured. Set LECTERN_EMBEDDING_DIMENSIONS to the model's size (or one it supports) and run " +
                "`npm run cli -- reembed`.",
            );
          }
          if (!v.every(Number.isFinite)) {
            throw new LecternError(
              "unavailable:embedding",
              `The embedding model ${opts.modelName} returned a vector with non-numeric values.`,
            );
          }
          out.push(normalise(v));
        }
      }
      return out;
    },
  };
}

/**
 * An OpenAI-compatible embedding server (OpenAI, Ollama, vLLM, llama.cpp…): `/v1/embeddings` through
 * `provider.embedding(model)`. A local server needs no key; the SDK still wants one, so a placeholder is sent.
 */
export function createOpenAiEmbedder(opts: {
  apiKey?: string;
  baseURL?: string;
  model: string;
  dimensions?: number;
}): EmbeddingProvider {
  const provider = createOpenAI({
    apiKey: opts.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: opts.baseURL ?? OPENAI_DEFAULT_BASE_URL,
  });
  return createEmbedderFromModel(provider.embedding(opts.model), {
    modelName: opts.model,
    dimensions: opts.dimensions ?? 512,
    requestDimensions: true,
  });
}
