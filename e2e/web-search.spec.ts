import { expect, test } from "./fixtures";
import { ResearchPage } from "./pages/research";

/**
 * Web search as a step the plan chooses (issue 23), against the web stand-in the config starts (e2e/web-stand-in.ts:
 * SearXNG JSON and a few pages, one disallowed by robots.txt). The e2e app runs with LECTERN_WEB_SEARCH=on_request,
 * so only this spec's toggle sends anything to the web.
 */
const PAPER_ID = "2403.05555v1";
const TITLE = "Lattice Hashing Revisited for Citation Audits";
test.use({
  library: {
    papers: [
      {
        id: PAPER_ID,
        fileName: "web-search-e2e-lattice.pdf",
        title: TITLE,
        author: "Grace Hopper",
        pages: [
          [
            `arXiv:${PAPER_ID} [cs.DL] 9 Mar 2024`,
            TITLE,
            "Grace Hopper",
            "Abstract",
            "We revisit lattice hashing for auditing citations in long technical reports and measure its recall.",
          ].join("\n"),
        ],
      },
    ],
  },
});

const QUESTION = "How much more sediment do glacier-fed rivers carry as the glaciers retreat?";

test("a question the library cannot answer, with web search on: a web step, [W1] citations and Web sources", async ({
  page,
  browser,
}, testInfo) => {
  const research = new ResearchPage(page);
  await research.goto();
  const toggle = page.getByTestId("research-web-toggle");
  await expect(page.getByTestId("research-web")).toContainText("Search the web too");
  await expect(page.getByTestId("research-web")).toContainText("SearXNG");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await research.ask(QUESTION);

  await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  const webStep = research.step("web_search");
  await expect(webStep).toHaveAttribute("data-status", "completed");
  await expect(webStep).toContainText("Searched the web (you asked): read 2 pages via SearXNG");
  // the card says why, what it read and what it did not (robots.txt)
  await webStep.getByTestId("research-step-toggle").click();
  await expect(webStep.getByTestId("research-step-reasoning")).toContainText("You asked for web search.");
  await expect(webStep.getByTestId("web-step-page")).toHaveCount(2);
  await expect(webStep.locator('[data-testid="research-step-data"][data-key="skipped-0"]')).toContainText(
    "robots.txt does not allow fetching /private/glacier-notes",
  );
  await expect(research.step("web_citations")).toHaveAttribute("data-status", "completed");

  // [W1] chips in the answer, checked against the page; the answer says it is from the web
  await expect(research.answer).toContainText("From the web");
  const chips = page.getByTestId("web-citation-chip");
  await expect(chips.first()).toBeVisible();
  await expect(page.locator('[data-testid="web-citation-chip"][data-web-id="W1"]').first()).toHaveAttribute(
    "data-supported",
    "true",
  );
  await expect(research.answer).not.toContainText("must never be fetched");
  // a separate Web sources list, not the library's references
  const sources = page.getByTestId("research-web-sources");
  await expect(sources).toContainText("Web sources");
  await expect(sources.getByTestId("research-web-source").first()).toContainText(
    "Glacier-fed rivers carry more sediment as ice retreats",
  );
  await page.screenshot({ path: testInfo.outputPath("web-search-answer.png"), fullPage: true });

  // stored with the run: a reload shows the same
  await page.reload();
  await expect(research.run).toHaveAttribute("data-status", "completed");
  await expect(research.step("web_search")).toContainText("you asked");
  await expect(page.getByTestId("web-citation-chip").first()).toBeVisible();
  await expect(page.getByTestId("research-web-source").first()).toBeVisible();

  // a share link shows them too, without an account (and without Add to library)
  await page.getByTestId("research-share").click();
  await page.getByTestId("share-create").click();
  const shareUrl = await page.getByTestId("share-url").inputValue();
  const anonymous = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const shared = await anonymous.newPage();
  await shared.goto(shareUrl);
  await expect(shared.getByTestId("shared-run")).toBeVisible();
  await expect(shared.locator('[data-testid="research-step"][data-step-id="web_search"]')).toContainText("you asked");
  await expect(shared.getByTestId("web-citation-chip").first()).toHaveAttribute("data-supported", "true");
  await expect(shared.getByTestId("research-web-source").first()).toContainText(
    "Glacier-fed rivers carry more sediment as ice retreats",
  );
  await expect(shared.getByTestId("web-source-add-to-library")).toHaveCount(0);
  await shared.screenshot({ path: testInfo.outputPath("web-search-shared.png"), fullPage: true });
  await anonymous.close();
});
