import { describe, expect, it } from "vitest";
import { describeGraphQuestion, recognizeGraphQuestion } from "./question";

describe("recognizeGraphQuestion", () => {
  it.each([
    ["Which papers improve on BERT?", "improved_by", ["BERT"]],
    ["What outperforms the Transformer?", "improved_by", ["Transformer"]],
    ["which methods in my library outperform Lucene-BM25", "improved_by", ["Lucene-BM25"]],
    ["What is better than dense passage retrieval (DPR)?", "improved_by", ["dense passage retrieval (DPR)"]],
    ["Improvements over GPT-3 in my library", "improved_by", ["GPT-3"]],
    ["What came after word2vec?", "improved_by", ["word2vec"]],
    ["What does RAG build on?", "builds_on", ["RAG"]],
    ["What does Retrieval-Augmented Generation use?", "builds_on", ["Retrieval-Augmented Generation"]],
    ["What is ColBERT based on?", "builds_on", ["ColBERT"]],
    ["Which methods are evaluated on HotpotQA?", "evaluated_on", ["HotpotQA"]],
    ["What models were tested on the Natural Questions dataset?", "evaluated_on", ["Natural Questions dataset"]],
    ["Which methods use SQuAD?", "evaluated_on", ["SQuAD"]],
    ["Which papers build on LoRA?", "built_on_by", ["LoRA"]],
    ["What extends the Transformer architecture?", "built_on_by", ["Transformer architecture"]],
    ["How does RoBERTa relate to BERT?", "relate", ["RoBERTa", "BERT"]],
    ["How does XLNet compare with BERT?", "relate", ["XLNet", "BERT"]],
    ["What is the relationship between LoRA and adapters?", "relate", ["LoRA", "adapters"]],
    // the question's own words are not part of the first name
    ["How well does BERT compare to RoBERTa?", "relate", ["BERT", "RoBERTa"]],
    ["Why does BERT differ from RoBERTa?", "relate", ["BERT", "RoBERTa"]],
    ["When was BERT compared to ELMo?", "relate", ["BERT", "ELMo"]],
    // not "relate" with a name "Which methods are": the evaluated-on shape
    ["Which methods are compared against BERT?", "evaluated_on", ["BERT"]],
  ])("%s", (question, kind, entities) => {
    expect(recognizeGraphQuestion(question)).toEqual({ kind, entities });
  });

  it.each([
    "Why are the dot products scaled?",
    "How does multi-head attention work?",
    "What is LoRA?",
    "Summarise the papers on retrieval",
    "How does it compare to them?",
    // a question word where the first name should stand ("Which papers", "What papers cite or")
    "Which papers relate to BERT?",
    "What papers cite or relate to BERT?",
    "Which models are compared with BERT?",
    "",
    // a sentence, not a name, where the name should stand
    "Which papers improve on the way that large pretrained language models are adapted to many different downstream tasks?",
  ])("not a graph question: %s", (question) => {
    expect(recognizeGraphQuestion(question)).toBeNull();
  });

  it("says what it asks in words", () => {
    expect(describeGraphQuestion({ kind: "improved_by", entities: ["BERT"] })).toBe("what improves on BERT");
    expect(describeGraphQuestion({ kind: "relate", entities: ["RoBERTa", "BERT"] })).toBe(
      "how RoBERTa relates to BERT",
    );
  });
});
