import { describe, expect, it } from "vitest";
import { isBibliography } from "./bibliography";

const ENTRIES =
  "Ashish Vaswani, Noam Shazeer, and Niki Parmar. 2017. Attention is all you need. In Advances in Neural Information " +
  "Processing Systems, pages 5998–6008. Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. " +
  "BERT: Pre-training of deep bidirectional transformers. In Proceedings of NAACL 2019. Patrick Lewis et al. 2020a. " +
  "Retrieval-augmented generation for knowledge-intensive NLP tasks. arXiv preprint arXiv:2005.11401.";

describe("isBibliography", () => {
  it("is the References section when it reads like a list of references", () => {
    expect(isBibliography("References", ENTRIES)).toBe(true);
    expect(isBibliography("7 References", ENTRIES)).toBe(true);
    expect(isBibliography("VI. REFERENCES", ENTRIES)).toBe(true);
    expect(isBibliography("Bibliography", ENTRIES)).toBe(true);
  });

  it("is not content outside the References section, however many years it cites", () => {
    expect(isBibliography("2 Related Work", ENTRIES)).toBe(false);
    expect(isBibliography(null, ENTRIES)).toBe(false);
    expect(isBibliography(undefined, ENTRIES)).toBe(false);
    // a subsection named like the list but under another heading
    expect(isBibliography("A Appendix › A.1 References to prior prompts", ENTRIES)).toBe(false);
  });

  it("is not the material after the references that the section finder cannot tell apart from them", () => {
    // supplementary figures and text after the list carry the References label but no run of publication years
    // (one year in about 120 words, where a list of references has one every 10–20)
    const supplement = `${"Subspace dim d 0.2 0.4 0.6 0.8 1.0 Validation accuracy width 50, depth 1. ".repeat(8)}Because each random basis vector projects across all D direct parameters, the problem is harder than in 2017.`;
    expect(isBibliography("References", supplement)).toBe(false);
    expect(isBibliography("References", "")).toBe(false);
  });
});
