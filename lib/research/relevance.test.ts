import { describe, expect, it } from "vitest";
import { citedClaims } from "./citations";
import { withCompanions } from "./relevance";
import type { Citation } from "./types";

describe("relevance of a sentence quoted beside another", () => {
  const cite = (claim: string, relevance: "relevant" | "partly" | "off_topic", page = 4): Citation => ({
    index: 1,
    marker: `[A, page ${page}]`,
    paperId: "A",
    page,
    claim,
    chunkUid: "c",
    quote: claim,
    charStart: 0,
    charEnd: 1,
    supported: true,
    support: 1,
    relevance,
  });

  it("is partly when the claim beside it on its line cites the same page and bears on the question", () => {
    const body =
      "To counteract this, the gradients stay healthy. [A, page 4] We scale the dot products by the key dimension. " +
      "[A, page 4]\n\n- Unrelated weather sentence. [A, page 4]";
    const checked = [
      cite("To counteract this, the gradients stay healthy.", "off_topic"),
      cite("We scale the dot products by the key dimension.", "relevant"),
      cite("Unrelated weather sentence.", "off_topic"),
    ];
    const out = withCompanions(checked, citedClaims(body));
    // the list item follows the relevant claim, on a line of its own: no companion
    expect(out.map((c) => c.relevance)).toEqual(["partly", "relevant", "off_topic"]);
  });

  it("compares the pages as the citations resolved them, not as the markers name them", () => {
    // "[1706.03762, page 4]" resolved to the library's "1706.03762v5"
    const body = "We scale the dot products. [1706.03762, page 4] This keeps them in range. [1706.03762, page 4]";
    const checked = [
      { ...cite("We scale the dot products.", "relevant"), paperId: "1706.03762v5" },
      { ...cite("This keeps them in range.", "off_topic"), paperId: "1706.03762v5" },
    ];
    expect(withCompanions(checked, citedClaims(body)).map((c) => c.relevance)).toEqual(["relevant", "partly"]);
  });

  it("stays off-topic beside a claim of another page, or beside another off-topic claim", () => {
    const body =
      "We scale the dot products. [A, page 4] This keeps the gradients healthy. [A, page 5] Rain. [A, page 5]";
    const checked = [
      cite("We scale the dot products.", "relevant"),
      cite("This keeps the gradients healthy.", "off_topic", 5),
      cite("Rain.", "off_topic", 5),
    ];
    expect(withCompanions(checked, citedClaims(body)).map((c) => c.relevance)).toEqual([
      "relevant",
      "off_topic",
      "off_topic",
    ]);
  });
});
