/**
 * Synthetic text for the scale benchmark (bench/scale.ts): papers → pages → chunks that look like the real library.
 *
 * Two sources, both deterministic for a seed:
 * - `corpus` (when ../shared/corpus/papers exists): the real PDFs are extracted and cleaned with the project's own
 *   ingestion code and split into sentences. A synthetic paper takes a "home" source paper (its topic) and draws 80 %
 *   of its sentences from it, 20 % from anywhere; 10 % of each sentence's words are swapped for a word drawn from the
 *   corpus's own word frequencies (Zipfian by nature), so chunks are new combinations, not copies. Page lengths and
 *   page counts are drawn from the real ones. One sentence in ten is held out of the data and used for queries.
 * - `zipf` (no corpus): a vocabulary of English function words followed by pronounceable pseudo-words, drawn from a
 *   Zipf–Mandelbrot distribution (s = 1.07), with 200 topics that each favour 300 of the rarer words.
 */
import fs from "node:fs";
import path from "node:path";
import { chunkPage, chunkUid, splitSentences } from "@/lib/ingest/chunk";
import { cleanPages } from "@/lib/ingest/clean";
import { createExtractionPool } from "@/lib/ingest/extract-pool";

import { createRng, type Rng } from "@/lib/random";

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const intBetween = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

/** Samples indexes with probability proportional to `weights` (cumulative table + binary search). */
function weightedSampler(weights: number[]): (rng: Rng) => number {
  const cum = new Float64Array(weights.length);
  let s = 0;
  weights.forEach((w, i) => {
    s += w;
    cum[i] = s;
  });
  return (rng) => {
    const x = rng() * s;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface TextSource {
  kind: "corpus" | "zipf";
  /** One line for the report. */
  description: string;
  topics: number;
  /** A sentence of the data for a topic. */
  sentence(topic: number, rng: Rng): string;
  /** Sentences that never appear in the data (query material). */
  heldOut: string[];
  /** Target length of a page, in characters. */
  pageChars(rng: Rng): number;
  /** Pages of a paper. */
  pageCount(rng: Rng): number;
}

const WORD_RE = /^[A-Za-z][A-Za-z-]*[a-z]$/;

/** Sentences of the real corpus, extracted and cleaned by the ingestion code (about 20 s for 40 PDFs on 2 cores). */
export async function loadCorpusSource(dir: string, seed: number): Promise<TextSource | null> {
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(".pdf"))
    .sort();
  if (files.length === 0) return null;
  const pool = createExtractionPool();
  let docs: string[][];
  try {
    docs = await Promise.all(
      files.map(async (f) =>
        cleanPages((await pool.extract(new Uint8Array(fs.readFileSync(path.join(dir, f))))).pages),
      ),
    );
  } finally {
    await pool.close();
  }
  const rng = createRng(seed ^ 0x5bd1e995);
  const byTopic: string[][] = [];
  const heldOut: string[] = [];
  const pageLengths: number[] = [];
  const pageCounts: number[] = [];
  const wordCounts = new Map<string, number>();
  for (const pages of docs) {
    const mine: string[] = [];
    pageCounts.push(pages.length);
    for (const page of pages) {
      if (page.length >= 300) pageLengths.push(page.length);
      for (const s of splitSentences(page)) {
        const text = s.text.trim();
        const words = text.split(" ");
        const letters = text.replace(/[^A-Za-z]/g, "").length;
        if (text.length < 40 || text.length > 400 || words.length < 6 || letters < text.length * 0.6) continue;
        if (rng() < 0.1) {
          heldOut.push(text);
          continue;
        }
        mine.push(text);
        for (const w of words) {
          if (WORD_RE.test(w)) wordCounts.set(w.toLowerCase(), (wordCounts.get(w.toLowerCase()) ?? 0) + 1);
        }
      }
    }
    if (mine.length > 0) byTopic.push(mine);
  }
  const vocab = [...wordCounts.keys()];
  const sampleWord = weightedSampler(vocab.map((w) => wordCounts.get(w) ?? 0));
  const sentences = byTopic.reduce((n, t) => n + t.length, 0);
  return {
    kind: "corpus",
    description:
      `sentences resampled from ${files.length} real papers (${sentences.toLocaleString("en")} sentences, ` +
      `${heldOut.length.toLocaleString("en")} held out for queries; 10 % of words swapped by corpus frequency)`,
    topics: byTopic.length,
    heldOut,
    sentence(topic, r) {
      const list = r() < 0.8 ? (byTopic[topic] as string[]) : pick(r, byTopic);
      const words = pick(r, list).split(" ");
      for (let i = 0; i < words.length; i++) {
        if (WORD_RE.test(words[i] as string) && r() < 0.1) words[i] = vocab[sampleWord(r)] as string;
      }
      return words.join(" ");
    },
    pageChars: (r) => pick(r, pageLengths),
    pageCount: (r) => Math.max(1, pick(r, pageCounts) + intBetween(r, -3, 3)),
  };
}

const FUNCTION_WORDS = (
  "the of and to in a is that for we with on as by this are be from an it which at our can model each not or " +
  "these have using its than training data results all their more has between two also such both model learning " +
  "was were one when into used show set task based but other first however method new where only use performance"
).split(" ");
const ONSETS = ["b", "c", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "v", "tr", "pr", "st", "gr", "sp", "ch"];
const VOWELS = ["a", "e", "i", "o", "u", "ia", "ea", "ou"];
const CODAS = ["", "", "n", "r", "s", "l", "t", "x", "m", "nt", "rk"];

/** Zipf–Mandelbrot vocabulary with topics: the fallback when the real corpus is absent. */
export function createZipfSource(seed: number): TextSource {
  const rng = createRng(seed ^ 0x27d4eb2f);
  const V = 20_000;
  const words = new Set<string>(FUNCTION_WORDS);
  while (words.size < V) {
    const syllables = intBetween(rng, 1, 4);
    let w = "";
    for (let i = 0; i < syllables; i++) w += pick(rng, ONSETS) + pick(rng, VOWELS) + pick(rng, CODAS);
    if (w.length >= 3) words.add(w);
  }
  const vocab = [...words];
  const global = weightedSampler(vocab.map((_, r) => 1 / (r + 2.7) ** 1.07));
  const topics = Array.from({ length: 200 }, () => Array.from({ length: 300 }, () => intBetween(rng, 500, V - 1)));
  const topicSamplers = topics.map((t) => weightedSampler(t.map((_, i) => 1 / (i + 1) ** 0.8)));
  const make = (topic: number, r: Rng) => {
    const n = intBetween(r, 8, 35);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const t = topics[topic] as number[];
      out.push(vocab[r() < 0.3 ? (t[(topicSamplers[topic] as (r: Rng) => number)(r)] as number) : global(r)] as string);
    }
    const s = out.join(" ");
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  };
  const heldRng = createRng(seed ^ 0x165667b1);
  return {
    kind: "zipf",
    description: `Zipf–Mandelbrot vocabulary (${V.toLocaleString("en")} words, s = 1.07) with 200 topics`,
    topics: topics.length,
    heldOut: Array.from({ length: 2000 }, () => make(Math.floor(heldRng() * topics.length), heldRng)),
    sentence: make,
    pageChars: (r) => intBetween(r, 1500, 5000),
    pageCount: (r) => intBetween(r, 8, 30),
  };
}

