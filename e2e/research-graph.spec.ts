import { expect, test } from "./fixtures";
import { GraphPage } from "./pages/graph";
import { PaperPage } from "./pages/paper";
import { ResearchPage } from "./pages/research";

/**
 * A lineage question in the browser: the run plans a graph_search step after the analysis, its card shows the edge it
 * used as a chip that opens the quote on its PDF page, and the answer leads with the relation cited like any passage.
 * The paper is this file's own (ZephyrRank improves on QuillSearch); the graph is built after ingestion, in the
 * background, so the test first waits for QuillSearch to be in it.
 */
const PAPER_ID = "2404.06661v1";
const TITLE = "ZephyrRank: Ranking Widgets by Their Evidence";
const CLAIM = "ZephyrRank outperforms QuillSearch on the Marble benchmark by nine points.";
const CLAIM_PAGE = 2;
const PAGES = [
  [
    `arXiv:${PAPER_ID} [cs.IR] 9 Apr 2024`,
    TITLE,
    "Grace Hopper",
    "Abstract",
    "We propose ZephyrRank, a widget ranker that weighs each candidate by the evidence behind it.",
    "1 Introduction",
    "Ranking widgets well needs evidence that a reader can check on the page.",
  ].join("\n"),
  ["3 Results", CLAIM, "Both rankers were trained on the same widget logs for the same number of steps."].join("\n"),
];
const QUESTION = "Which methods improve on QuillSearch?";

test.use({
  library: {
    papers: [
      { id: PAPER_ID, fileName: "research-graph-e2e-zephyr.pdf", title: TITLE, author: "Grace Hopper", pages: PAGES },
    ],
  },
});

test("a lineage question: a graph_search card with the edge as a chip, the answer citing its evidence", async ({
  page,
}) => {
  // built by the library step after ingestion
  const graph = new GraphPage(page);
  await expect(async () => {
    await graph.goto("QuillSearch");
    await expect(graph.entityName).toHaveText("QuillSearch", { timeout: 2_000 });
  }).toPass({ timeout: 120_000 });

  const research = new ResearchPage(page);
  await research.goto();
  await research.ask(QUESTION);
  await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  const ids = await research.steps.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.stepId));
  expect(ids.slice(0, 3)).toEqual(["analysis", "graph_search", "query_expansion"]);

  // the analysis says what it asks of the graph; the graph card shows the edge
  const card = research.step("graph_search");
  await expect(card).toHaveAttribute("data-status", "completed");
  await card.getByTestId("research-step-toggle").click();
  const chip = card.getByTestId("graph-edge-chip");
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText("ZephyrRank");
  await expect(chip).toContainText("improves on");
  await expect(chip).toContainText("QuillSearch");
  await expect(chip).toHaveAttribute("data-page", String(CLAIM_PAGE));

  // the answer leads with the relation, cited [PAPER_ID, page N]
  await expect(research.answer).toContainText("What improves on QuillSearch, from the knowledge graph");
  await expect(research.answer).toContainText("ZephyrRank improves on QuillSearch");
  await expect(research.citationChips(PAPER_ID, CLAIM_PAGE).first()).toBeVisible();

  // the chip opens the paper at the page with the quote highlighted
  await chip.click();
  await expect(page).toHaveURL(
    new RegExp(`/papers/${PAPER_ID.replace(".", "\\.")}\\?page=${CLAIM_PAGE}&start=\\d+&end=\\d+`),
  );
  const paper = new PaperPage(page);
  await expect(paper.highlights(CLAIM_PAGE).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("highlight-status")).toHaveAttribute("data-state", "found");
  await expect(paper.highlights(CLAIM_PAGE)).toContainText(["outperforms"]);
});
