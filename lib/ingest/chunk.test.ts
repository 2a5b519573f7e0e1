import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  chunkPage,
  chunkUid,
  endsSentence,
  estimateTokens,
  sentenceTermEnds,
  splitSentences,
} from "@/lib/ingest/chunk";
import type { PageChunk } from "@/lib/ingest/types";
import { searchText } from "@/lib/text/terms";

/** A small seeded PRNG so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS =
  "the model attention layer we propose results show that training data retrieval transformer is of a in".split(" ");

function randomText(rand: () => number, words: number): string {
  let out = "";
  for (let i = 0; i < words; i++) {
    const r = rand();
    const w =
      r < 0.02 ? "x".repeat(1 + Math.floor(rand() * 900)) : (WORDS[Math.floor(rand() * WORDS.length)] as string);
    out += w;
    const p = rand();
    if (p < 0.08) out += ". ";
    else if (p < 0.1) out += "\n";
    else if (p < 0.11) out += " \n\n  ";
    else if (p < 0.12) out += "\t";
    else if (p < 0.13) out += ", e.g. ";
    else out += " ";
  }
  return rand() < 0.5 ? `  \n${out}` : out;
}

function checkInvariants(text: string, chunks: PageChunk[], target: number) {
  const trimmed = text.trim();
  if (!trimmed) {
    expect(chunks).toEqual([]);
    return;
  }
  expect(chunks.length).toBeGreaterThan(0);
  expect(chunks[0]?.charStart).toBe(text.length - text.trimStart().length);
  expect(chunks.at(-1)?.charEnd).toBe(text.trimEnd().length);
  chunks.forEach((c, i) => {
    expect(c.chunkIndex).toBe(i);
    expect(text.slice(c.charStart, c.charEnd)).toBe(c.text);
    expect(c.text).toBe(c.text.trim());
    expect(c.text.length).toBeGreaterThan(0);
    expect(c.tokenCount).toBe(estimateTokens(c.text));
    // within the target (15% slack for the last chunk; one overlong unit may stand alone)
    expect(c.tokenCount <= Math.ceil(target * 1.15) || !/\s/.test(c.text)).toBe(true);
    if (i > 0) {
      const prev = chunks[i - 1] as PageChunk;
      expect(c.charStart).toBeGreaterThan(prev.charStart);
      expect(c.charEnd).toBeGreaterThan(prev.charEnd);
      // no gap: the next chunk starts at or before the previous end's following word
      expect(text.slice(prev.charEnd, c.charStart).trim()).toBe("");
    }
  });
}

describe("chunkPage", () => {
  it("returns no chunks for an empty page", () => {
    expect(chunkPage("")).toEqual([]);
    expect(chunkPage(" \n\t ")).toEqual([]);
  });

  it("makes one chunk of a page shorter than the target, with offsets trimmed by moving them", () => {
    const text = "\n  Attention is all you need.\nIt really is.  \n";
    const chunks = chunkPage(text);
    expect(chunks).toHaveLength(1);
    const [c] = chunks;
    expect(c?.text).toBe("Attention is all you need.\nIt really is.");
    expect(c?.charStart).toBe(3);
    expect(text.slice(c?.charStart, c?.charEnd)).toBe(c?.text);
    expect(c?.tokenCount).toBe(estimateTokens(c?.text ?? ""));
  });

  it("breaks at sentence ends near the target and overlaps from a sentence start", () => {
    const sentences = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i} explains one more detail of the method we propose here.`,
    );
    const text = sentences.join(" ");
    const chunks = chunkPage(text, { targetTokens: 100, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.text.startsWith("Sentence number")).toBe(true);
      expect(c.text.endsWith("propose here.")).toBe(true);
      expect(c.tokenCount).toBeLessThanOrEqual(115);
      expect(c.tokenCount).toBeGreaterThanOrEqual(50);
    }
    // consecutive chunks share a sentence
    const [a, b] = chunks;
    expect(b?.charStart).toBeLessThan(a?.charEnd ?? 0);
  });

  it("falls back to word boundaries when there are no sentence ends", () => {
    const text = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" ");
    const chunks = chunkPage(text, { targetTokens: 64, overlapTokens: 10 });
    checkInvariants(text, chunks, 64);
    for (const c of chunks) expect(c.text).toMatch(/^w\d+( w\d+)*$/);
  });

  it("does not break at abbreviations or initials", () => {
    expect(endsSentence("al.")).toBe(false);
    expect(endsSentence("e.g.")).toBe(false);
    expect(endsSentence("N.")).toBe(false);
    expect(endsSentence("(Fig.")).toBe(false);
    expect(endsSentence("model.")).toBe(true);
    expect(endsSentence('work."')).toBe(true);
    expect(endsSentence("2017).")).toBe(true);
    expect(endsSentence("results?")).toBe(true);
    expect(endsSentence("3.5")).toBe(false);
  });

  it("cuts a single enormous token (no spaces at all) instead of looping", () => {
    const text = "a".repeat(20_000);
    const chunks = chunkPage(text, { targetTokens: 128, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.text).join("")).toBe(text.slice(0, chunks.at(-1)?.charEnd));
    checkInvariants(text, chunks, 128);
  });

  it("clamps an overlap as large as the target and still advances", () => {
    const text = Array.from({ length: 300 }, (_, i) => `word${i}.`).join(" ");
    const chunks = chunkPage(text, { targetTokens: 20, overlapTokens: 500 });
    checkInvariants(text, chunks, 20);
  });

  it("holds its invariants on random text (property test)", () => {
    for (let seed = 1; seed <= 150; seed++) {
      const rand = rng(seed);
      const text = randomText(rand, Math.floor(rand() * 2500));
      const target = 16 + Math.floor(rand() * 600);
      const overlap = Math.floor(rand() * target);
      const chunks = chunkPage(text, { targetTokens: target, overlapTokens: overlap });
      checkInvariants(text, chunks, target);
    }
  });

  it("uses defaults near 512 tokens with about 100 overlap", () => {
    const text = Array.from({ length: 400 }, (_, i) => `This is sentence ${i} about transformers and attention.`).join(
      "\n",
    );
    const chunks = chunkPage(text);
    for (const c of chunks.slice(0, -1)) {
      expect(c.tokenCount).toBeGreaterThan(300);
      expect(c.tokenCount).toBeLessThanOrEqual(512);
    }
    const [a, b] = chunks;
    const shared = estimateTokens(text.slice(b?.charStart, a?.charEnd));
    expect(shared).toBeGreaterThan(50);
    expect(shared).toBeLessThanOrEqual(100);
  });
});

describe("estimateTokens", () => {
  it("counts word pieces and symbols", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("The model works.")).toBe(4);
    expect(estimateTokens("representations")).toBe(3);
    expect(estimateTokens("x = 3.5")).toBe(5);
  });
});

describe("splitSentences", () => {
  it("splits on sentence ends with exact spans", () => {
    const text = "We propose a model (Vaswani et al.,\n2017). It works well, e.g. on MT.  Does it scale? Yes";
    const spans = splitSentences(text);
    expect(spans.map((s) => s.text)).toEqual([
      "We propose a model (Vaswani et al., 2017).",
      "It works well, e.g. on MT.",
      "Does it scale?",
      "Yes",
    ]);
    for (const s of spans) expect(text.slice(s.start, s.end).replace(/\s+/g, " ")).toBe(s.text);
  });
});

describe("chunkUid", () => {
  it("is the first 32 hex characters of the sha256 of the joined fields", () => {
    const expected = createHash("sha256").update("doc1:3:0:10:200").digest("hex").slice(0, 32);
    expect(chunkUid("doc1", 3, 0, 10, 200)).toBe(expected);
    expect(chunkUid("doc1", 3, 0, 10, 200)).toMatch(/^[0-9a-f]{32}$/);
    expect(chunkUid("doc1", 3, 1, 10, 200)).not.toBe(expected);
  });
});

describe("sentenceTermEnds", () => {
  it("counts each sentence's search terms, cumulatively, ending at the chunk's own term count", () => {
    const text =
      "We divide the dot products by a scale (see Fig. 2).\nLarge values push the softmax into flat regions. Done";
    const ends = sentenceTermEnds(text);
    expect(ends).toHaveLength(3);
    // "Fig." does not end the first sentence; stop words are not counted
    expect(ends[0]).toBe(searchText("We divide the dot products by a scale (see Fig. 2).").split(" ").length);
    expect(ends.at(-1)).toBe(searchText(text).split(" ").length);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
  });

  it("skips sentences without a search term and is empty for text without any", () => {
    expect(sentenceTermEnds("The of a. Attention heads attend.")).toEqual([3]);
    expect(sentenceTermEnds("")).toEqual([]);
    expect(sentenceTermEnds("— . ! ?")).toEqual([]);
  });
});
