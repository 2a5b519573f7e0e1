import { expect, HIGHLIGHT_PAGE, PAPER_ARXIV_STAMP, PAPER_AUTHORS, PAPER_PAGES, PAPER_TITLE, test } from "./fixtures";
import { PaperPage } from "./pages/paper";
import { SearchPage } from "./pages/search";

/**
 * The search page against a paper of its own: the fixture paper (HIGHLIGHT_SENTENCE on page 2) under another arXiv id
 * and category, uploaded before the tests and deleted after them (`library`), so this file neither needs nor disturbs
 * the papers of other specs. Each test starts from a URL; none depends on another.
 */
const PAPER_ID = "2301.05678v1";
const FILE_NAME = "search-e2e-sparse-retrieval.pdf";
/** Page 4: the rest of the reference list that starts on page 3 — a page content search leaves out by default. */
const REFERENCES_PAGE = 4;
const PAGES = [
  PAPER_PAGES[0]?.replace(PAPER_ARXIV_STAMP, `arXiv:${PAPER_ID} [cs.IR] 5 Jan 2023`) ?? "",
  ...PAPER_PAGES.slice(1),
  [
    "[2] S. Robertson and H. Zaragoza. The probabilistic relevance framework: BM25 and beyond. 2009.",
    "[3] S. Robertson, S. Walker and M. Beaulieu. Okapi at TREC-7: automatic ad hoc filtering. 1998.",
    "[4] G. Cormack, C. Clarke and S. Buettcher. Reciprocal rank fusion outperforms Condorcet. 2009.",
    "[5] J. Carbonell and J. Goldstein. The use of MMR, diversity-based reranking. 1998.",
    "[6] V. Karpukhin et al. Dense passage retrieval for open-domain question answering. 2020.",
    "[7] Y. Malkov and D. Yashunin. Efficient approximate nearest neighbor search using HNSW graphs. 2018.",
    "[8] S. Deerwester et al. Indexing by latent semantic analysis. 1990.",
  ].join("\n"),
];
/** Words found only in the reference list of page 4. */
const REFERENCES_QUERY = "Okapi TREC probabilistic relevance framework";

/** A paraphrase of HIGHLIGHT_SENTENCE ("Reciprocal rank fusion of the lexicographic and dense lists lifts recall…"). */
const QUESTION = "Does fusing the lexicographic and dense rankings lift recall?";

test.use({
  library: {
    papers: [{ id: PAPER_ID, fileName: FILE_NAME, title: PAPER_TITLE, author: PAPER_AUTHORS.join(", "), pages: PAGES }],
  },
});

