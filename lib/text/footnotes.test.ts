import { describe, expect, it } from "vitest";
import { FOOTNOTE_START, footnoteEnd, footnoteNumbers } from "./footnotes";

const PAGE = [
  "1 Introduction",
  "Recurrent models have long been the state of the art in sequence modelling.",
  "∗Equal contribution. Listing order is random. Jakob proposed replacing RNNs with",
  "self-attention and started the effort to evaluate this idea. Noam proposed scaled",
  "dot-product attention and was involved in every detail.",
  "†Work performed while at a lab.",
  "31st Conference on Neural Information Processing Systems.",
].join("\n");

const inNote = (page: string, text: string) => footnoteEnd(page, page.indexOf(text)) !== null;

describe("footnoteEnd", () => {
  it("finds a note a passage starts inside, up to the note's end, and not the body before it", () => {
    expect(footnoteEnd(PAGE, PAGE.indexOf("Noam proposed"))).toBe(PAGE.indexOf("†Work"));
    expect(inNote(PAGE, "Listing order")).toBe(true);
    expect(inNote(PAGE, "Recurrent models")).toBe(false);
    expect(inNote(PAGE, "31st Conference")).toBe(false);
  });

  it("ends at a numbered section heading, and reads markers glued to a number", () => {
    const page = "4To illustrate, we use a toy task.\n3.2 Attention\nAn attention function maps a query to an output.";
    expect(inNote(page, "we use a toy")).toBe(true);
    expect(inNote(page, "An attention function")).toBe(false);
  });

  it("ends a note at its first line that ends a sentence: body text resumes after it in a two-column page", () => {
    const body = "Body text of the page goes on for a long while here. ".repeat(10);
    const page = `${body}\n†Smith (2020) is an update to this work. It is released concurrently.\nYet, existing corpora are not without their limitations.\n${body}`;
    expect(inNote(page, "It is released")).toBe(true);
    expect(footnoteEnd(page, page.indexOf("It is released"))).toBe(page.indexOf("Yet, existing"));
    expect(inNote(page, "Yet, existing")).toBe(false);
  });

  it("does not take a number, a unit or a star inside a sentence for a marker", () => {
    const page =
      "We train for 3 epochs. Results in Table 2 show a gain of 4 points * on average.\nThe model converges.";
    expect(inNote(page, "The model converges")).toBe(false);
    const units = "The signal is sampled at\n16Hz with a 32Gb buffer.\nMerged adapters add no latency.";
    expect(inNote(units, "Merged adapters")).toBe(false);
    expect(FOOTNOTE_START.test("sampled at 16Hz and stored")).toBe(false);
    expect(FOOTNOTE_START.test("a note 2We use the base model")).toBe(true);
  });

  it("reaches only so far back: a marker far above the text is another page part's", () => {
    const page = `∗Work done at a lab\n${"Body text of the page goes on for a long while here ".repeat(20)}\nThe end.`;
    expect(inNote(page, "The end")).toBe(false);
  });
});

describe("footnoteNumbers", () => {
  it("reads the numbers of a page's numbered footnotes, not symbols, numbers in sentences or section headings", () => {
    const page =
      "where it has extremely small gradients 4. To counteract this effect, we scale the dot products.\n" +
      "3.2 Multi-Head Attention\nWe use 16 heads.\n" +
      "4To illustrate why the dot products get large, assume that the components are independent.\n" +
      "∗Equal contribution.\n12In practice we use eight layers.";
    expect(footnoteNumbers(page).sort()).toEqual(["12", "4"]);
    expect(footnoteNumbers("We train for 16Hz signals.\n5 Training\nThe model.")).toEqual([]);
  });
});
