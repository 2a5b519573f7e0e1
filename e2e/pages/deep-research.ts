import { type Download, expect, type Locator, type Page } from "@playwright/test";

/**
 * Deep research on the research pages: the mode tabs, the planner (clarifying questions, the outline editor), and on
 * a run's page its outline, versions, improve box and export buttons. The run itself (steps, answer, citations) is
 * the research page object's.
 */
export class DeepResearchPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/research");
  }

  /** Switches the question box to deep research. */
  async chooseDeep(): Promise<void> {
    await this.page.getByTestId("mode-deep").click();
  }

  get question(): Locator {
    return this.page.getByTestId("deep-question");
  }

  get planner(): Locator {
    return this.page.getByTestId("deep-planner");
  }

  get quickMode(): Locator {
    return this.page.getByTestId("deep-quick-mode");
  }

  /** Types a question into the deep research box and sends it. */
  async plan(question: string): Promise<void> {
    const box = this.page.getByTestId("deep-question");
    await expect(box).toHaveAttribute("data-hydrated");
    await box.fill(question);
    await box.press("Enter");
  }

  // ---- clarification ----

  get clarifyQuestions(): Locator {
    return this.page.getByTestId("clarify-question");
  }

  clarifyOptions(question: Locator): Locator {
    return question.getByTestId("clarify-option");
  }

  clarifyAnswer(question: Locator): Locator {
    return question.getByTestId("clarify-answer");
  }

  get continueButton(): Locator {
    return this.page.getByTestId("clarify-continue");
  }

  get skipButton(): Locator {
    return this.page.getByTestId("clarify-skip");
  }

  // ---- outline editor ----

  get editor(): Locator {
    return this.page.getByTestId("outline-editor");
  }

  get points(): Locator {
    return this.editor.getByTestId("outline-point");
  }

  point(id: string): Locator {
    return this.editor.locator(`[data-testid="outline-point"][data-point-id="${id}"]`);
  }

  async pointIds(): Promise<string[]> {
    return this.points.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.pointId ?? ""));
  }

  async pointTopics(): Promise<string[]> {
    return this.points
      .getByTestId("outline-point-topic")
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  }

  keywords(point: Locator): Locator {
    return point.getByTestId("outline-keyword");
  }

  keywordInput(point: Locator): Locator {
    return point.getByTestId("outline-keyword-input");
  }

  /** Adds a point and fills it in; returns its id. */
  async addPoint(p: { topic: string; category?: string; keywords: string[]; importance?: "high" | "medium" | "low" }) {
    await this.editor.getByTestId("outline-add-point").click();
    const point = this.points.last();
    const topic = point.getByTestId("outline-point-topic");
    await topic.fill(p.topic);
    if (p.category) await point.getByTestId("outline-point-category").fill(p.category);
    for (const k of p.keywords) {
      await this.keywordInput(point).fill(k);
      await this.keywordInput(point).press("Enter");
    }
    if (p.importance) await point.getByTestId("outline-point-importance").selectOption(p.importance);
    return (await point.getAttribute("data-point-id")) ?? "";
  }

  get runButton(): Locator {
    return this.editor.getByTestId("outline-run");
  }

  get undoButton(): Locator {
    return this.editor.getByTestId("outline-undo");
  }

  get issues(): Locator {
    return this.editor.getByTestId("outline-issues");
  }

  // ---- a run's page ----

  get panel(): Locator {
    return this.page.getByTestId("deep-run-panel");
  }

  /** Opens the run's outline (closed at first). */
  async openOutline(): Promise<void> {
    const toggle = this.page.getByTestId("deep-outline-toggle");
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  }

  get outlineTopics(): Locator {
    return this.panel.getByTestId("deep-outline-topic");
  }

  get versions(): Locator {
    return this.page.getByTestId("deep-version");
  }

  get currentVersion(): Locator {
    return this.page.locator('[data-testid="deep-version"][data-current="true"]');
  }

  get diffLines(): Locator {
    return this.page.getByTestId("deep-diff-line");
  }

  get editRerun(): Locator {
    return this.page.getByTestId("deep-edit-rerun");
  }

  get improveInput(): Locator {
    return this.page.getByTestId("deep-improve-input");
  }

  async improve(feedback: string): Promise<void> {
    await this.improveInput.fill(feedback);
    await this.page.getByTestId("deep-improve-submit").click();
  }

  get notice(): Locator {
    return this.page.getByTestId("deep-notice");
  }

  /** Clicks an export button and returns the download. */
  async export(format: "markdown" | "bibtex"): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await this.page.getByTestId(`export-${format}`).click();
    return download;
  }

  /**
   * Records, from now on, every status each step card shows and the run's status at that moment (in the page, so no
   * change is missed between two polls). Read with `stepHistory()`.
   */
  async recordSteps(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __deepSteps?: { step: string; status: string; run: string }[] };
      w.__deepSteps = [];
      const last = new Map<string, string>();
      const note = () => {
        const run = document.querySelector<HTMLElement>('[data-testid="research-run"]')?.dataset.status ?? "";
        for (const el of document.querySelectorAll<HTMLElement>('[data-testid="research-step"]')) {
          const id = el.dataset.stepId ?? "";
          const status = el.dataset.status ?? "";
          if (last.get(id) !== status) {
            last.set(id, status);
            w.__deepSteps?.push({ step: id, status, run });
          }
        }
      };
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ["data-status"],
      });
    });
  }

  async stepHistory(): Promise<{ step: string; status: string; run: string }[]> {
    return this.page.evaluate(
      () => (window as unknown as { __deepSteps?: { step: string; status: string; run: string }[] }).__deepSteps ?? [],
    );
  }
}
