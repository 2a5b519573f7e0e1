import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { isStrongSuggestion, ReviewQueue } from "./review-queue";
import type { ReviewActions, ReviewEdge } from "./types";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => {} }) }));

const edge: ReviewEdge = {
  id: 7,
  relation: "improves_on",
  source: { id: 1, name: "FooNet", type: "Method" },
  target: { id: 2, name: "QuxNet", type: "Method" },
  paper_id: "2403.05551v1",
  paper_title: "FooNet: Graph Evidence",
  year: 2024,
  page: 2,
  quote: "FooNet may outperform QuxNet on small widget collections.",
  char_start: 100,
  char_end: 157,
  confidence: 0.5,
  status: "review",
  extractor: "rules",
  reason: "confidence 0.50 is below 0.6 (hedged)",
};
const link = {
  entity: { id: 3, name: "Dense Widget Retriever", type: "Method" as const },
  root: { id: 4, name: "DWR", type: "Method" as const },
  tier: "A" as const,
  reason: "defined in 2403.05551v1",
};
const suggestion = {
  id: 9,
  entity: { id: 5, name: "BarNet", type: "Method" as const },
  candidate: { id: 6, name: "BarNet-L", type: "Method" as const },
  similarity: 0.93,
  reason: "similar vectors",
};
const actions: ReviewActions = {
  reviewEdge: async () => ({ ok: true, data: { id: 7, status: "accepted" } }),
  decideSuggestion: async (i) => ({ ok: true, data: i }),
  splitAlias: async (i) => ({ ok: true, data: i }),
};

function render(withActions: ReviewActions | null): string {
  return renderToStaticMarkup(
    <ReviewQueue edges={[edge]} suggestions={[suggestion]} links={[link]} actions={withActions} maxReasonChars={300} />,
  );
}

describe("the review queue", () => {
  it("shows a role that may only look everything, with no way to decide", () => {
    const html = render(null);
    expect(html).toContain("FooNet may outperform QuxNet");
    expect(html).toContain("hedged");
    expect(html).toContain("BarNet-L");
    expect(html).toContain("Dense Widget Retriever");
    expect(html).toContain('data-testid="review-read-only"');
    for (const id of ["review-accept", "review-reject", "suggestion-confirm", "suggestion-reject", "alias-split"]) {
      expect(html).not.toContain(`data-testid="${id}"`);
    }
  });

  it("gives a role that may decide every decision, and the evidence's link to the PDF", () => {
    const html = render(actions);
    expect(html).not.toContain('data-testid="review-read-only"');
    for (const id of ["review-accept", "review-reject", "suggestion-confirm", "suggestion-reject", "alias-split"]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(html).toContain('href="/papers/2403.05551v1?page=2&amp;start=100&amp;end=157"');
  });
});

describe("a proposed alias's buttons", () => {
  /** The opening tag of the button with this test id. */
  function button(html: string, testId: string): string {
    return html.match(new RegExp(`<button[^>]*data-testid="${testId}"[^>]*>`))?.[0] ?? "";
  }
  function buttons(similarity: number | null, names: [string, string] = ["BarNet", "BarNets"]) {
    const html = renderToStaticMarkup(
      <ReviewQueue
        edges={[]}
        suggestions={[
          {
            ...suggestion,
            entity: { ...suggestion.entity, name: names[0] },
            candidate: { ...suggestion.candidate, name: names[1] },
            similarity,
          },
        ]}
        links={[]}
        actions={actions}
        maxReasonChars={300}
      />,
    );
    return { confirm: button(html, "suggestion-confirm"), reject: button(html, "suggestion-reject") };
  }
  const filled = "bg-primary";

  it("make Same entity the filled button only for one name written two ways, its vectors as alike as a linked pair's", () => {
    const pair = (a: string, b: string, similarity: number | null = 0.97) =>
      isStrongSuggestion({ similarity, entity: { name: a }, candidate: { name: b } });
    expect(pair("ResNet", "ResNets")).toBe(true);
    expect(pair("Self-Refine", "self refine")).toBe(true);
    const { confirm, reject } = buttons(0.97);
    expect(confirm).toContain(filled);
    expect(reject).not.toContain(filled);
    // names whose vectors are alike but which are not one name written otherwise: both answers alike
    expect(pair("G-Eval", "IF-Eval", 1)).toBe(false);
    expect(pair("Codex", "Codex-S", 1)).toBe(false);
    expect(isStrongSuggestion({ similarity: 0.97 })).toBe(false);
    expect(buttons(1, ["G-Eval", "IF-Eval"]).confirm).not.toContain(filled);
  });

  it("show both answers alike for a weak proposal: vectors less alike, or a shared acronym alone", () => {
    for (const similarity of [0.93, 0.6, null]) {
      expect(isStrongSuggestion({ similarity })).toBe(false);
      const { confirm, reject } = buttons(similarity);
      expect(confirm).toContain('data-testid="suggestion-confirm"');
      expect(confirm).not.toContain(filled);
      expect(reject).not.toContain(filled);
    }
  });
});
