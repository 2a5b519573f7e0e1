import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { getGraphCounts } from "@/db/queries/graph";
import { pages, papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { buildGraph } from "./build";
import { differentVersions, vectorsTellNamesApart } from "./resolve";

/**
 * Tier B on vectors that do not tell names apart (a latent space fitted on a one-paper library maps most names to one
 * direction): no pair is linked or proposed for review on the strength of its cosine.
 */

describe("vectorsTellNamesApart", () => {
  it("is false when most pairs are (nearly) the same vector, true for distinct ones", () => {
    const same = Array.from({ length: 6 }, () => [0.6, 0.8, 0]);
    expect(vectorsTellNamesApart(same)).toBe(false);
    const distinct = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 1 : 0)));
    expect(vectorsTellNamesApart(distinct)).toBe(true);
    // too few to say: trusted
    expect(vectorsTellNamesApart([[1, 0]])).toBe(true);
  });
});

describe("differentVersions", () => {
  it("tells versions and variants of one name apart, and nothing else", () => {
    expect(differentVersions("GPT", "GPT-3", "Model")).toBe(true);
    expect(differentVersions("GPT-2", "GPT-3")).toBe(true);
    expect(differentVersions("Yelp-2", "Yelp-5")).toBe(true);
    expect(differentVersions("Llama 2", "LLaMA-3")).toBe(true);
    expect(differentVersions("DeepSeek-R1", "DeepSeek-R1-14B")).toBe(true);
    expect(differentVersions("DeepSeek-R1-Distill-Qwen-7B", "DeepSeek-R1-Distill-Qwen-1.5B")).toBe(true);
    // the same name written otherwise, or other names: not this rule's to decide
    expect(differentVersions("GPT-3", "GPT 3")).toBe(false);
    expect(differentVersions("BERT", "RoBERTa")).toBe(false);
    expect(differentVersions("T5", "T5")).toBe(false);
    expect(differentVersions("2", "3")).toBe(false);
    // a year written short is the same year; a dataset's or metric's name without its number may be the same thing
    expect(differentVersions("WMT14", "WMT 2014")).toBe(false);
    expect(differentVersions("CoNLL-2003", "CoNLL03")).toBe(false);
    expect(differentVersions("SQuAD", "SQuAD 1.1", "Dataset")).toBe(false);
    expect(differentVersions("BLEU", "BLEU-4", "Metric")).toBe(false);
    expect(differentVersions("SQuAD 1.1", "SQuAD 2.0", "Dataset")).toBe(true);
  });
});

/** Every text gets the same (non-zero) vector. */
const sameVector: EmbeddingProvider = {
  kind: "hashing",
  model: "same-vector-test",
  dimensions: 8,
  embed: async (texts) => texts.map(() => [1, 0, 0, 0, 0, 0, 0, 0]),
};

let handle: DbHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db.insert(papers).values({
    id: "2001.00007",
    docId: "c".repeat(64),
    title: "FooNet: Widgets",
    filePath: "papers/c.pdf",
    fileName: "c.pdf",
    fileSize: 1,
    pageCount: 1,
    status: "ready",
    year: 2020,
  });
  await handle.db.insert(pages).values({
    paperId: "2001.00007",
    pageNumber: 1,
    text:
      "FooNet: Widgets\nAbstract\nWe propose FooNet for widget search. FooNet outperforms BarNet on the Baz dataset.\n" +
      "We use the Adam optimizer for all experiments. FooNet also outperforms QuxRank and ZedSearch by a wide margin.",
  });
});

afterAll(async () => {
  await handle?.close();
});

it("vectors that call every name the same propose no alias", async () => {
  const report = await buildGraph(handle.db, { embedder: sameVector });
  expect(report.accepted).toBeGreaterThanOrEqual(3);
  const counts = await getGraphCounts(handle.db);
  expect(counts.pendingSuggestions).toBe(0);
  expect(counts.aliases.filter((a) => a.tier === "B")).toEqual([]);
});
