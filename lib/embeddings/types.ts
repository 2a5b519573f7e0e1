import type { Database } from "@/db";

export interface EmbedOptions {
  signal?: AbortSignal;
  /** The library: the latent embedder projects on the model fitted to it (the others ignore it). */
  db?: Database;
}

export interface EmbeddingProvider {
  /**
   * `latent` (offline: LSA fitted to the library), `hashing` (offline: hashed words and n-grams) or `openai` (any
   * OpenAI-compatible server).
   */
  readonly kind: "latent" | "hashing" | "openai";
  /** Model name, or the offline scheme's version. */
  readonly model: string;
  readonly dimensions: number;
  /**
   * L2-normalised vectors, one per input, in order. The latent embedder returns all zeros for a text its model knows
   * no word of (and before the library's first fit): nothing to compare by cosine.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}

/** What the library's stored vectors were made with (kept in library_meta under `embedding`). */
export interface EmbeddingSignature {
  kind: EmbeddingProvider["kind"];
  model: string;
  dimensions: number;
}
