import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { getGraphCounts } from "@/db/queries/graph";
import { listPendingAliasSuggestions } from "@/db/queries/graph-review";
import { graphAliasSuggestions, graphEntities, pages, papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { buildGraph } from "./build";
import {
  differentVersions,
  mayBeWrittenOtherwise,
  resolveAliasesTierB,
  sameLetters,
  shareNoWord,
  siblingNames,
  vectorsTellNamesApart,
} from "./resolve";

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

describe("names that are not one thing", () => {
  it("siblings: the same words but one, of another stem", () => {
    expect(siblingNames("WMT 2014 English-to-German", "WMT 2014 English-to-French")).toBe(true);
    expect(siblingNames("BERT Base", "BERT-Large")).toBe(true);
    expect(siblingNames("C-Eval", "IF-Eval")).toBe(true);
    expect(siblingNames("Modular RAG", "Naive RAG")).toBe(true);
    // one stem, a plural, another length, a number, or one word: not this rule's
    expect(siblingNames("Dense Passage Retriever", "Dense Passage Retrieval")).toBe(false);
    expect(siblingNames("Residual Network", "Residual Networks")).toBe(false);
    expect(siblingNames("RAG", "Naive RAG")).toBe(false);
    expect(siblingNames("Llama 2", "Llama 3")).toBe(false);
    expect(siblingNames("PIQA", "WinoGrande")).toBe(false);
    // a generic noun says what kind of thing, not which
    expect(siblingNames("BLEU Score", "BLEU Metric")).toBe(false);
    expect(siblingNames("SQuAD Dataset", "SQuAD Benchmark")).toBe(false);
  });

  it("no word in common (a plural counts as the word); the same letters written otherwise", () => {
    expect(shareNoWord("PIQA", "WinoGrande")).toBe(true);
    expect(shareNoWord("Z3", "SAT")).toBe(true);
    expect(shareNoWord("ResNet", "ResNets")).toBe(false);
    expect(shareNoWord("S2ORC-SCIBERT", "SciBERT")).toBe(false);
    expect(shareNoWord("Lucene-BM25", "BM25")).toBe(false);
    expect(sameLetters("MS-MARCO", "MSMARCO")).toBe(true);
    expect(sameLetters("Bert-Large", "BERTLARGE")).toBe(true);
    expect(sameLetters("BERT", "RoBERTa")).toBe(false);
    expect(sameLetters("--", "")).toBe(false);
    // no word in common, and yet one name written otherwise
    expect(mayBeWrittenOtherwise("GPT4", "GPT-4")).toBe(true);
    expect(mayBeWrittenOtherwise("CoT", "Chain-of-Thought")).toBe(true);
    expect(mayBeWrittenOtherwise("Mixture of Experts", "MoE")).toBe(true);
    expect(mayBeWrittenOtherwise("kNN", "k-nearest neighbours")).toBe(true);
    expect(mayBeWrittenOtherwise("PIQA", "WinoGrande")).toBe(false);
    expect(mayBeWrittenOtherwise("SAT", "Z3")).toBe(false);
    expect(mayBeWrittenOtherwise("HellaSwag", "StoryCloze")).toBe(false);
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

it("withdraws the pending proposals of earlier builds that it no longer makes, and keeps decided ones", async () => {
  const entity = async (name: string, type: "Dataset" | "Method" = "Dataset") => {
    const [row] = await handle.db
      .insert(graphEntities)
      .values({ name, canonicalName: name.toLowerCase(), type })
      .returning({ id: graphEntities.id });
    return row?.id as number;
  };
  const [en, fr, msA, msB, td, tx, piqa, wino] = [
    await entity("WMT 2014 English-to-German"),
    await entity("WMT 2014 English-to-French"),
    await entity("MS-MARCO"),
    await entity("MSMARCO-"),
    await entity("Thorough Decoding", "Method"),
    await entity("text-davinci-003", "Method"),
    await entity("PIQA"),
    await entity("WinoGrande"),
  ];
  await handle.db.insert(graphAliasSuggestions).values([
    { entityId: en as number, candidateId: fr as number, similarity: 0.994, reason: "similarity 0.994" },
    {
      entityId: msA as number,
      candidateId: msB as number,
      similarity: 0.2,
      reason: "shared acronym MSMARCO, similarity 0.200",
    },
    {
      entityId: td as number,
      candidateId: tx as number,
      similarity: -0.07,
      reason: "shared acronym TD, similarity -0.070",
    },
    { entityId: piqa as number, candidateId: wino as number, similarity: 0.979, reason: "similarity 0.979" },
    // decided by a person: stays as decided, whatever the rules say now
    {
      entityId: wino as number,
      candidateId: piqa as number,
      similarity: 0.979,
      reason: "similarity 0.979",
      status: "rejected",
    },
  ]);
  const r = await resolveAliasesTierB(handle.db);
  // (the keyed pair whose stored cosine said no is proposed again by this build — these names have no vectors — so it
  // stays where it was, not withdrawn and put back)
  expect(r.withdrawn).toBe(2);
  const pending = await listPendingAliasSuggestions(handle.db, { limit: 100 });
  // the same letters stay (once: not again the other way round); the siblings and the names with no word in common
  // are gone and not proposed again
  expect(pending.map((p) => [p.entity.name, p.candidate.name])).toEqual([
    ["MS-MARCO", "MSMARCO-"],
    ["Thorough Decoding", "text-davinci-003"],
  ]);
  const all = await handle.db.select().from(graphAliasSuggestions);
  expect(all.filter((x) => x.status === "rejected")).toHaveLength(1);
});
