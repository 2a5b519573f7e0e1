import fs from "node:fs";
import {
  A_AUTHORS,
  A_ID,
  A_PAGES,
  A_TITLE,
  B_ID,
  B_PAGES,
  B_TITLE,
  COMPARISON,
  DRIFT_PAGE,
  DRIFT_SENTENCE,
} from "../lib/testing/tidal-papers";
import { expect, type LibraryPaper, test } from "./fixtures";
import { DeepResearchPage } from "./pages/deep-research";
import { ResearchPage } from "./pages/research";

/**
 * Deep research end to end, over two papers of this file's own (`library`: uploaded before the tests, deleted after
 * them). The e2e server runs offline: clarifying questions and the outline are built from the library, and every
 * section is extractive, quoting the papers with their citations.
 */
const PAPERS: LibraryPaper[] = [
  { fileName: "deep-e2e-tidal-salinity.pdf", id: A_ID, pages: A_PAGES, title: A_TITLE, author: A_AUTHORS },
  { fileName: "deep-e2e-tide-radios.pdf", id: B_ID, pages: B_PAGES, title: B_TITLE, author: "Hedy Lamarr" },
];

const QUESTION = "How do tidal pool sensor networks measure salinity and handle drift?";
const ADDED_TOPIC = "Biofouling and salinity error";
const ADDED_KEYWORDS = ["biofouling", "salinity error", "copper mesh"];
const FEEDBACK = "improve: add more on tide-aware radio scheduling and packet loss";
const OFF_TOPIC_FEEDBACK = "improve: add more on multi-agent debate";

