import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CitationTarget } from "./answer-view";
import { CitationVerdicts } from "./citation-sheet";

const target: CitationTarget = {
  paperId: "2402.04321v1",
  page: 2,
  title: "Lattice Hashing for Citation Auditing",
  quote: "Errors cluster in tables.",
  claim: "Errors cluster in tables.",
  supported: true,
  relevance: "relevant",
};

/** Each verdict line as `testid/attribute: text`. */
function verdicts(t: CitationTarget): string[] {
  const html = renderToStaticMarkup(<CitationVerdicts target={t} />);
  return [...html.matchAll(/<li[^>]*data-testid="citation-sheet-(\w+)" data-(\w+)="([^"]*)"[^>]*>(.*?)<\/li>/g)].map(
    (m) => `${m[1]}/${m[3]}: ${(m[4] as string).replace(/<[^>]+>/g, "")}`,
  );
}

describe("the citation sheet's verdicts", () => {
  it("shows the relevance verdict beside the support verdict", () => {
    expect(verdicts(target)).toEqual([
      "support/true: Supported by this passage",
      "relevance/relevant: Relevant to the question",
    ]);
  });

  it("gives the reason of a partly relevant claim, and of an unsupported one", () => {
    expect(
      verdicts({
        ...target,
        supported: false,
        reason: "The passage says nothing of tables.",
        relevance: "partly",
        relevanceReason: "Mentions 1 of the 4 key terms; the rest of the question is not in it.",
      }),
    ).toEqual([
      "support/false: Not supported by this passage: The passage says nothing of tables.",
      "relevance/partly: Partly relevant: Mentions 1 of the 4 key terms; the rest of the question is not in it.",
    ]);
  });

  it("names an off-topic claim as such (old or model-judged data may carry one)", () => {
    expect(verdicts({ ...target, relevance: "off_topic", relevanceReason: "No key term." })).toEqual([
      "support/true: Supported by this passage",
      "relevance/off_topic: Off-topic: No key term.",
    ]);
    expect(verdicts({ ...target, relevance: "off_topic" })[1]).toBe("relevance/off_topic: Off-topic for the question.");
  });

  it("shows only the support verdict on a run made before relevance was judged, and nothing before verification", () => {
    expect(verdicts({ ...target, relevance: null })).toEqual(["support/true: Supported by this passage"]);
    expect(renderToStaticMarkup(<CitationVerdicts target={{ ...target, supported: null, relevance: null }} />)).toBe(
      "",
    );
  });
});
