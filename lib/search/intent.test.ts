import { describe, expect, it } from "vitest";
import { asksToCompare, classifyIntent, FACT_SEEKING } from "./intent";

describe("classifyIntent", () => {
  it("tells a question asking for a result or a mechanism from a comparison or an overview", () => {
    expect(classifyIntent("How much faster is the re-ranker on 512-token documents?").intent).toBe("performance");
    expect(classifyIntent("What accuracy does the model reach on SQuAD?").intent).toBe("performance");
    expect(classifyIntent("Why does the Transformer scale the dot products?").intent).toBe("technical");
    expect(classifyIntent("Compare retrieval-augmented generation with in-context retrieval").intent).toBe(
      "comparison",
    );
    expect(classifyIntent("Give me an overview of retrieval-augmented generation").intent).toBe("summary");
    expect(classifyIntent("rank fusion").intent).toBe("unknown");
  });

  it("says what matched, and by how much the winner leads", () => {
    const r = classifyIntent("What accuracy does BERT reach, and how much does it improve over ELMo?");
    expect(r).toMatchObject({ intent: "performance", labels: expect.arrayContaining(["a metric"]) });
    expect(r.score).toBeGreaterThan(0);
    expect(r.margin).toBeGreaterThanOrEqual(0);
  });

  it("counts results and mechanisms as fact-seeking, comparisons, overviews and the unknown not", () => {
    expect([...FACT_SEEKING].sort()).toEqual(["performance", "technical"]);
  });
});

describe("asksToCompare", () => {
  it("finds a comparison or a choice whatever intent wins, and nothing in a plain question", () => {
    // a "how" question first, a comparison too
    expect(classifyIntent("How does BERT compare to ELMo?").intent).toBe("technical");
    expect(asksToCompare("How does BERT compare to ELMo?")).toBe(true);
    expect(asksToCompare("How do RAG and fine-tuning differ for knowledge-intensive tasks?")).toBe(true);
    // no intent's pattern, a choice all the same
    expect(classifyIntent("Which is better for retrieval, DPR or BM25?").intent).toBe("unknown");
    expect(asksToCompare("Which is better for retrieval, DPR or BM25?")).toBe(true);
    expect(asksToCompare("LoRA or adapters: which should I use?")).toBe(true);
    expect(asksToCompare("What are the trade-offs between self-consistency and chain-of-thought prompting?")).toBe(
      true,
    );
    expect(asksToCompare("How do tidal pool sensor networks measure salinity?")).toBe(false);
    expect(asksToCompare("Which datasets was XLNet evaluated on?")).toBe(false);
    expect(asksToCompare("Which methods use BM25?")).toBe(false);
    // words that name things as often as they compare them
    expect(asksToCompare("How does contrastive learning work?")).toBe(false);
    expect(asksToCompare("How do different tokenizers handle Unicode?")).toBe(false);
    expect(asksToCompare("Which models reach more than 90% accuracy on SQuAD?")).toBe(false);
    expect(asksToCompare("How is the learning rate set relative to batch size?")).toBe(false);
    expect(asksToCompare("Which models were trained to use retrieval?")).toBe(false);
    expect(asksToCompare("Which paper introduced the best-known variant of BM25?")).toBe(false);
    expect(asksToCompare("Is LoRA better than full fine-tuning?")).toBe(true);
  });
});
