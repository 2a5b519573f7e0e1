import type { EmbeddingProvider } from "./types";

/**
 * The offline embedder: feature hashing, no model and no network.
 *
 * Features per text: stemmed content words (weight 1), word bigrams (0.5) and character trigrams of each word (0.25),
 * each hashed (FNV-1a, 32-bit) into `dimensions` buckets with a sign taken from a second hash, so collisions cancel
 * out on average instead of piling up. Term frequency is sublinear (1 + ln tf); the vector is L2-normalised.
 *
 * What it is: a fast, deterministic *lexical* similarity — shared words and word fragments make texts close.
 * What it is not: semantic. Synonyms and paraphrases with no shared words are not brought together.
 */
export const HASHING_MODEL = "hashing-v1";

const STOP_WORDS = new Set(
  (
    "a an and are as at be been being but by can could did do does doing for from had has have having he her here " +
    "hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other our " +
    "ours out over own same she should so some such than that the their theirs them then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours also may might must shall us via per each both either neither whether than thus hence however"
  ).split(" "),
);

/** A light suffix stripper: enough to conflate plurals and common verb/noun forms. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  for (const suffix of ["ational", "ization", "ation", "ness", "ment", "ing", "ed", "ly", "er"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

export function tokenize(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .normalize("NFKC")
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const w of words) {
    if (w.length < 2 || STOP_WORDS.has(w)) continue;
    if (/^\d+$/.test(w) && w.length > 4) continue; // long bare numbers are noise for similarity
    out.push(stem(w));
  }
  return out;
}

function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function hashingVector(text: string, dimensions: number): number[] {
  const features = new Map<string, number>();
  const add = (f: string, w: number) => features.set(f, (features.get(f) ?? 0) + w);
  const tokens = tokenize(text);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    add(`w:${t}`, 1);
    if (i + 1 < tokens.length) add(`b:${t} ${tokens[i + 1]}`, 0.5);
    const padded = `<${t}>`;
    if (padded.length > 4) for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, 0.25);
  }
  const v = new Float64Array(dimensions);
  for (const [f, w] of features) {
    const h = fnv1a(f);
    const sign = fnv1a(f, 0x9747b28c) & 1 ? 1 : -1;
    // sublinear weight: a feature seen n times (weight w each) counts 1 + ln(n)
    const base = f.startsWith("w:") ? 1 : f.startsWith("b:") ? 0.5 : 0.25;
    const n = w / base;
    const idx = h % dimensions;
    v[idx] = (v[idx] ?? 0) + sign * base * (1 + Math.log(n));
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) {
    // No features (empty text, only stop words or punctuation). pgvector's cosine distance is NaN for a zero vector,
    // so we return a fixed unit vector: such texts are equally (and weakly) similar to everything.
    const out = new Array<number>(dimensions).fill(0);
    out[0] = 1;
    return out;
  }
  const inv = 1 / Math.sqrt(norm);
  return Array.from(v, (x) => x * inv);
}

export function createHashingEmbedder(opts: { dimensions?: number } = {}): EmbeddingProvider {
  const dimensions = opts.dimensions ?? 512;
  return {
    kind: "hashing",
    model: HASHING_MODEL,
    dimensions,
    async embed(texts, options) {
      options?.signal?.throwIfAborted();
      return texts.map((t) => hashingVector(t, dimensions));
    },
  };
}