test.describe("search", () => {
  test("a paraphrased question finds the passage under its paper, says why, and opens it highlighted", async ({
    page,
  }) => {
    const search = new SearchPage(page);
    await search.goto();
    await expect(search.idleState).toBeVisible();

    // "/" jumps to the box; Enter searches
    await search.ready();
    await page.keyboard.press("/");
    await expect(search.input).toBeFocused();
    await page.keyboard.type(QUESTION);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=Does\+fusing/);

    const group = search.group(PAPER_ID);
    await expect(group).toBeVisible();
    await expect(group.getByTestId("result-title")).toHaveText(PAPER_TITLE);
    await expect(search.pageChip(PAPER_ID, HIGHLIGHT_PAGE)).toBeVisible();
    const passage = search.passages(PAPER_ID, HIGHLIGHT_PAGE).first();
    await expect(passage.getByTestId("passage-link")).toContainText("Reciprocal rank fusion of the lexicographic");
    // the section of the paper the passage is in
    await expect(passage.getByTestId("passage-section")).toHaveText(/2 Method/);
    await expect(passage.getByTestId("term-match").filter({ hasText: /lexicographic/i })).toBeVisible();
    // why it ranked: the relevance shown; both retrievers' ranks and scores and the fused score behind "Why here"
    await expect(passage.getByTestId("ranking-fused")).toBeHidden();
    await passage.getByTestId("ranking-why").locator("summary").click();
    await expect(passage.getByTestId("ranking-fused")).toBeVisible();
    await expect(passage.getByTestId("ranking-fts")).toHaveText(/Full text#\d+ · BM25 \d+\.\d\d/);
    await expect(passage.getByTestId("ranking-vector")).toHaveText(/Vector#\d+ · cosine -?\d\.\d{3}/);
    await expect(passage.getByTestId("ranking-fused")).toHaveText(/Fused\d\.\d{4}/);
    await expect(passage.getByTestId("ranking-relevance")).toHaveText(/Relevance\d+%/);

    // the URL holds the search: a reload shows the same results
    await page.reload();
    await expect(search.input).toHaveValue(QUESTION);
    await expect(search.pageChip(PAPER_ID, HIGHLIGHT_PAGE)).toBeVisible();

    await search.pageChip(PAPER_ID, HIGHLIGHT_PAGE).click();
    await expect(page).toHaveURL(
      new RegExp(`/papers/${encodeURIComponent(PAPER_ID)}\\?page=${HIGHLIGHT_PAGE}&start=\\d+&end=\\d+$`),
    );
    const paper = new PaperPage(page);
    await expect(paper.viewer).toHaveAttribute("data-page", String(HIGHLIGHT_PAGE));
    await expect(paper.highlights(HIGHLIGHT_PAGE).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("highlight-status")).toHaveAttribute("data-state", "found");
    await expect(paper.highlights(HIGHLIGHT_PAGE)).toContainText(["Reciprocal"]);
  });

  test("the summaries index finds the paper by its summary", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto({ q: "page-level chunking improves recall of cited evidence" });
    await expect(search.group(PAPER_ID)).toBeVisible();

    await search.index("summaries").click();
    await expect(page).toHaveURL(/[?&]index=summaries(&|$)/);
    const group = search.group(PAPER_ID);
    await expect(group).toBeVisible();
    await expect(search.resultCount).toHaveText(/ by (its|their) summar/);
    await expect(group.getByTestId("result-title")).toHaveText(PAPER_TITLE);
    await expect(group.getByTestId("passage").first().getByTestId("ranking-relevance")).toBeVisible();
    await expect(search.pageChip(PAPER_ID, 1)).toBeVisible();
  });

  test("filters narrow the search and live in the URL", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto({ q: QUESTION, years: "2019-2020" });
    await expect(page.getByTestId("year-from")).toHaveValue("2019");
    await expect(search.noResults).toBeVisible();

    await page.getByTestId("search-without-filters").click();
    await expect(page).not.toHaveURL(/years=/);
    await expect(search.group(PAPER_ID)).toBeVisible();

    await page.getByTestId("year-from").fill("2023");
    await page.getByTestId("category").fill("cs.IR");
    await page.getByTestId("category").press("Enter");
    await expect(page).toHaveURL(/[?&]years=2023-(&|$)/);
    await expect(page).toHaveURL(/[?&]category=cs\.IR(&|$)/);
    await expect(search.group(PAPER_ID)).toBeVisible();

    await search.goto({ q: QUESTION, papers: PAPER_ID });
    await expect(page.getByTestId("paper-picker")).toContainText(PAPER_TITLE.slice(0, 20));
    await expect(search.group(PAPER_ID)).toBeVisible();
    await expect(search.groups).toHaveCount(1);
  });

  test("the reference lists are left out unless the checkbox includes them", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto({ q: QUESTION });
    await expect(search.group(PAPER_ID)).toBeVisible();
    await expect(search.includeRefs).toBeEnabled();
    await expect(search.includeRefs).not.toBeChecked();

    // a toggle searches at once, like the index toggle
    await search.includeRefs.check();
    await expect(page).toHaveURL(/[?&]refs=1(&|$)/);
    await expect(search.group(PAPER_ID)).toBeVisible();
    await page.reload();
    await expect(search.includeRefs).toBeChecked();

    // the summaries have no reference lists
    await search.index("summaries").click();
    await expect(page).toHaveURL(/[?&]index=summaries(&|$)/);
    await expect(search.includeRefs).toBeDisabled();
  });

  test("a reference list is found only when asked for, and says what it is", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto({ q: REFERENCES_QUERY });
    await expect(search.resultCount.or(search.noResults).first()).toBeVisible();
    await expect(search.passages(PAPER_ID, REFERENCES_PAGE)).toHaveCount(0);

    await search.includeRefs.check();
    await expect(page).toHaveURL(/[?&]refs=1(&|$)/);
    const passage = search.passages(PAPER_ID, REFERENCES_PAGE).first();
    await expect(passage).toBeVisible();
    await expect(passage.getByTestId("passage-bibliography")).toHaveText("Reference list");
    await expect(passage.getByTestId("passage-section")).toHaveText(/References/);
    await expect(passage.getByTestId("passage-link")).toContainText("Okapi at TREC-7");
  });

  test("a question about a topic the library does not hold shows the no-result state", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto();
    await search.search("photosynthesis in maize chloroplasts under drought stress");
    await expect(search.noResults).toBeVisible();
    await expect(search.noResults).toContainText("No passages match");
    await expect(search.groups).toHaveCount(0);
    await expect(search.error).toHaveCount(0);
  });

  test("hostile and unusual queries give results or a clear message, never an error page", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto();
    for (const query of [
      '"); DROP TABLE chunks; -- & | ! :* ((',
      "'rank' & \"fusion\" | !recall:* <-> (lexicographic)",
      "the of and to",
      "ランク融合 検索 🔍 ∑ Reciprocal",
      "%' OR 1=1; SELECT * FROM papers; --",
    ]) {
      await search.search(query);
      await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(query);
      await expect(search.resultCount.or(search.noResults).or(search.message).first()).toBeVisible();
      await expect(search.error).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Search", level: 1 })).toBeVisible();
    }

    // nothing but symbols: the server says there is nothing to search for
    await search.search("?!&|():* 🚀🚀 ''");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("?!&|():* 🚀🚀 ''");
    await expect(search.message).toContainText("no words to search for");

    // and the library is intact
    await search.search("reciprocal rank fusion");
    await expect(search.group(PAPER_ID)).toBeVisible();
  });

  test("an empty or oversized query gets a message instead of a search", async ({ page }) => {
    const search = new SearchPage(page);
    await search.goto();
    await search.submitButton.click();
    await expect(search.message).toHaveText("Type a question or some keywords to search for.");
    await expect(search.input).toBeFocused();
    await expect(page).toHaveURL(/\/search$/);

    await search.search("x".repeat(20_000));
    await expect(search.message).toHaveText("The query is too long (20,000 characters); keep it under 2,000.");
    await expect(page).toHaveURL(/\/search$/);

    // a link that carries an oversized query gets the server's message
    await search.goto({ q: "recall ".repeat(400) });
    await expect(search.message).toContainText("The query is too long");
    await expect(search.error).toHaveCount(0);
  });
});
