import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { sharePaperLinks } from "@/components/paper/paper-links";
import { TooltipProvider } from "@/components/ui/tooltip";
import { contentSearchStep } from "@/lib/research/steps/search-content";
import type { Citation, ResearchRunState, StepSource } from "@/lib/research/types";
import { RunView } from "./run-view";
import { SharedRunView } from "./shared-run-view";
import { IDLE_RUN_VIEW } from "./testing";

const at = "2026-11-26T06:00:00.000Z";
const TOKEN = "tok_abcdefghijklmnopqrstuvwxyz0123456789ABCD";

function source(paperId: string): StepSource {
  return {
    id: `${paperId}:1`,
    type: "passage",
    title: `Title of ${paperId}`,
    paperId,
    page: 3,
    excerpt: "",
    similarity: 0.8,
  };
}

const citation: Citation = {
  index: 1,
  marker: "[2101.00001, page 3]",
  paperId: "2101.00001",
  page: 3,
  claim: "Tides are sensed.",
  chunkUid: null,
  quote: "Tides are sensed by the array.",
  charStart: null,
  charEnd: null,
  supported: true,
  support: 1,
};

/** A run that ended badly (its search step open, as a failed step is) with an answer, a citation and references. */
const run: ResearchRunState = {
  runId: "sharedRun0000001",
  question: "How are tides sensed?",
  mode: "offline",
  model: "extractive",
  status: "failed",
  startedAt: at,
  durationMs: 1200,
  steps: [
    {
      ...contentSearchStep.card(),
      status: "failed",
      startedAt: at,
      sources: [source("2101.00001"), source("2101.00009")],
      error: { code: "internal", message: "It broke." },
    },
  ],
  answer: "Tides are sensed [2101.00001, page 3].",
  citations: [citation],
  references: [
    {
      number: 1,
      paperId: "2101.00001",
      title: "Tidal sensing",
      authors: ["A. Author"],
      published: "2021",
      doi: null,
      arxivId: "2101.00001",
    },
  ],
  warnings: [],
  error: { code: "internal", message: "It broke." },
};

/** As the app renders it: under the layout's providers (citation chips have tooltips). */
const render = (node: React.ReactNode) => renderToStaticMarkup(<TooltipProvider>{node}</TooltipProvider>);

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

describe("a shared run (read-only)", () => {
  const html = render(<SharedRunView token={TOKEN} run={run} paperIds={["2101.00001"]} />);

  it("shows the question, the steps, the answer with its citation and the references", () => {
    expect(html).toContain('data-testid="shared-run"');
    expect(html).toContain("How are tides sensed?");
    expect(html).toContain('data-testid="research-step"');
    expect(html).toContain('data-testid="citation-chip"');
    expect(html).toContain('data-testid="research-references"');
  });

  it("has no control that acts on the run", () => {
    for (const testId of [
      "research-cancel",
      "research-copy-link",
      "research-feedback",
      "research-retry",
      "research-run-again",
      "research-share",
      "research-delete-run",
    ]) {
      expect(html).not.toContain(`data-testid="${testId}"`);
    }
    expect(html).not.toContain("Try again");
    expect(html).not.toContain("Go to the library");
  });

  it("links only into the share: the cited paper at its page, other papers not at all", () => {
    const links = hrefs(html);
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect(href?.startsWith(`/s/${TOKEN}/papers/2101.00001`)).toBe(true);
    expect(links).toContain(`/s/${TOKEN}/papers/2101.00001?page=3`);
    // the uncited paper of the step card is named, not linked
    expect(html).toMatch(/<span [^>]*data-link="none"[^>]*data-paper-id="2101\.00009"/);
    expect(html).not.toMatch(/<a [^>]*data-paper-id="2101\.00009"/);
    expect(html).not.toContain("/papers/2101.00009");
  });
});

describe("the same run on its author's page", () => {
  it("keeps its controls and links into the library", () => {
    const html = render(<RunView run={{ ...run, status: "completed", error: undefined }} {...IDLE_RUN_VIEW} />);
    expect(html).toContain('data-testid="research-copy-link"');
    expect(html).toContain('data-testid="research-feedback"');
    expect(hrefs(html)).toContain("/papers/2101.00001");
  });
});

describe("share links of papers", () => {
  it("open the run's papers inside the share, with their viewer parameters, and no other paper", () => {
    const links = sharePaperLinks(TOKEN, ["2101.00001", "hep-th/9901001v1"]);
    expect(links.paperPage("2101.00001", { page: 4, hl: "a passage" })).toBe(
      `/s/${TOKEN}/papers/2101.00001?page=4&hl=a+passage`,
    );
    expect(links.paperPage("hep-th/9901001v1")).toBe(`/s/${TOKEN}/papers/hep-th%2F9901001v1`);
    expect(links.paperPage("2101.00009")).toBeNull();
    expect(links.pdf("hep-th/9901001v1")).toBe(`/s/${TOKEN}/papers/hep-th%2F9901001v1/pdf`);
  });
});
