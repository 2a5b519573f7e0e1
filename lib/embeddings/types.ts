export interface EmbeddingProvider {
  /** `hashing` (offline) or `openai` (any OpenAI-compatible server). */
  readonly kind: "hashing" | "openai";
  /** Model name, or the hashing scheme's version for the offline embedder. */
  readonly model: string;
  readonly dimensions: number;
  /** L2-normalised vectors, one per input, in order. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** What the library's stored vectors were made with (kept in library_meta under `embedding`). */
export interface EmbeddingSignature {
  kind: EmbeddingProvider["kind"];
  model: string;
  dimensions: number;
}