export interface SynthChunk {
  chunkUid: string;
  pageNumber: number;
  chunkIndex: number;
  text: string;
  charStart: number;
  charEnd: number;
  tokenCount: number;
}

export interface SynthPaper {
  id: string;
  docId: string;
  title: string;
  year: number;
  categories: string[];
  authors: string[];
  pages: { pageNumber: number; text: string }[];
  chunks: SynthChunk[];
}

const CATEGORIES = ["cs.CL", "cs.LG", "cs.AI", "cs.IR", "cs.CV", "stat.ML", "cs.DL"];
const NAMES = ["A. Smith", "B. Chen", "C. Garcia", "D. Kumar", "E. Müller", "F. Rossi", "G. Tanaka", "H. Okafor"];

/**
 * Papers one after another: pages of sentences (paragraph breaks every 3–7 sentences) cut into chunks by the
 * project's chunker (512 tokens, 100 overlap), with the same chunk uids the pipeline computes.
 */
export function createPaperGenerator(source: TextSource, seed: number) {
  const rng = createRng(seed);
  let n = 0;
  return (): SynthPaper => {
    n++;
    const id = `synth-${String(n).padStart(6, "0")}`;
    const docId = `${id}-${seed}`.padEnd(64, "0");
    const topic = Math.floor(rng() * source.topics);
    const titleWords = source
      .sentence(topic, rng)
      .replace(/[.?!]$/, "")
      .split(" ");
    const title = titleWords.slice(0, Math.min(titleWords.length, intBetween(rng, 5, 11))).join(" ");
    const pages: SynthPaper["pages"] = [];
    const chunks: SynthChunk[] = [];
    const pageCount = source.pageCount(rng);
    for (let p = 1; p <= pageCount; p++) {
      const target = source.pageChars(rng);
      let text = "";
      let inParagraph = 0;
      let paragraph = intBetween(rng, 3, 7);
      while (text.length < target) {
        const s = source.sentence(topic, rng);
        if (text.length > 0) text += inParagraph >= paragraph ? "\n" : " ";
        if (inParagraph >= paragraph) {
          inParagraph = 0;
          paragraph = intBetween(rng, 3, 7);
        }
        text += s;
        inParagraph++;
      }
      pages.push({ pageNumber: p, text });
      for (const c of chunkPage(text)) {
        chunks.push({
          chunkUid: chunkUid(docId, p, c.chunkIndex, c.charStart, c.charEnd),
          pageNumber: p,
          chunkIndex: c.chunkIndex,
          text: c.text,
          charStart: c.charStart,
          charEnd: c.charEnd,
          tokenCount: c.tokenCount,
        });
      }
    }
    return {
      id,
      docId,
      title,
      year: intBetween(rng, 2012, 2026),
      categories: [pick(rng, CATEGORIES)],
      authors: Array.from({ length: intBetween(rng, 1, 5) }, () => pick(rng, NAMES)),
      pages,
      chunks,
    };
  };
}

/** A query made from a chunk: 10–25 consecutive words, each dropped with probability 0.2. */
export function perturbedExcerpt(text: string, rng: Rng): string {
  const words = text.split(/\s+/).filter(Boolean);
  const len = Math.min(words.length, intBetween(rng, 10, 25));
  const start = Math.floor(rng() * Math.max(1, words.length - len + 1));
  const kept = words.slice(start, start + len).filter(() => rng() >= 0.2);
  return (kept.length > 0 ? kept : words.slice(start, start + len)).join(" ");
}
