import { expect, test } from "./fixtures";
import { GraphPage } from "./pages/graph";
import { PaperPage } from "./pages/paper";

/**
 * The knowledge graph in the browser, on a paper of its own whose sentences the offline rules turn into edges: FooNet
 * improves on BarNet and is evaluated on Baz (accepted), and "may outperform" QuxNet (hedged: in review). The graph
 * is built after ingestion in the background, so each test first waits for FooNet to appear.
 */
const PAPER_ID = "2403.05551v1";
const CLAIM = "Our method FooNet outperforms BarNet on the Baz dataset.";
const CLAIM_PAGE = 2;
const HEDGED = "FooNet may outperform QuxNet on small widget collections.";
const PAGES = [
  [
    `arXiv:${PAPER_ID} [cs.IR] 3 Mar 2024`,
    "FooNet: Graph Evidence for Widget Search",
    "Ada Graph",
    "Abstract",
    "We propose FooNet, a retriever for widget search with evidence on every page.",
    "1 Introduction",
    "Widget search needs methods whose claims can be checked against their papers.",
  ].join("\n"),
  ["2 Results", CLAIM, "We evaluate FooNet on the Baz dataset with the same splits as earlier work.", HEDGED].join(
    "\n",
  ),
];

test.use({
  library: {
    papers: [
      {
        id: PAPER_ID,
        fileName: "graph-e2e-foonet.pdf",
        title: "FooNet: Graph Evidence for Widget Search",
        author: "Ada Graph",
        pages: PAGES,
      },
    ],
  },
});

/** The graph is built by the library step after ingestion, in the background: waits until FooNet is in it. */
async function graphReady(graph: GraphPage): Promise<void> {
  await expect(async () => {
    await graph.goto("FooNet");
    await expect(graph.entityName).toHaveText("FooNet", { timeout: 2_000 });
  }).toPass({ timeout: 120_000 });
}

test.describe("knowledge graph", () => {
  test("search an entity, filter its edges, and open an edge's evidence on its PDF page, highlighted", async ({
    page,
  }) => {
    const graph = new GraphPage(page);
    await graphReady(graph);

    // from the empty search: the field has the focus, and "/" brings it back; a misspelt name gets close names,
    // Enter searches
    await graph.goto();
    await expect(graph.input).toBeFocused();
    await expect(graph.input).toHaveAttribute("data-hydrated");
    await graph.input.blur();
    await page.keyboard.press("/");
    await expect(graph.input).toBeFocused();
    await page.keyboard.type("FooNett");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/graph\?q=FooNett$/);
    await expect(graph.notFound).toContainText("No entity named “FooNett”.");
    await graph.notFound.getByRole("link", { name: "FooNet" }).click();
    await expect(page).toHaveURL(/\/graph\?q=FooNet$/);
    await expect(graph.entityName).toHaveText("FooNet");

    // the neighbourhood drawn and listed (accepted edges only: the hedged one waits in review)
    await expect(graph.canvas).toHaveAttribute("data-ready", "true");
    await expect(graph.canvas).toHaveAttribute("data-edge-count", "2");
    await expect(graph.edges).toHaveCount(2);
    await expect(graph.edge("QuxNet")).toHaveCount(0);

    // filters: without improves_on only the evaluation is left
    await graph.relationFilter("improves_on").uncheck();
    await expect(graph.edges).toHaveCount(1);
    await expect(graph.edges.first()).toContainText("Baz");
    // the paper says it twice ("outperforms BarNet on the Baz dataset", "We evaluate FooNet on the Baz dataset"): one
    // claim, both quotes under its evidence
    await expect(graph.edges.first()).toContainText("stated 2 times");
    await expect(graph.canvas).toHaveAttribute("data-edge-count", "1");
    await graph.relationFilter("improves_on").check();
    await expect(graph.edges).toHaveCount(2);

    // the keyboard moves through the list; Enter shows an edge's evidence
    await graph.edge("BarNet").focus();
    await page.keyboard.press("ArrowDown");
    await expect(graph.edge("Baz")).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await expect(graph.edge("BarNet")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(graph.evidence.getByTestId("edge-quote")).toContainText(CLAIM);
    await expect(graph.evidence.getByTestId("edge-page")).toHaveText(String(CLAIM_PAGE));
    await expect(graph.evidence).toContainText("rules (offline)");

    // Open: the paper at the page, the quote highlighted
    await graph.evidence.getByTestId("edge-open").click();
    await expect(page).toHaveURL(
      new RegExp(`/papers/${PAPER_ID.replace(".", "\\.")}\\?page=${CLAIM_PAGE}&start=\\d+&end=\\d+`),
    );
    const paper = new PaperPage(page);
    await expect(paper.highlights(CLAIM_PAGE).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("highlight-status")).toHaveAttribute("data-state", "found");
    await expect(paper.highlights(CLAIM_PAGE)).toContainText(["outperforms"]);
  });

  test("the entity page lists relations by type with their papers", async ({ page }) => {
    await graphReady(new GraphPage(page));
    await page.goto("/graph/entity/FooNet");
    await expect(page.getByTestId("entity-name")).toHaveText("FooNet");
    const improves = page.getByTestId("entity-group-improves_on-out");
    await expect(improves).toContainText("BarNet");
    await expect(improves).toContainText("2024");
    await expect(page.getByTestId("entity-group-evaluates_on-out")).toContainText("Baz");
  });

  test("reject an edge in review with a reason: it leaves the queue", async ({ page }) => {
    const graph = new GraphPage(page);
    await graphReady(graph);
    await graph.gotoReview();
    const item = graph.reviewEdge("QuxNet");
    await expect(item).toBeVisible();
    await expect(item).toContainText("hedged");
    await item.getByTestId("review-reject").click();
    // the reason is required
    await expect(item.getByTestId("review-reject-confirm")).toBeDisabled();
    await item.getByTestId("review-reason").fill("a hedge, not a result");
    await item.getByTestId("review-reject-confirm").click();
    await expect(graph.reviewEdge("QuxNet")).toHaveCount(0);
    await page.reload();
    await expect(graph.reviewEdge("QuxNet")).toHaveCount(0);
  });

  test("signed out (as a share link's reader is), the graph and its review queue send to sign-in", async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, storageState: undefined });
    try {
      const page = await context.newPage();
      for (const path of ["/graph?q=FooNet", "/graph/review", "/graph/entity/FooNet"]) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/sign-in\?next=%2Fgraph/);
        await expect(page.getByTestId("graph-page").or(page.getByTestId("review-page"))).toHaveCount(0);
      }
    } finally {
      await context.close();
    }
  });
});
