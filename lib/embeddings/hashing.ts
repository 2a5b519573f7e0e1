import { forEachWord, termOf } from "@/lib/text/terms";
import type { EmbeddingProvider } from "./types";

/**
 * The offline embedder: feature hashing, no model and no network.
 *
 * Features per text: stemmed content words (weight 1), word bigrams (0.5) and character trigrams of each word
 * (0.25). Each feature is a 32-bit hash (FNV-1a over the characters, finished with murmur3's fmix32; each feature kind
 * has its own seed) that picks one of `dimensions` buckets, with a sign taken from other bits of a re-mixed hash so
 * collisions cancel out on average instead of piling up. Term frequency is sublinear (1 + ln tf); the vector is
 * L2-normalised.
 *
 * What it is: a fast, deterministic *lexical* similarity — shared words and word fragments make texts close.
 * What it is not: semantic. Synonyms and paraphrases with no shared words are not brought together.
 *
 * Speed: the stem and the hashes of a word are computed once and cached, so a text costs a regex pass and a few
 * integer operations per feature (about 10k chunks of ~450 tokens per second on one core; see bench in the report).
 */
export const HASHING_MODEL = "hashing-v2";

/** The words and stems are the library's one tokenizer (lib/text/terms.ts), shared with full-text search. */
export { stem, tokenize } from "@/lib/text/terms";

// --- hashing ---------------------------------------------------------------------------------------------------

const SEED_WORD = 0x811c9dc5;
const SEED_BIGRAM = 0x1b873593;
const SEED_TRIGRAM = 0xcc9e2d51;

function fmix32(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

function fnv1a(s: string, seed: number, from = 0, to = s.length): number {
  let h = seed >>> 0;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

interface TokenFeatures {
  stem: string;
  /** Hash of the stemmed word. */
  word: number;
  /** Hashes of the character trigrams of `<stem>` (empty for stems shorter than 3). */
  trigrams: Uint32Array;
}

/** Per-word cache: stems and hashes are the expensive part and words repeat across chunks. Null = not a token. */
const tokenCache = new Map<string, TokenFeatures | null>();
const TOKEN_CACHE_LIMIT = 200_000;

function tokenOf(raw: string): TokenFeatures | null {
  const cached = tokenCache.get(raw);
  if (cached !== undefined) return cached;
  let features: TokenFeatures | null = null;
  const s = termOf(raw);
  if (s) {
    const padded = `<${s}>`;
    const trigrams = new Uint32Array(padded.length > 4 ? padded.length - 2 : 0);
    for (let j = 0; j < trigrams.length; j++) trigrams[j] = fnv1a(padded, SEED_TRIGRAM, j, j + 3);
    features = { stem: s, word: fnv1a(s, SEED_WORD), trigrams };
  }
  if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.clear();
  tokenCache.set(raw, features);
  return features;
}

/**
 * Counts of 32-bit feature hashes by kind, in an open-addressing table that is reused between texts (a Map per text
 * costs more than all the hashing). Only the used slots are cleared afterwards.
 */
class FeatureCounter {
  private keys = new Uint32Array(1 << 12);
  private counts = new Uint32Array(1 << 12);
  private kinds = new Uint8Array(1 << 12);
  private used: number[] = [];

  add(key: number, kind: number): void {
    if (this.used.length * 2 >= this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = key & mask;
    while (this.counts[slot] !== 0 && (this.keys[slot] !== key || this.kinds[slot] !== kind)) slot = (slot + 1) & mask;
    if (this.counts[slot] === 0) {
      this.keys[slot] = key;
      this.kinds[slot] = kind;
      this.used.push(slot);
    }
    this.counts[slot] = (this.counts[slot] as number) + 1;
  }

  /** Adds every feature into `v` (sign-hashed, sublinear tf, weighted by kind) and resets the table. */
  drainInto(v: Float64Array, weights: readonly number[]): void {
    const dims = v.length;
    for (const slot of this.used) {
      const h = this.keys[slot] as number;
      const n = this.counts[slot] as number;
      // the sign comes from a re-mixed hash, independent of the bucket index
      const sign = fmix32(h ^ 0x9e3779b9) & 1 ? 1 : -1;
      const idx = h % dims;
      v[idx] = (v[idx] as number) + sign * (weights[this.kinds[slot] as number] as number) * sublinear(n);
      this.counts[slot] = 0;
    }
    this.used.length = 0;
  }

  private grow(): void {
    const old = { keys: this.keys, counts: this.counts, kinds: this.kinds, used: this.used };
    const size = this.keys.length * 2;
    this.keys = new Uint32Array(size);
    this.counts = new Uint32Array(size);
    this.kinds = new Uint8Array(size);
    this.used = [];
    const mask = size - 1;
    for (const slot of old.used) {
      let s = (old.keys[slot] as number) & mask;
      while (this.counts[s] !== 0) s = (s + 1) & mask;
      this.keys[s] = old.keys[slot] as number;
      this.kinds[s] = old.kinds[slot] as number;
      this.counts[s] = old.counts[slot] as number;
      this.used.push(s);
    }
  }
}

const LOG_TABLE = Array.from({ length: 256 }, (_, n) => (n === 0 ? 0 : 1 + Math.log(n)));
function sublinear(n: number): number {
  return n < 256 ? (LOG_TABLE[n] as number) : 1 + Math.log(n);
}

const WORD_FEATURE = 0;
const BIGRAM_FEATURE = 1;
const TRIGRAM_FEATURE = 2;
const FEATURE_WEIGHTS = [1, 0.5, 0.25] as const;
const counter = new FeatureCounter();

/**
 * The hashing vector of a text: unit length, `dimensions` long. A text without features (empty, only stop words or
 * punctuation) gets a fixed unit vector (1, 0, 0, …) rather than zeros: pgvector's cosine distance is NaN for a zero
 * vector, and such texts are then equally (and weakly) similar to everything.
 */
export function hashingVector(text: string, dimensions: number): number[] {
  let previous: TokenFeatures | null = null;
  forEachWord(text, (raw) => {
    const t = tokenOf(raw);
    if (!t) return;
    counter.add(t.word, WORD_FEATURE);
    if (previous) counter.add(fmix32(Math.imul(previous.word, 0x9e3779b1) ^ t.word ^ SEED_BIGRAM), BIGRAM_FEATURE);
    for (const g of t.trigrams) counter.add(g, TRIGRAM_FEATURE);
    previous = t;
  });
  const v = new Float64Array(dimensions);
  counter.drainInto(v, FEATURE_WEIGHTS);
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) {
    const unit = new Array<number>(dimensions).fill(0);
    unit[0] = 1;
    return unit;
  }
  const inv = 1 / Math.sqrt(norm);
  return Array.from(v, (x) => x * inv);
}

/** Texts embedded between yields to the event loop (a big batch must not freeze a server for seconds). */
const SLICE = 256;

export function createHashingEmbedder(opts: { dimensions?: number } = {}): EmbeddingProvider {
  const dimensions = opts.dimensions ?? 512;
  if (!Number.isInteger(dimensions) || dimensions < 2) {
    throw new Error(`The hashing embedder needs an integer number of dimensions ≥ 2 (got ${dimensions}).`);
  }
  return {
    kind: "hashing",
    model: HASHING_MODEL,
    dimensions,
    async embed(texts, options) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += SLICE) {
        options?.signal?.throwIfAborted();
        if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        for (const t of texts.slice(i, i + SLICE)) out.push(hashingVector(t, dimensions));
      }
      options?.signal?.throwIfAborted();
      return out;
    },
  };
}
