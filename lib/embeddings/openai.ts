import { createOpenAI } from "@ai-sdk/openai";
import { type EmbeddingModel, embedMany } from "ai";
import { LecternError } from "@/lib/errors";
import type { EmbeddingProvider } from "./types";

function normalise(v: number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  if (n === 0) return v;
  const inv = 1 / Math.sqrt(n);
  return v.map((x) => x * inv);
}

/** Wraps any AI SDK embedding model (tests inject MockEmbeddingModelV4). */
export function createEmbedderFromModel(
  model: EmbeddingModel,
  opts: { modelName: string; dimensions: number; requestDimensions?: boolean; batchSize?: number },
): EmbeddingProvider {
  const batchSize = opts.batchSize ?? 96;
  return {
    kind: "openai",
    model: opts.modelName,
    dimensions: opts.dimensions,
    async embed(texts, options) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const values = texts.slice(i, i + batchSize).map((t) => (t.trim() === "" ? " " : t));
        let embeddings: number[][];
        try {
          ({ embeddings } = await embedMany({
            model,
            values,
            abortSignal: options?.signal,
            maxRetries: 2,
            ...(opts.requestDimensions ? { providerOptions: { openai: { dimensions: opts.dimensions } } } : {}),
          }));
        } catch (e) {
          if (options?.signal?.aborted) throw e;
          throw new LecternError(
            "unavailable:embedding",
            `The embedding model ${opts.modelName} failed: ${(e as Error).message}`,
            { cause: e },
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
          out.push(normalise(v));
        }
      }
      return out;
    },
  };
}

export function createOpenAiEmbedder(opts: {
  apiKey?: string;
  baseURL?: string;
  model: string;
  dimensions?: number;
}): EmbeddingProvider {
  const provider = createOpenAI({ apiKey: opts.apiKey ?? "not-needed", baseURL: opts.baseURL });
  return createEmbedderFromModel(provider.embedding(opts.model), {
    modelName: opts.model,
    dimensions: opts.dimensions ?? 512,
    requestDimensions: true,
  });
}
