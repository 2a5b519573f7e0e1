import { expect, type Locator, type Page } from "@playwright/test";

/** The research pages (`/research`, `/research/<id>`): the question box, the run's steps, answer and references. */
export class ResearchPage {
  constructor(readonly page: Page) {}

  async goto(runId?: string): Promise<void> {
    await this.page.goto(runId ? `/research/${encodeURIComponent(runId)}` : "/research");
  }

  get question(): Locator {
    return this.page.getByTestId("research-question");
  }

  get examples(): Locator {
    return this.page.getByTestId("research-example");
  }

  /** Types a question and presses Enter (once the box is React's: typed into the server's markup, it would be lost). */
  async ask(question: string): Promise<void> {
    await expect(this.question).toHaveAttribute("data-hydrated");
    await this.question.fill(question);
    await this.question.press("Enter");
  }

  get run(): Locator {
    return this.page.getByTestId("research-run");
  }

  /** The live status line (`aria-live`). */
  get status(): Locator {
    return this.page.getByTestId("research-status");
  }

  get steps(): Locator {
    return this.page.getByTestId("research-step");
  }

  /** Shows a finished run's steps when they are folded under the process heading (a long run's). */
  async showSteps(): Promise<void> {
    const toggle = this.page.getByTestId("research-steps-toggle");
    if ((await toggle.count()) > 0 && (await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
  }

  step(stepId: string): Locator {
    return this.page.locator(`[data-testid="research-step"][data-step-id="${stepId}"]`);
  }

  /** The markdown of the answer. */
  get answer(): Locator {
    return this.page.getByTestId("research-answer-text");
  }

  get error(): Locator {
    return this.page.getByTestId("research-error");
  }

  citationChips(paperId?: string, page?: number): Locator {
    let selector = '[data-testid="citation-chip"]';
    if (paperId) selector += `[data-paper-id="${paperId}"]`;
    if (page !== undefined) selector += `[data-page="${page}"]`;
    return this.page.locator(selector);
  }

  get sheet(): Locator {
    return this.page.getByTestId("citation-sheet");
  }

  /** Highlight marks in the text layer of the page shown in the citation panel. */
  sheetHighlights(pageNumber: number): Locator {
    return this.sheet.locator(`[data-testid="pdf-page"][data-page-number="${pageNumber}"] .textLayer mark`);
  }

  get references(): Locator {
    return this.page.getByTestId("research-reference");
  }

  get feedback(): Locator {
    return this.page.getByTestId("research-feedback");
  }

  /** The run id in the address (`/research/<id>`), or null. */
  runIdFromUrl(): string | null {
    const m = /\/research\/([^/?#]+)/.exec(new URL(this.page.url()).pathname);
    return m ? decodeURIComponent(m[1] as string) : null;
  }

  /**
   * Records, from now on, the order in which step cards leave `pending` (in the page, so no state change is missed
   * between two polls). Read it with `activationOrder()`.
   */
  async recordStepActivation(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __stepOrder?: string[] };
      w.__stepOrder = [];
      const seen = new Set<string>();
      const note = () => {
        // in document order: steps that become active in the same render are listed as the plan lists them
        for (const el of document.querySelectorAll<HTMLElement>('[data-testid="research-step"]')) {
          const id = el.dataset.stepId ?? "";
          if (el.dataset.status !== "pending" && !seen.has(id)) {
            seen.add(id);
            w.__stepOrder?.push(id);
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

  async activationOrder(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __stepOrder?: string[] }).__stepOrder ?? []);
  }
}
