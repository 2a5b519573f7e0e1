import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import type { Citation, Reference } from "@/lib/research/types";
import { AnswerMarkdown, citationTarget } from "./answer-view";
import { testCitation } from "./testing";

const PAPER = "2402.04321v1";
const references: Reference[] = [
  {
    number: 1,
    paperId: PAPER,
    title: "Lattice Hashing for Citation Auditing",
    authors: [],
    published: null,
    doi: null,
    arxivId: PAPER,
  },
];

function citation(page: number, claim: string, extra: Partial<Citation>): Citation {
  return testCitation(PAPER, page, claim, extra);
}

const ON_TOPIC = "Lattice hashing lowers the citation error rate to 3.7 percent.";
const ASIDE = "Errors cluster in tables and footnotes.";
const markdown = `${ON_TOPIC} [${PAPER}, page 2] ${ASIDE} [${PAPER}, page 3]`;

/** The opening tag of each citation chip in some HTML. */
function chips(html: string): string[] {
  return [...html.matchAll(/<button[^>]*data-testid="citation-chip"[^>]*>/g)].map((m) => m[0]);
}

function render(citations: Citation[]): string {
  return renderToStaticMarkup(
    <TooltipProvider>
      <AnswerMarkdown
        markdown={markdown}
        citations={citations}
        references={references}
        onOpenCitation={() => {}}
        streaming={false}
      />
    </TooltipProvider>,
  );
}

describe("relevance on the answer's citation chips", () => {
  it("marks a partly relevant claim's chip, and says so in its accessible name; a relevant one stays plain", () => {
    const html = render([
      citation(2, ON_TOPIC, { relevance: "relevant", relevanceReason: "Mentions 4 of the 5 key terms." }),
      citation(3, ASIDE, { relevance: "partly", relevanceReason: "Its passage is on the topic." }),
    ]);
    const [onTopic, aside] = chips(html);
    expect(onTopic).toContain('data-relevance="relevant"');
    expect(onTopic).toContain('aria-label="Open Lattice Hashing for Citation Auditing, page 2"');
    expect(onTopic).not.toContain("border-dashed");
    expect(aside).toContain('data-relevance="partly"');
    expect(aside).toContain("(partly relevant to the question)");
    expect(aside).toContain("border-dashed");
    // one marker, on the partly relevant chip
    expect(html.match(/data-testid="citation-chip-partly"/g)).toHaveLength(1);
  });

  it("names both verdicts on a chip whose claim is unsupported and off-topic", () => {
    const [, aside] = chips(
      render([
        citation(2, ON_TOPIC, { relevance: "relevant" }),
        citation(3, ASIDE, { supported: false, reason: "No overlap.", relevance: "off_topic" }),
      ]),
    );
    expect(aside).toContain('data-relevance="off_topic"');
    expect(aside).toContain("(claim not supported by this passage; off-topic for the question)");
  });

  it("shows no relevance on runs made before it was judged", () => {
    const html = render([citation(2, ON_TOPIC, {}), citation(3, ASIDE, {})]);
    expect(html).not.toContain("data-relevance");
    expect(html).not.toContain("relevant to the question");
  });
});

describe("citationTarget", () => {
  const marker = { paperId: PAPER, page: 3 };
  it("carries the relevance verdict and its reason", () => {
    const t = citationTarget(
      marker,
      ASIDE,
      [citation(3, ASIDE, { relevance: "partly", relevanceReason: "Its passage is on the topic." })],
      references,
    );
    expect(t.relevance).toBe("partly");
    expect(t.relevanceReason).toBe("Its passage is on the topic.");
  });
  it("has none while the answer streams or on an old run", () => {
    expect(citationTarget(marker, ASIDE, [], references).relevance).toBeNull();
    const old = citationTarget(marker, ASIDE, [citation(3, ASIDE, {})], references);
    expect(old.relevance).toBeNull();
    expect(old).not.toHaveProperty("relevanceReason");
  });
});
