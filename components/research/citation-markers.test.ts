import { describe, expect, it } from "vitest";
import type { Citation } from "@/lib/research/types";
import {
  claimRange,
  findMarkers,
  resolveCitation,
  sameId,
  shortPaperId,
  stripReferencesSection,
} from "./citation-markers";

function citation(partial: Partial<Citation>): Citation {
  return {
    index: 1,
    marker: "[x, page 1]",
    paperId: "1706.03762v5",
    page: 4,
    claim: "",
    chunkUid: "c1",
    quote: "",
    charStart: 0,
    charEnd: 10,
    supported: true,
    support: 1,
    ...partial,
  };
}

describe("findMarkers", () => {
  it("reads the answer's citation forms", () => {
    const text =
      "A [1706.03762v5, page 4]. B [arXiv:1810.04805 p.2] C [gradient-checkpointing-for-small-accelerators, p. 2] D [hep-th_9901001v1, page 12]";
    expect(findMarkers(text).map((m) => m.citations)).toEqual([
      [{ paperId: "1706.03762v5", page: 4 }],
      [{ paperId: "1810.04805", page: 2 }],
      [{ paperId: "gradient-checkpointing-for-small-accelerators", page: 2 }],
      [{ paperId: "hep-th_9901001v1", page: 12 }],
    ]);
  });

  it("gives each bracket's position and keeps several citations in one bracket", () => {
    const text = "Both [1706.03762v5, page 4; 1810.04805v2, page 7] agree.";
    const [m] = findMarkers(text);
    expect(m?.citations).toEqual([
      { paperId: "1706.03762v5", page: 4 },
      { paperId: "1810.04805v2", page: 7 },
    ]);
    expect(text.slice(m?.start, m?.end)).toBe("[1706.03762v5, page 4; 1810.04805v2, page 7]");
  });

  it("ignores brackets that are not citations", () => {
    expect(findMarkers("See [1], [see above] and [Table 2] or [x], [page 4]")).toEqual([]);
  });
});

describe("claimRange", () => {
  const claim = (before: string) => {
    const r = claimRange(before);
    return before.slice(r.start, r.end);
  };
  it("is the last sentence before the marker", () => {
    expect(claim("First point. The model reaches 28.4 BLEU ")).toBe("The model reaches 28.4 BLEU");
  });
  it("is the sentence a marker follows after its full stop", () => {
    expect(claim("First point. The model reaches 28.4 BLEU. ")).toBe("The model reaches 28.4 BLEU.");
    expect(claim("Recall rises to 0.81. ")).toBe("Recall rises to 0.81.");
  });
  it("keeps decimals and abbreviations inside the sentence", () => {
    expect(claim("It rises from 0.5 to 0.81 in e.g. long papers ")).toBe(
      "It rises from 0.5 to 0.81 in e.g. long papers",
    );
  });
  it("is empty for a marker right after another one", () => {
    expect(claimRange(" ")).toEqual({ start: 0, end: 0 });
    expect(claimRange("")).toEqual({ start: 0, end: 0 });
  });
});

describe("resolveCitation", () => {
  const a = citation({ index: 1, claim: "Attention replaces recurrence entirely.", supported: true });
  const b = citation({ index: 2, claim: "The base model trains in twelve hours.", supported: false, reason: "no" });
  const other = citation({ index: 3, paperId: "1810.04805v2", page: 4, claim: "BERT is bidirectional." });

  it("matches paper and page, ignoring the arXiv version and case", () => {
    expect(resolveCitation([other, a], { paperId: "1706.03762", page: 4 }, "x")).toBe(a);
    expect(resolveCitation([a], { paperId: "ARXIV:1706.03762V5", page: 4 }, "x")).toBe(a);
    expect(resolveCitation([a], { paperId: "1706.03762v5", page: 5 }, "x")).toBeNull();
    expect(resolveCitation([], { paperId: "1706.03762v5", page: 4 }, "x")).toBeNull();
  });

  it("picks, among citations of one page, the one whose claim is the marker's", () => {
    expect(
      resolveCitation([a, b], { paperId: "1706.03762v5", page: 4 }, "The base model trains in twelve hours."),
    ).toBe(b);
    expect(resolveCitation([a, b], { paperId: "1706.03762v5", page: 4 }, "Attention replaces recurrence")).toBe(a);
  });
});

describe("helpers", () => {
  it("compares ids as the orchestrator does", () => {
    expect(sameId("1706.03762v5", "1706.03762")).toBe(true);
    expect(sameId("1706.03762v5", "1706.03763v5")).toBe(false);
  });

  it("drops the references section, whatever its level", () => {
    expect(stripReferencesSection("## Answer\n\nText.\n\n## References\n\n1. **x** — y")).toBe("## Answer\n\nText.");
    expect(stripReferencesSection("Text.\n### references\n1. x")).toBe("Text.");
    expect(stripReferencesSection("No refs here. The References are elsewhere.")).toBe(
      "No refs here. The References are elsewhere.",
    );
  });

  it("shortens long slugs at a word", () => {
    expect(shortPaperId("1706.03762v5")).toBe("1706.03762v5");
    expect(shortPaperId("gradient-checkpointing-for-small-accelerators")).toBe("gradient-checkpointing…");
    expect(shortPaperId("automatically-correcting-large-language-models-surveying-the")).toBe(
      "automatically-correcting…",
    );
    expect(shortPaperId("logic-lm-empowering-large-language-models-with-symbolic")).toBe("logic-lm-empowering…");
  });
});
