import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import type { Citation, Reference } from "@/lib/research/types";
import { AnswerMarkdown } from "./answer-view";
import {
  CITATION_ATTR,
  CLAIM_CITES_ATTR,
  CLAIM_TEXT_ATTR,
  decodeCites,
  encodeCites,
  splitCitations,
} from "./remark-citations";

type Node = { type: string; value?: string; children?: Node[]; data?: { hProperties?: Record<string, string> } };

function describeNodes(nodes: Node[]): string[] {
  return nodes.map((n) => {
    const props = n.data?.hProperties ?? {};
    if (CITATION_ATTR in props) return `cite(${props[CITATION_ATTR]} | ${props[CLAIM_TEXT_ATTR]})`;
    if (CLAIM_CITES_ATTR in props) return `claim(${n.children?.[0]?.value} | ${props[CLAIM_CITES_ATTR]})`;
    return `text(${n.value})`;
  });
}

describe("splitCitations", () => {
  it("is null for text without citations", () => {
    expect(splitCitations("Plain text [1] here.")).toBeNull();
  });

  it("wraps each claim and turns its markers into citations", () => {
    const nodes = splitCitations(
      "Intro. Recall rises to 0.81. [2401.01234v2, page 2] It uses MMR [2401.01234v2, page 2] [1810.04805, page 3] too.",
    ) as Node[];
    expect(describeNodes(nodes)).toEqual([
      "text(Intro. )",
      "claim(Recall rises to 0.81. | 2401.01234v2|2)",
      "text( )",
      "cite(2401.01234v2|2 | Recall rises to 0.81.)",
      "text( )",
      "claim(It uses MMR | 2401.01234v2|2;1810.04805|3)",
      "text( )",
      "cite(2401.01234v2|2 | It uses MMR)",
      "text( )",
      "cite(1810.04805|3 | It uses MMR)",
      "text( too.)",
    ]);
  });

  it("round-trips the citation attribute", () => {
    const cites = [
      { paperId: "hep-th_9901001v1", page: 3 },
      { paperId: "a|b", page: 12 },
    ];
    expect(decodeCites(encodeCites(cites))).toEqual(cites);
    expect(decodeCites(undefined)).toEqual([]);
  });
});

const PAPER = "2401.01234v2";
const references: Reference[] = [
  {
    number: 1,
    paperId: PAPER,
    title: "Sparse Retrieval for Long Scientific Documents",
    authors: ["Ada Lovelace"],
    published: "2024-01-05",
    doi: null,
    arxivId: "2401.01234",
  },
];
const base: Citation = {
  index: 1,
  marker: `[${PAPER}, page 2]`,
  paperId: PAPER,
  page: 2,
  claim: "Reciprocal rank fusion lifts recall at five to 0.81.",
  chunkUid: "u1",
  quote: "Reciprocal rank fusion of the lexicographic and dense lists lifts recall at five to 0.81.",
  charStart: 10,
  charEnd: 90,
  supported: true,
  support: 0.9,
};

function render(markdown: string, citations: Citation[]): string {
  return renderToStaticMarkup(
    createElement(
      TooltipProvider,
      null,
      createElement(AnswerMarkdown, { markdown, citations, references, onOpenCitation: () => {}, streaming: false }),
    ),
  );
}

describe("AnswerMarkdown", () => {
  it("renders citations as chips with the paper and page, and drops the references section", () => {
    const html = render(
      `## Answer\n\nReciprocal rank fusion lifts recall at five to 0.81. [${PAPER}, page 2]\n\n## References\n\n1. **${PAPER}** — Sparse`,
      [base],
    );
    expect(html).toContain('data-testid="citation-chip"');
    expect(html).toContain(`data-paper-id="${PAPER}"`);
    expect(html).toContain('data-page="2"');
    expect(html).toContain('data-supported="true"');
    expect(html).toContain("<h2>Answer</h2>");
    expect(html).not.toContain("References");
    expect(html).not.toContain(`[${PAPER}, page 2]`);
    expect(html).not.toContain("unsupported-claim");
  });

  it("marks an unsupported claim and its chip", () => {
    const html = render(`- Reciprocal rank fusion lifts recall at five to 0.81. [${PAPER}, page 2]`, [
      { ...base, supported: false, reason: "Only 20% of the claim's words are in the cited passage." },
    ]);
    expect(html).toContain('data-testid="unsupported-claim"');
    expect(html).toContain('data-supported="false"');
    expect(html).toMatch(/unsupported-claim"[^>]*>Reciprocal rank fusion lifts recall at five to 0\.81\./);
  });

  it("shows chips while streaming, before the citations are verified", () => {
    const html = render(`Recall rises. [${PAPER}, page 2]`, []);
    expect(html).toContain('data-supported="pending"');
  });

  it("leaves code, links and raw HTML alone", () => {
    const html = render(
      `Code \`[${PAPER}, page 2]\` and <script>alert(1)</script> and [a link](javascript:alert(1)).`,
      [base],
    );
    expect(html).not.toContain("citation-chip");
    expect(html).toContain(`<code>[${PAPER}, page 2]</code>`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("javascript:");
  });
});
