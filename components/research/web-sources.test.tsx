import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import { pendingCard } from "@/lib/research/lifecycle";
import type { WebCitationsData } from "@/lib/research/steps/web-citations";
import type { WebSearchData } from "@/lib/research/steps/web-search";
import type { ResearchRunState, ResearchStep, StepOf } from "@/lib/research/types";
import { splitWebCitations } from "./remark-web-citations";
import { SharedRunView } from "./shared-run-view";
import { WebSourceList, webEvidenceOf } from "./web-sources";

const at = "2026-11-26T06:00:00.000Z";
const page = {
  id: "W1",
  url: "https://news.example/glacier",
  title: "Glacier-fed rivers carry more sediment",
  site: "news.example",
  excerpt: "A survey of forty rivers…",
  arxivId: null,
  published: "2025-03-01",
};
const paper = {
  ...page,
  id: "W2",
  url: "https://arxiv.org/abs/2106.09685v2",
  title: "LoRA",
  site: "arxiv.org",
  arxivId: "2106.09685v2",
};

const webData: WebSearchData = {
  ran: true,
  reason: "asked",
  why: "You asked for web search.",
  provider: "SearXNG",
  query: "q",
  results: 3,
  pages: [page, paper],
  skipped: [
    { url: "https://news.example/private", reason: "news.example's robots.txt does not allow fetching /private." },
  ],
};
const citeData: WebCitationsData = {
  total: 2,
  supported: 1,
  unsupported: 1,
  method: "lexical",
  sources: [page, paper],
  citations: [
    {
      index: 1,
      marker: "[W1]",
      sourceId: "W1",
      url: page.url,
      title: page.title,
      claim: "Sediment loads doubled.",
      quote: "Sediment loads doubled between 2001 and 2024.",
      supported: true,
      support: 1,
    },
    {
      index: 2,
      marker: "[W2]",
      sourceId: "W2",
      url: paper.url,
      title: paper.title,
      claim: "Adapters are free.",
      quote: "",
      supported: false,
      support: 0.2,
      reason: "Only 20% of the claim's words are on the page.",
    },
  ],
};

const steps: ResearchStep[] = [
  {
    ...pendingCard<StepOf<"web_search">>({
      id: "web_search",
      type: "web_search",
      title: "Searched the web (you asked)",
    }),
    status: "completed",
    reasoning: webData.why,
    data: webData,
  },
  {
    ...pendingCard<StepOf<"web_citations">>({ id: "web_citations", type: "web_citations", title: "Verified" }),
    status: "completed",
    data: citeData,
  },
];

const run: ResearchRunState = {
  runId: "run_web_1234567890",
  question: "How much more sediment do glacier-fed rivers carry?",
  mode: "offline",
  model: "extractive",
  status: "completed",
  startedAt: at,
  durationMs: 1200,
  steps,
  answer:
    "## From the web\n\n- Sediment loads doubled. [W1]\n- Adapters are free. [W2]\n\n## Web sources\n\n- [W1] Glacier — https://news.example/glacier",
  citations: [],
  references: [],
  warnings: [],
};

describe("web evidence in the run's view", () => {
  it("splits [Wn] markers out of text, each with its claim", () => {
    const parts = splitWebCitations("Sediment loads doubled. [W1] And more [W2]") ?? [];
    const spans = parts.filter((p) => p.type === "emphasis");
    expect(spans.map((s) => (s.data as { hProperties: Record<string, string> }).hProperties)).toEqual([
      { "data-web-citation": "W1", "data-web-claim": "Sediment loads doubled." },
      { "data-web-citation": "W2", "data-web-claim": "And more" },
    ]);
    expect(splitWebCitations("[1706.03762, page 4] and [see above]")).toBeNull();
  });

  it("reads the pages and checked citations from the stored steps", () => {
    expect(webEvidenceOf(steps)).toEqual({ pages: [page, paper], cited: [page, paper], citations: citeData.citations });
    expect(webEvidenceOf([]).cited).toEqual([]);
  });

  it("a share link's page shows web chips, the Web sources list and the web step, without Add to library", () => {
    const html = renderToStaticMarkup(
      <TooltipProvider>
        <SharedRunView token="tok_abcdefghijklmnopqrstuvwxyz0123456789ABCD" run={run} paperIds={[]} />
      </TooltipProvider>,
    );
    expect(html.match(/data-testid="web-citation-chip"/g)).toHaveLength(2);
    expect(html).toMatch(/data-web-id="W1" data-supported="true"/);
    expect(html).toMatch(/data-web-id="W2" data-supported="false"/);
    expect(html).toContain('href="https://news.example/glacier"');
    expect(html).toContain('data-testid="research-web-sources"');
    expect(html.match(/data-testid="research-web-source"/g)).toHaveLength(2);
    // the markdown's own "Web sources" section is not shown twice
    expect(html).not.toContain("[W1] Glacier —");
    expect(html).not.toContain("web-source-add-to-library");
    expect(html).toContain('data-step-id="web_search"');
  });

  it("offers an arXiv paper found on the web for adding, through the library's arXiv panel", () => {
    const html = renderToStaticMarkup(<WebSourceList evidence={webEvidenceOf(steps)} />);
    expect(html.match(/data-testid="web-source-add-to-library"/g)).toHaveLength(1);
    expect(html).toContain('href="/?arxiv=2106.09685v2#add-from-arxiv"');
    expect(html).toContain("Add arXiv:2106.09685v2 to the library");
  });
});