/** Letters and digits of a text, lower-cased: what the viewer's matcher compares. */
function fold(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

test.use({ library: { papers: PAPERS } });

test.describe
  .serial("deep research", () => {
    /** The first run (v1), its rerun (v2) and the improved version (v3); v4 improves v3 off topic. */
    const runs: string[] = [];
    let addedId = "";
    let removedTopic = "";

    test("clarify, edit the outline, run: per-point steps stream into a sectioned review with working citations", async ({
      page,
    }) => {
      const research = new ResearchPage(page);
      const deep = new DeepResearchPage(page);
      await deep.goto();
      await deep.chooseDeep();
      await deep.plan(QUESTION);

      // 2–4 clarifying questions, each with suggested answers
      await expect(deep.clarifyQuestions.first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId("deep-question")).toHaveText(QUESTION);
      const asked = await deep.clarifyQuestions.count();
      expect(asked).toBeGreaterThanOrEqual(2);
      expect(asked).toBeLessThanOrEqual(4);
      // a chip fills in the answer; a second click takes it back; free text for another question
      const first = deep.clarifyQuestions.nth(0);
      const chip = deep.clarifyOptions(first).first();
      const chipText = (await chip.textContent())?.trim() ?? "";
      await chip.click();
      await expect(chip).toHaveAttribute("aria-pressed", "true");
      await expect(deep.clarifyAnswer(first)).toHaveValue(chipText);
      await chip.click();
      await expect(deep.clarifyAnswer(first)).toHaveValue("");
      await chip.click();
      await deep.clarifyAnswer(deep.clarifyQuestions.nth(1)).fill("Calibration drift and its correction");
      await expect(page.getByTestId("clarify-panel")).toContainText(`2 of ${asked} answered`);
      await deep.continueButton.click();

      // the outline, built from the library: 4–8 points
      await expect(deep.editor).toBeVisible({ timeout: 30_000 });
      const ids = await deep.pointIds();
      expect(ids.length).toBeGreaterThanOrEqual(4);
      expect(ids.length).toBeLessThanOrEqual(8);
      await expect(page.getByTestId("outline-title")).not.toHaveValue("");

      // remove the last point; Ctrl+Z brings it back; remove it again
      const lastId = ids.at(-1) as string;
      removedTopic = await deep.point(lastId).getByTestId("outline-point-topic").inputValue();
      await deep.point(lastId).getByTestId("outline-point-remove").click();
      await expect(deep.points).toHaveCount(ids.length - 1);
      await page.keyboard.press("Control+z");
      await expect(deep.points).toHaveCount(ids.length);
      expect(await deep.pointIds()).toEqual(ids);
      await deep.point(lastId).getByTestId("outline-point-remove").click();
      await expect(deep.points).toHaveCount(ids.length - 1);

      // add a point with keywords as chips: Enter adds, Backspace in the empty field removes the last, × removes one
      addedId = await deep.addPoint({
        topic: ADDED_TOPIC,
        category: "Methods",
        keywords: [...ADDED_KEYWORDS, "typo"],
        importance: "high",
      });
      expect(ids).not.toContain(addedId);
      const added = deep.point(addedId);
      await expect(deep.keywords(added)).toHaveText([...ADDED_KEYWORDS, "typo"]);
      await deep.keywordInput(added).press("Backspace");
      await expect(deep.keywords(added)).toHaveText(ADDED_KEYWORDS);
      await deep.keywordInput(added).fill("oops");
      await deep.keywordInput(added).press("Enter");
      await deep.keywords(added).filter({ hasText: "oops" }).getByTestId("outline-keyword-remove").click();
      await expect(deep.keywords(added)).toHaveText(ADDED_KEYWORDS);

      // Alt+↑ moves the focused point up (the focus stays in it), Alt+↓ back down
      const topic = added.getByTestId("outline-point-topic");
      await topic.focus();
      await page.keyboard.press("Alt+ArrowUp");
      let order = await deep.pointIds();
      expect(order.indexOf(addedId)).toBe(order.length - 2);
      await expect(topic).toBeFocused();
      await page.keyboard.press("Alt+ArrowDown");
      order = await deep.pointIds();
      expect(order.at(-1)).toBe(addedId);

      // an incomplete point cannot run: the problem is named; Undo takes the point away again
      await deep.editor.getByTestId("outline-add-point").click();
      await deep.runButton.click();
      await expect(deep.issues).toContainText("Give the point a topic");
      await expect(deep.issues).toContainText("Add at least one keyword");
      await deep.undoButton.click();
      await expect(deep.points).toHaveCount(ids.length);
      await expect(deep.editor).toHaveAttribute("data-valid", "true");

      // run it: the address becomes the run's, one search step per point streams in and completes
      const title = await page.getByTestId("outline-title").inputValue();
      await deep.recordSteps();
      await deep.runButton.click();
      await expect(page).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/);
      const runId = research.runIdFromUrl() ?? "";
      runs.push(runId);
      await expect(research.run).toHaveAttribute("data-run-id", runId);
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });

      const kept = order;
      const stepIds = await research.steps.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.stepId));
      expect(stepIds[0]).toBe("outline");
      expect(stepIds.slice(-3)).toEqual(["framing", "verification", "formatting"]);
      expect(new Set(stepIds.filter((s) => s?.startsWith("point_")))).toEqual(new Set(kept.map((id) => `point_${id}`)));
      expect(new Set(stepIds.filter((s) => s?.startsWith("section_")))).toEqual(
        new Set(kept.map((id) => `section_${id}`)),
      );
      expect(stepIds).not.toContain(`point_${lastId}`);
      for (const id of stepIds) await expect(research.step(id as string)).toHaveAttribute("data-status", "completed");
      // every point's step was shown and ended completed. (Whether a step is ever *seen* before it completes depends
      // on how fast the run is: on PostgreSQL a small run finishes within one React render batch. That events stream
      // as they happen is tested beside the orchestrator: lib/research/orchestrator.test.ts, "event loop".)
      const history = await deep.stepHistory();
      for (const id of kept) {
        const seen = history.filter((h) => h.step === `point_${id}`);
        expect(seen.length, `point_${id} was shown`).toBeGreaterThan(0);
        expect(seen.at(-1)?.status).toBe("completed");
      }
      // the added point's search found the drift passage
      const pointStep = research.step(`point_${addedId}`);
      await research.showSteps();
      await pointStep.getByTestId("research-step-toggle").click();
      await expect(
        pointStep.locator(`[data-testid="research-source"][data-paper-id="${A_ID}"][data-page="${DRIFT_PAGE}"]`),
      ).toBeVisible();

      // a sectioned review: the outline's title, an introduction, a section per point, a conclusion
      const answer = research.answer;
      await expect(answer.locator("h1")).toHaveText(title);
      const headings = await answer.locator("h2").allTextContents();
      expect(headings[0]).toBe("Introduction");
      expect(headings.at(-1)).toBe("Conclusion");
      expect(headings).toContain(ADDED_TOPIC);
      expect(headings).not.toContain(removedTopic);
      expect(headings.length).toBe(kept.length + 2);
      // the added section quotes the drift sentence, cited to its page, and the citation opens the PDF there
      const section = answer.locator("h2", { hasText: ADDED_TOPIC }).locator("xpath=following-sibling::*[1]");
      await expect(section).toContainText(DRIFT_SENTENCE);
      const citation = section.locator(
        `[data-testid="citation-chip"][data-paper-id="${A_ID}"][data-page="${DRIFT_PAGE}"]`,
      );
      await expect(citation.first()).toHaveAttribute("data-supported", "true");
      await citation.first().click();
      await expect(research.sheet).toBeVisible();
      await expect(page.getByTestId("citation-sheet-title")).toHaveText(A_TITLE);
      await expect(research.sheet.getByTestId("pdf-viewer")).toHaveAttribute("data-page", String(DRIFT_PAGE));
      const marks = research.sheetHighlights(DRIFT_PAGE);
      await expect(marks.first()).toBeVisible({ timeout: 30_000 });
      expect(fold((await marks.allTextContents()).join(""))).toBe(fold(DRIFT_SENTENCE));
      await page.keyboard.press("Escape");
      await expect(research.sheet).toHaveCount(0);
      await expect(research.references.filter({ hasText: A_TITLE })).toHaveCount(1);

      // the run page shows the outline it ran
      await expect(deep.panel).toBeVisible();
      await deep.openOutline();
      await expect(deep.outlineTopics).toHaveCount(kept.length);
      await expect(deep.outlineTopics.last()).toHaveText(ADDED_TOPIC);
    });

    test("rerun with an edited outline: a second version, linked, with what changed", async ({ page }) => {
      const research = new ResearchPage(page);
      const deep = new DeepResearchPage(page);
      await research.goto(runs[0]);
      await expect(research.run).toHaveAttribute("data-status", "completed");
      // a single version lists no versions yet
      await expect(deep.versions).toHaveCount(0);

      await deep.editRerun.click();
      await expect(deep.editor).toBeVisible();
      const ids = await deep.pointIds();
      expect(ids.at(-1)).toBe(addedId);
      // edit: a new title, a year range, the added point less important, the first point removed
      await page.getByTestId("outline-title").fill("Tidal salinity sensing, revisited");
      await page.getByTestId("outline-year-from").fill("2020");
      await page.getByTestId("outline-year-to").fill("2025");
      await deep.point(addedId).getByTestId("outline-point-importance").selectOption("medium");
      const firstTopic = await deep
        .point(ids[0] as string)
        .getByTestId("outline-point-topic")
        .inputValue();
      await deep
        .point(ids[0] as string)
        .getByTestId("outline-point-remove")
        .click();
      await deep.runButton.click();

      await expect(page).not.toHaveURL(new RegExp(`/research/${runs[0]}$`));
      await expect(page).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/);
      const v2 = research.runIdFromUrl() ?? "";
      runs.push(v2);
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
      await expect(research.step(`point_${ids[0]}`)).toHaveCount(0);

      // two versions, the new one current, with what changed from v1
      await expect(deep.versions).toHaveCount(2);
      await expect(deep.currentVersion).toHaveAttribute("data-version", "2");
      await expect(deep.currentVersion).toHaveAttribute("data-run-id", v2);
      await expect(deep.currentVersion).toContainText("Edited outline");
      const diff = deep.diffLines;
      await expect(diff.filter({ hasText: "Title" })).toContainText("→ “Tidal salinity sensing, revisited”");
      await expect(diff.filter({ hasText: "Years" })).toHaveText("Years: all years → 2020–2025");
      await expect(diff.filter({ hasText: "Removed" })).toHaveText(`Removed “${firstTopic}”`);
      await expect(diff.filter({ hasText: "Changed" })).toHaveText(`Changed “${ADDED_TOPIC}”: importance`);
      await expect(research.answer.locator("h1")).toHaveText("Tidal salinity sensing, revisited");

      // the same after a reload; v1 is a link to the first version
      await page.reload();
      await expect(deep.versions).toHaveCount(2);
      await deep.versions.first().click();
      await expect(page).toHaveURL(new RegExp(`/research/${runs[0]}$`));
      await expect(research.run).toHaveAttribute("data-run-id", runs[0] as string);
      await expect(deep.currentVersion).toHaveAttribute("data-version", "1");
      await expect(deep.versions.nth(1)).toHaveAttribute("data-run-id", v2);
    });

    test("improve with feedback: a third version with a knowledge point for it", async ({ page }) => {
      const research = new ResearchPage(page);
      const deep = new DeepResearchPage(page);
      await research.goto(runs[1]);
      await expect(research.run).toHaveAttribute("data-status", "completed");

      // feedback that says nothing is refused before it is sent
      await deep.improve("ok");
      await expect(page.getByTestId("deep-improve-problem")).toHaveText("Say what to improve (a few words at least).");

      await deep.improve(FEEDBACK);
      await expect(page).not.toHaveURL(new RegExp(`/research/${runs[1]}$`));
      const v3 = research.runIdFromUrl() ?? "";
      runs.push(v3);
      await expect(deep.notice).toContainText("Added a knowledge point for your feedback");
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });

      await expect(deep.versions).toHaveCount(3);
      await expect(deep.currentVersion).toHaveAttribute("data-version", "3");
      await expect(deep.currentVersion).toContainText("Improved:");
      await expect(deep.diffLines.filter({ hasText: "feedback" })).toHaveText(
        `Improved with the feedback “${FEEDBACK.replace("improve: ", "")}”`,
      );
      await expect(deep.diffLines.filter({ hasText: "Added" })).toContainText("packet loss");
      // the new point was searched: the radio paper's result is in the review
      await expect(research.answer).toContainText("Tide-aware scheduling cut packet loss");
      await expect(research.citationChips(B_ID).first()).toBeVisible();
      await expect(research.answer).toContainText("This version was written again for the feedback");
    });

    test("export: the review as Markdown with its citations and references, and BibTeX", async ({ page, request }) => {
      const research = new ResearchPage(page);
      const deep = new DeepResearchPage(page);
      const runId = runs.at(-1) as string;
      await research.goto(runId);
      await expect(research.run).toHaveAttribute("data-status", "completed");

      const md = await deep.export("markdown");
      expect(md.suggestedFilename()).toMatch(/^lectern-how-do-tidal-pool-sensor-networks.*\.md$/);
      const text = fs.readFileSync(await md.path(), "utf8");
      expect(text).toMatch(new RegExp(`\\[${A_ID.replace(".", "\\.")}, page \\d+\\]`));
      expect(text).toContain("## References");
      expect(text).toContain(A_TITLE);
      expect(text).toContain(`Lectern research run ${runId}`);

      const bib = await deep.export("bibtex");
      expect(bib.suggestedFilename()).toMatch(/\.bib$/);
      const bibtex = fs.readFileSync(await bib.path(), "utf8");
      expect(bibtex).toContain(`eprint = {${A_ID}}`);
      expect(bibtex).toMatch(/@misc\{tharp2024salinity,/);

      expect((await request.get(`/research/${runId}/export?format=pdf`)).status()).toBe(400);
      expect((await request.get("/research/AAAAAAAAAAAAAAAAAAAAAA/export?format=md")).status()).toBe(404);
    });

    test("improve with a request the library cannot answer: the new section says there is little on it", async ({
      page,
    }) => {
      const research = new ResearchPage(page);
      const deep = new DeepResearchPage(page);
      await research.goto(runs[2] as string);
      await expect(research.run).toHaveAttribute("data-status", "completed");

      // nothing in two papers on tidal sensors is about multi-agent debate
      await deep.improve(OFF_TOPIC_FEEDBACK);
      await expect(page).not.toHaveURL(new RegExp(`/research/${runs[2]}$`));
      await expect(deep.notice).toContainText("Added a knowledge point for your feedback");
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
      await expect(deep.diffLines.filter({ hasText: "Added" })).toContainText("Multi-agent debate");

      // its section says so, and quotes nothing of what the search happened to find
      const heading = research.answer.locator("h2", { hasText: "Multi-agent debate" });
      await expect(heading).toHaveCount(1);
      const section = heading.locator("xpath=following-sibling::*[1]");
      await expect(section).toContainText("There is little in the library on multi-agent debate");
      await expect(section.getByTestId("citation-chip")).toHaveCount(0);
      // the sections the library does cover still quote it
      await expect(research.citationChips(B_ID).first()).toBeVisible();
      await expect(research.citationChips(A_ID, DRIFT_PAGE).first()).toBeVisible();
    });

    test("a comparison: which approaches to compare takes several, chip by chip; the outline has a point for each", async ({
      page,
    }) => {
      const deep = new DeepResearchPage(page);
      await deep.goto();
      await deep.chooseDeep();
      await deep.plan(COMPARISON);
      await expect(deep.clarifyQuestions.first()).toBeVisible({ timeout: 30_000 });
      // the one question that takes several: the two papers as options
      const compare = deep.clarifyQuestions.and(page.locator('[data-multiple="true"]'));
      await expect(compare).toHaveCount(1);
      await expect(compare.getByTestId("clarify-question-text")).toHaveText("Which approaches should be compared?");
      await expect(compare.getByTestId("clarify-multiple")).toBeVisible();
      const chips = deep.clarifyOptions(compare);
      expect((await chips.allTextContents()).map((t) => t.trim()).sort()).toEqual([A_TITLE, B_TITLE].sort());
      const a = chips.filter({ hasText: A_TITLE });
      const b = chips.filter({ hasText: B_TITLE });
      await a.click();
      await b.click();
      // the second leaves the first chosen
      await expect(a).toHaveAttribute("aria-pressed", "true");
      await expect(b).toHaveAttribute("aria-pressed", "true");
      await expect(deep.clarifyAnswer(compare)).toHaveValue(`${A_TITLE}; ${B_TITLE}`);
      await a.click();
      await expect(a).toHaveAttribute("aria-pressed", "false");
      await expect(b).toHaveAttribute("aria-pressed", "true");
      await expect(deep.clarifyAnswer(compare)).toHaveValue(B_TITLE);
      // by keyboard too
      await a.focus();
      await page.keyboard.press("Space");
      await expect(a).toHaveAttribute("aria-pressed", "true");
      await expect(b).toHaveAttribute("aria-pressed", "true");
      // a question that takes one answer still does: its second chip replaces the first
      const depth = deep.clarifyQuestions.and(page.locator('[data-purpose="depth"]'));
      await expect(depth).not.toHaveAttribute("data-multiple");
      const first = deep.clarifyOptions(depth).nth(0);
      const second = deep.clarifyOptions(depth).nth(1);
      await first.click();
      await second.click();
      await expect(first).toHaveAttribute("aria-pressed", "false");
      await expect(second).toHaveAttribute("aria-pressed", "true");

      // both approaches chosen reach the outline: a point for each paper
      await deep.continueButton.click();
      await expect(deep.editor).toBeVisible({ timeout: 30_000 });
      expect(await deep.pointTopics()).toEqual(expect.arrayContaining([A_TITLE, B_TITLE]));
      await page.getByTestId("outline-cancel").click();
      await expect(deep.planner).toHaveAttribute("data-stage", "ask");
    });

    test("quick mode skips the clarifying questions; /research/deep opens on deep research and runs with the author's actions", async ({
      page,
    }) => {
      const research = new ResearchPage(page);
      const deep = new DeepResearchPage(page);
      await page.goto("/research/deep");
      await expect(page.getByTestId("mode-deep")).toHaveAttribute("aria-selected", "true");
      await deep.quickMode.click();
      await expect(deep.quickMode).toHaveAttribute("aria-checked", "true");
      await deep.plan(QUESTION);
      await expect(deep.editor).toBeVisible({ timeout: 30_000 });
      await expect(deep.clarifyQuestions).toHaveCount(0);
      // a title the server would refuse is caught here, with the field named
      await page.getByTestId("outline-title").fill(" ");
      await deep.runButton.click();
      await expect(deep.issues).toContainText("Give the outline a title");
      await expect(page).toHaveURL(/\/research\/deep$/);
      await page.getByTestId("outline-cancel").click();
      await expect(deep.planner).toHaveAttribute("data-stage", "ask");

      // run from /research/deep: once it has finished, its author can share and delete it, without a reload
      await deep.plan(QUESTION);
      await expect(deep.editor).toBeVisible({ timeout: 30_000 });
      await deep.runButton.click();
      await expect(page).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/);
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
      await expect(page.getByTestId("export-markdown")).toBeVisible();
      await expect(page.getByTestId("research-share")).toBeVisible();
      await expect(page.getByTestId("research-delete-run")).toBeVisible();
      await expect(deep.improveInput).toBeVisible();
    });
  });
