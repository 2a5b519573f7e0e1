import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { ReviewQueue } from "./review-queue";
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
