import { describe, expect, it } from "vitest";
import type { Candidate } from "./types";
import { PageIndex, validateCandidate } from "./validate";

const page1 =
  "We present DPR, a dense retriever. Our dense retriever outper-\nforms a strong Lucene-BM25 system largely " +
  "by 9%-19% absolute in top-20 passage retrieval accuracy.\nThe weather was nice that day in the lab.";
const pages = new PageIndex([
  { pageNumber: 1, text: page1 },
  { pageNumber: 2, text: "We evaluate on Natural Questions and TriviaQA." },
]);
const ctx = { pages, aliases: () => [], ownMethod: "DPR" };

const candidate = (over: Partial<Candidate> = {}): Candidate => ({
  relation: "improves_on",
  source: { name: "DPR", type: "Method" },
  target: { name: "Lucene-BM25", type: "Method" },
  page: 1,
  quote: "Our dense retriever outperforms a strong Lucene-BM25 system",
  confidence: 0.8,
  extractor: "rules",
  ...over,
});

describe("validateCandidate", () => {
  it("accepts a quote found on its page after folding, and stores the page's own text with its offsets", () => {
    const r = validateCandidate(candidate(), ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.edge.status).toBe("accepted");
    expect(page1.slice(r.edge.charStart, r.edge.charEnd)).toBe(r.edge.quote);
    expect(r.edge.quote).toContain("outper-\nforms");
  });

  it("sends a confidence below 0.6 to review with a reason", () => {
    const r = validateCandidate(candidate({ confidence: 0.5 }), ctx);
    expect(r.ok && r.edge.status).toBe("review");
    expect(r.ok && r.edge.reason).toMatch(/below 0.6/);
  });

  it("rejects a quote that is not on the stated page (even if it is on another)", () => {
    const r = validateCandidate(
      candidate({
        relation: "evaluates_on",
        target: { name: "TriviaQA", type: "Dataset" },
        quote: "We evaluate on Natural Questions and TriviaQA.",
      }),
      ctx,
    );
    expect(r).toMatchObject({ ok: false, reason: "quote_not_on_page" });
    expect(validateCandidate(candidate({ page: 9 }), ctx)).toMatchObject({ ok: false, reason: "page_missing" });
  });

  it("rejects self edges, types that do not fit, and names absent from the quote's neighbourhood", () => {
    expect(validateCandidate(candidate({ target: { name: "dpr", type: "Method" } }), ctx)).toMatchObject({
      ok: false,
      reason: "self_edge",
    });
    // a method does not use its own variant; it may improve on one or introduce one
    const variant = { target: { name: "DPR-multi", type: "Method" as const } };
    expect(validateCandidate(candidate({ ...variant, relation: "uses" }), ctx)).toMatchObject({
      ok: false,
      reason: "self_edge",
    });
    expect(validateCandidate(candidate({ ...variant, relation: "introduces" }), ctx)).not.toMatchObject({
      reason: "self_edge",
    });
    expect(validateCandidate(candidate({ relation: "evaluates_on" }), ctx)).toMatchObject({
      ok: false,
      reason: "type_mismatch",
    });
    expect(
      validateCandidate(candidate({ target: { name: "ColBERT", type: "Method" }, quote: "The weather was nice" }), ctx),
    ).toMatchObject({ ok: false, reason: "names_not_in_context" });
  });

  it("counts the paper's own method as present when the text says “our …” near the quote", () => {
    const r = validateCandidate(candidate({ source: { name: "DPR", type: "Method" } }), { ...ctx, ownMethod: "DPR" });
    expect(r.ok).toBe(true);
    const other = validateCandidate(candidate({ source: { name: "ColBERT", type: "Method" } }), ctx);
    expect(other).toMatchObject({ ok: false, reason: "names_not_in_context" });
  });

  it("rejects malformed candidates (model output of the wrong shape)", () => {
    for (const bad of [
      { ...candidate(), relation: "is_better_than" },
      { ...candidate(), source: { name: "", type: "Method" } },
      { ...candidate(), target: { name: "BM25", type: "Algorithm" } },
      { ...candidate(), confidence: 7 },
      { ...candidate(), page: "one" },
      { ...candidate(), quote: "" },
    ]) {
      expect(validateCandidate(bad as unknown as Candidate, ctx)).toMatchObject({ ok: false, reason: "malformed" });
    }
  });

  it("rejects a quote longer than 300 characters", () => {
    const long = `${"word ".repeat(70)}DPR outperforms BM25.`;
    const p = new PageIndex([{ pageNumber: 1, text: long }]);
    const r = validateCandidate(candidate({ target: { name: "BM25", type: "Method" }, quote: long }), {
      ...ctx,
      pages: p,
    });
    expect(r).toMatchObject({ ok: false, reason: "quote_too_long" });
  });
});
