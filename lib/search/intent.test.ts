import { describe, expect, it } from "vitest";
import { classifyIntent, FACT_SEEKING } from "./intent";

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
