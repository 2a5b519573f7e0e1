import { expect, test } from "./fixtures";
import { PaperPage } from "./pages/paper";
import { ResearchPage } from "./pages/research";

/**
 * Research runs against a paper of this file's own (`library`: uploaded before the tests, deleted after them), so the
 * spec neither needs nor disturbs the papers of other specs. The e2e server runs offline: the answer is the extractive
 * one, quoting the paper's sentences with their citations.
 */
const PAPER_ID = "2402.04321v1";
const TITLE = "Lattice Hashing for Citation Auditing";
const FILE_NAME = "research-e2e-lattice-hashing.pdf";
/** The answer to QUESTION, alone on page 2 (short enough not to wrap, so the viewer can highlight it whole). */
const SENTENCE = "Lattice hashing lowers the citation error rate on the Orchard benchmark to 3.7 percent.";
const SENTENCE_PAGE = 2;
const PAGES = [
  [
    `arXiv:${PAPER_ID} [cs.DL] 7 Feb 2024`,
    TITLE,
    "Rosalind Franklin, Claude Shannon",
    "Abstract",
    "We audit the citations of long scientific reports with lattice hashing. On the Orchard benchmark, lattice hashing finds unsupported citations that plain lexical matching misses.",
    "1 Introduction",
    "A citation error is a claim whose cited page does not state it. Auditors check citations by hand, which is slow.",
  ].join("\n"),
  [
    "2 Results",
    "The auditor reads every cited page and compares it with the claim that cites it.",
    SENTENCE,
    "Errors cluster in tables and footnotes, where text extraction is least reliable.",
  ].join("\n"),
  [
    "3 Conclusion",
    "Lattice hashing makes citation auditing fast enough to run on every report before it is published.",
  ].join("\n"),
];
const QUESTION = "How much does lattice hashing lower the citation error rate on the Orchard benchmark?";
/**
 * A question the offline answer meets with one citation only partly relevant (lexically): "The auditor reads every
 * cited page…" names 2 of its 11 key terms.
 */
const BROAD_QUESTION =
  "Why are tables, footnotes and text extraction unreliable for auditors of long scientific reports and published citations?";
const ABSENT_TOPIC = "What routes do Arctic terns migrate along over the southern oceans?";

