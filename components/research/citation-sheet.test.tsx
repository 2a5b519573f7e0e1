// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import type { Citation, ResearchRunState } from "@/lib/research/types";
import type { CitationTarget } from "./answer-view";
import { CitationVerdicts } from "./citation-sheet";
import { RunView } from "./run-view";
import { IDLE_RUN_VIEW, testCitation } from "./testing";

// pdf.js needs a real browser (canvas, workers): the sheet's viewer is not what these tests look at
vi.mock("@/components/pdf/pdf-viewer-loader", () => ({
  PdfViewer: () => <div data-testid="pdf-viewer-stub" />,
}));

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

const PAPER = "2402.04321v1";
const CLAIM = "Lattice hashing lowers the citation error rate to 3.7 percent.";
const ASIDE = "Errors cluster in tables and footnotes.";

function citation(page: number, claim: string): Citation {
  return testCitation(PAPER, page, claim);
}

const finished: ResearchRunState = {
  runId: "citationFocusRun1",
  question: "How does lattice hashing audit citations?",
  mode: "offline",
  model: "extractive",
  status: "completed",
  startedAt: "2026-11-26T06:00:00.000Z",
  durationMs: 1200,
  steps: [],
  answer: `${CLAIM} [${PAPER}, page 2] ${ASIDE} [${PAPER}, page 3]`,
  citations: [citation(2, CLAIM), citation(3, ASIDE)],
  references: [
    {
      number: 1,
      paperId: PAPER,
      title: "Lattice Hashing for Citation Auditing",
      authors: [],
      published: null,
      doi: null,
      arxivId: PAPER,
    },
  ],
  warnings: [],
};

function view(run: ResearchRunState) {
  return (
    <TooltipProvider>
      <RunView run={run} {...IDLE_RUN_VIEW} />
    </TooltipProvider>
  );
}

/** The answer's chip of page `page`. */
function chip(page: number): HTMLElement {
  const found = screen.getAllByTestId("citation-chip").find((c) => c.dataset.page === String(page));
  if (!found) throw new Error(`no chip of page ${page}`);
  return found;
}

describe("closing the citation sheet", () => {
  afterEach(cleanup);

  it("gives the focus back to the chip that opened it (Escape)", async () => {
    const user = userEvent.setup();
    render(view(finished));
    chip(3).focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByTestId("citation-sheet")).toBeTruthy();
    expect(document.activeElement).not.toBe(chip(3));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("citation-sheet")).toBeNull());
    expect(document.activeElement).toBe(chip(3));
  });

  it("gives the focus back to the chip that opened it (the close button)", async () => {
    const user = userEvent.setup();
    render(view(finished));
    await user.click(chip(2));
    await screen.findByTestId("citation-sheet");
    await user.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByTestId("citation-sheet")).toBeNull());
    expect(document.activeElement).toBe(chip(2));
  });

  it("finds the same citation's chip when the answer was drawn anew while the sheet was open", async () => {
    const user = userEvent.setup();
    const { rerender } = render(view(finished));
    const opener = chip(3);
    opener.focus();
    await user.keyboard("{Enter}");
    await screen.findByTestId("citation-sheet");
    // verification's new citations redraw the answer's chips: the one that opened the sheet is gone
    act(() => rerender(view({ ...finished, citations: finished.citations.map((c) => ({ ...c })) })));
    expect(opener.isConnected).toBe(false);
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("citation-sheet")).toBeNull());
    expect(document.activeElement).toBe(chip(3));
  });
});