/** Letters and digits of a text, lower-cased: what the viewer's matcher compares. */
function fold(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

const PLAN = [
  "analysis",
  "query_expansion",
  "search_summaries",
  "search_content",
  "synthesis",
  "verification",
  "formatting",
];

test.use({
  library: {
    papers: [
      { id: PAPER_ID, fileName: FILE_NAME, title: TITLE, author: "Rosalind Franklin, Claude Shannon", pages: PAGES },
    ],
  },
});

test.describe
  .serial("research", () => {
    let runId = "";

    test("a question runs step by step into a cited answer, with a shareable address", async ({ page }) => {
      const research = new ResearchPage(page);
      await research.goto();
      // examples come from the library's own papers
      await expect(research.examples.filter({ hasText: TITLE }).first()).toBeVisible();

      await research.recordStepActivation();
      await research.ask(QUESTION);

      // the run's address replaces /research as soon as the run has started
      await expect(page).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/);
      runId = research.runIdFromUrl() ?? "";
      await expect(research.run).toHaveAttribute("data-run-id", runId);
      await expect(page.getByTestId("research-run-question")).toHaveText(QUESTION);
      await expect(page.getByTestId("research-mode")).toHaveText("Offline mode · extractive answer");

      // the plan, in order, ending with every step completed
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
      expect(await research.steps.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.stepId))).toEqual(
        PLAN,
      );
      expect(
        await research.steps.evaluateAll((els) =>
          els.map((e) => `${(e as HTMLElement).dataset.stepType}/${(e as HTMLElement).dataset.stage ?? ""}`),
        ),
      ).toEqual([
        "analysis/",
        "query_expansion/",
        "rag_search/summaries",
        "rag_search/content",
        "synthesis/",
        "verification/",
        "formatting/",
      ]);
      for (const id of PLAN) await expect(research.step(id)).toHaveAttribute("data-status", "completed");
      // no step started before the one above it
      expect(await research.activationOrder()).toEqual(PLAN);
      await expect(research.status).toHaveText(/^Finished in .+ · 7 steps/);
      await expect(research.status).toHaveAttribute("aria-live", "polite");

      // completed cards are closed; one opens from the keyboard and shows its search terms and sources
      const content = research.step("search_content");
      const toggle = content.getByTestId("research-step-toggle");
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(content.getByTestId("research-query").first()).toBeVisible();
      const source = content.locator(
        `[data-testid="research-source"][data-paper-id="${PAPER_ID}"][data-page="${SENTENCE_PAGE}"]`,
      );
      await expect(source).toBeVisible();
      await expect(source).toContainText(TITLE);
      await expect(source).toContainText(`p. ${SENTENCE_PAGE}`);
      await expect(source).toContainText(/\d+%/);
      await expect(source).toHaveAttribute(
        "href",
        new RegExp(`^/papers/${PAPER_ID}\\?page=${SENTENCE_PAGE}&start=\\d+&end=\\d+$`),
      );

      // the answer quotes the sentence, cited to its page; the references list the paper
      await expect(research.answer).toContainText(SENTENCE);
      await expect(research.citationChips(PAPER_ID, SENTENCE_PAGE).first()).toBeVisible();
      await expect(research.citationChips(PAPER_ID, SENTENCE_PAGE).first()).toHaveAttribute("data-supported", "true");
      await expect(research.answer).not.toContainText(`[${PAPER_ID}, page`);
      const reference = research.references.filter({ hasText: TITLE });
      await expect(reference).toContainText(`${PAPER_ID} — ${TITLE}`);
      await expect(reference.getByTestId("research-reference-link")).toHaveAttribute("href", `/papers/${PAPER_ID}`);

      // the run is listed among the recent questions
      await expect(page.locator(`[data-testid="recent-run"][data-run-id="${runId}"]`)).toContainText(QUESTION);
    });

    test("a citation opens the PDF at its page with the quoted passage highlighted", async ({ page }) => {
      const research = new ResearchPage(page);
      await research.goto(runId);
      const chip = research.citationChips(PAPER_ID, SENTENCE_PAGE).first();
      await chip.click();

      await expect(research.sheet).toBeVisible();
      await expect(page.getByTestId("citation-sheet-title")).toHaveText(TITLE);
      await expect(research.sheet.getByTestId("pdf-viewer")).toHaveAttribute("data-page", String(SENTENCE_PAGE));
      const marks = research.sheetHighlights(SENTENCE_PAGE);
      await expect(marks.first()).toBeVisible({ timeout: 30_000 });
      await expect(research.sheet.getByTestId("highlight-status")).toHaveAttribute("data-state", "found");
      expect(fold((await marks.allTextContents()).join(""))).toBe(fold(SENTENCE));

      // Escape closes the panel and leaves the run's address as it was
      await page.keyboard.press("Escape");
      await expect(research.sheet).toHaveCount(0);
      expect(new URL(page.url()).pathname).toBe(`/research/${runId}`);
      expect(new URL(page.url()).search).toBe("");

      // the panel's link opens the paper's own page at the same place
      await chip.click();
      await research.sheet.getByTestId("citation-open-paper").click();
      await expect(page).toHaveURL(new RegExp(`/papers/${PAPER_ID}\\?page=${SENTENCE_PAGE}&hl=`));
      const paper = new PaperPage(page);
      await expect(paper.viewer).toHaveAttribute("data-page", String(SENTENCE_PAGE));
      await expect(paper.highlights(SENTENCE_PAGE).first()).toBeVisible({ timeout: 30_000 });
      expect(fold((await paper.highlights(SENTENCE_PAGE).allTextContents()).join(""))).toBe(fold(SENTENCE));
    });

    test("an offline answer shows relevance verdicts on its citations and on the verification card", async ({
      page,
    }) => {
      const research = new ResearchPage(page);
      /** The value of a row of the verification card (open), by its data key. */
      const verificationRow = (key: string) =>
        research.step("verification").locator(`[data-testid="research-step-data"][data-key="${key}"] dd`);
      const openVerification = async () => {
        const toggle = research.step("verification").getByTestId("research-step-toggle");
        await toggle.click();
        await expect(toggle).toHaveAttribute("aria-expanded", "true");
      };

      // the answer's own sentence is relevant: its panel says so beside the support verdict
      await research.goto(runId);
      const chip = research.citationChips(PAPER_ID, SENTENCE_PAGE).first();
      await expect(chip).toHaveAttribute("data-relevance", "relevant");
      await chip.click();
      await expect(research.sheet.getByTestId("citation-sheet-support")).toHaveText("Supported by this passage");
      const verdict = research.sheet.getByTestId("citation-sheet-relevance");
      await expect(verdict).toHaveAttribute("data-relevance", "relevant");
      await expect(verdict).toHaveText("Relevant to the question");
      await page.keyboard.press("Escape");
      await expect(research.sheet).toHaveCount(0);
      // the card counts what the chips show (how many of each depends on the offline composer: only the sum is fixed)
      await openVerification();
      const chipsWith = (relevance: string) =>
        research
          .citationChips()
          .and(page.locator(`[data-relevance="${relevance}"]`))
          .count();
      const relevantChips = await chipsWith("relevant");
      expect(relevantChips).toBeGreaterThan(0);
      await expect(verificationRow("relevant")).toHaveText(String(relevantChips));
      await expect(verificationRow("partly")).toHaveText(String(await chipsWith("partly")));
      expect(relevantChips + (await chipsWith("partly"))).toBe(await research.citationChips().count());
      await expect(verificationRow("offTopic")).toHaveText("0");

      // a broader question: one claim bears only partly on it, marked on its chip and explained in its panel
      await research.goto();
      await research.ask(BROAD_QUESTION);
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
      const partly = research.citationChips().and(page.locator('[data-relevance="partly"]'));
      await expect(partly.first()).toBeVisible();
      const partlyChips = await partly.count();
      await expect(partly.first()).toHaveAttribute("aria-label", /\(partly relevant to the question\)$/);
      await expect(partly.first().getByTestId("citation-chip-partly")).toBeVisible();
      await partly.first().click();
      const partlyVerdict = research.sheet.getByTestId("citation-sheet-relevance");
      await expect(partlyVerdict).toHaveAttribute("data-relevance", "partly");
      await expect(partlyVerdict).toHaveText(/^Partly relevant: Mentions \d+ of the \d+ key terms/);
      await page.keyboard.press("Escape");
      await expect(research.sheet).toHaveCount(0);
      await openVerification();
      await expect(verificationRow("partly")).toHaveText(String(partlyChips));
      await expect(verificationRow("relevant")).toHaveText(
        String(await research.citationChips().and(page.locator('[data-relevance="relevant"]')).count()),
      );
      await expect(verificationRow("offTopic")).toHaveText("0");
    });

    test("the run's address shows the same run after a reload, and keeps feedback", async ({ page, context }) => {
      const research = new ResearchPage(page);
      await research.goto(runId);
      await expect(research.run).toHaveAttribute("data-status", "completed");
      const answer = await research.answer.textContent();
      const steps = await research.steps.evaluateAll((els) =>
        els.map((e) => `${(e as HTMLElement).dataset.stepId}:${(e as HTMLElement).dataset.status}`),
      );
      expect(steps).toEqual(PLAN.map((id) => `${id}:completed`));

      await page.reload();
      await expect(research.run).toHaveAttribute("data-run-id", runId);
      expect(await research.answer.textContent()).toBe(answer);
      expect(
        await research.steps.evaluateAll((els) =>
          els.map((e) => `${(e as HTMLElement).dataset.stepId}:${(e as HTMLElement).dataset.status}`),
        ),
      ).toEqual(steps);

      // copy link puts the run's address on the clipboard
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByTestId("research-copy-link").click();
      await expect(page.getByTestId("research-copy-link")).toContainText("Link copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());

      // feedback is stored with the run
      await page.getByTestId("feedback-helpful").click();
      await expect(page.getByTestId("feedback-status")).toContainText("Feedback saved: helpful");
      await page.getByTestId("feedback-comment").fill("Quoted the right sentence.");
      await page.getByTestId("feedback-submit").click();
      await expect(page.getByTestId("feedback-status")).toContainText("with a comment");
      await page.reload();
      await expect(research.feedback).toHaveAttribute("data-rating", "helpful");
      await expect(page.getByTestId("feedback-helpful")).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByTestId("feedback-comment")).toHaveValue("Quoted the right sentence.");
    });

    test("a question about a topic absent from the library ends saying no paper is about it", async ({ page }) => {
      const research = new ResearchPage(page);
      await research.goto();
      await research.ask(ABSENT_TOPIC);
      await expect(research.run).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
      const runId = research.runIdFromUrl() ?? "";
      const recent = page.locator(`[data-testid="recent-run"][data-run-id="${runId}"]`);
      const declined = async () => {
        await expect(research.error).toHaveAttribute("data-code", "no_papers");
        await expect(page.getByTestId("research-run-status")).toHaveText("Not in the library");
        await expect(page.getByTestId("research-error-message")).toHaveText(
          "No paper in the library is about this question.",
        );
        await expect(research.error).toContainText("Try other words for the same topic");
        await expect(research.step("search_summaries")).toHaveAttribute("data-status", "failed");
        // the failed step is open and says why
        await expect(research.step("search_summaries").getByTestId("research-step-toggle")).toHaveAttribute(
          "aria-expanded",
          "true",
        );
        await expect(research.step("search_summaries")).toContainText(
          "No paper in the library is about this question.",
        );
        // the steps it never reached are skipped, not waiting
        for (const id of ["search_content", "synthesis", "verification", "formatting"]) {
          await expect(research.step(id)).toHaveAttribute("data-status", "skipped");
          await expect(research.step(id).getByTestId("research-step-status")).toHaveText("Skipped");
        }
        await expect(research.answer).toHaveCount(0);
        // no answer: nothing to improve or export
        await expect(page.getByTestId("deep-improve")).toHaveCount(0);
        await expect(page.getByTestId("export-markdown")).toHaveCount(0);
        // the recent questions mark it as not in the library, not as failed
        await expect(recent).toHaveAttribute("data-status", "failed");
        await expect(recent).toContainText("Not in the library");
        await expect(recent).not.toContainText("Failed");
      };
      await declined();

      // the stored run reads the same
      await page.reload();
      await expect(research.run).toHaveAttribute("data-status", "failed");
      await declined();
    });

    test("questions that cannot be asked get a clear message, and unknown runs are not found", async ({ page }) => {
      const research = new ResearchPage(page);
      await research.goto();
      // Shift+Enter is a new line, not a question
      await research.question.fill("line one");
      await research.question.press("Shift+Enter");
      await research.question.pressSequentially("line two");
      await expect(research.question).toHaveValue("line one\nline two");
      await expect(research.run).toHaveCount(0);

      await research.ask("   ");
      await expect(page.getByTestId("research-question-problem")).toHaveText("Type a question about your papers.");
      await research.ask("x".repeat(20_000));
      await expect(page.getByTestId("research-question-problem")).toHaveText(
        "The question is too long (20,000 characters); keep it under 2,000.",
      );
      // checked by the server
      await research.ask("?!? … ***");
      await expect(page.getByTestId("research-problem")).toContainText(
        "The question has no words in it (only punctuation or symbols).",
      );
      await expect(page).toHaveURL(/\/research$/);
      // hostile text is just a question
      await research.ask("<img src=x onerror=alert(1)> lattice hashing?");
      await expect(research.run).toHaveAttribute("data-status", /^(completed|failed)$/, { timeout: 30_000 });
      await expect(page.getByTestId("research-run-question")).toHaveText(
        "<img src=x onerror=alert(1)> lattice hashing?",
      );

      const response = await page.goto("/research/AAAAAAAAAAAAAAAAAAAAAA");
      expect(response?.status()).toBe(404);
      await expect(page.getByTestId("not-found")).toBeVisible();
    });

    test("asked for less motion, spinners and pulses stand still; otherwise they move", async ({ page }) => {
      await new ResearchPage(page).goto();
      // the step cards' spinner, the streaming answer's cursor, a skeleton: each class as the app uses it
      const iterations = () =>
        page.evaluate(() =>
          ["animate-spin", "animate-pulse"].map((cls) => {
            const probe = document.createElement("span");
            probe.className = cls;
            document.body.append(probe);
            const count = getComputedStyle(probe).animationIterationCount;
            probe.remove();
            return count;
          }),
        );
      await page.emulateMedia({ reducedMotion: "reduce" });
      expect(await iterations()).toEqual(["1", "1"]);
      await page.emulateMedia({ reducedMotion: "no-preference" });
      expect(await iterations()).toEqual(["infinite", "infinite"]);
    });
  });
