import { describe, expect, it } from "vitest";
import { footnoteEnd, inFootnote } from "./footnotes";

const PAGE = [
  "1 Introduction",
  "Recurrent models have long been the state of the art in sequence modelling.",
  "∗Equal contribution. Listing order is random. Jakob proposed replacing RNNs with",
  "self-attention and started the effort to evaluate this idea. Noam proposed scaled",
  "dot-product attention and was involved in every detail.",
  "31st Conference on Neural Information Processing Systems.",
].join("\n");

describe("inFootnote", () => {
  it("is true inside a footnote whose marker comes a little before, false in the body before it", () => {
    expect(inFootnote(PAGE, PAGE.indexOf("Noam proposed"))).toBe(true);
    expect(inFootnote(PAGE, PAGE.indexOf("Listing order"))).toBe(true);
    expect(inFootnote(PAGE, PAGE.indexOf("Recurrent models"))).toBe(false);
  });

  it("ends at a numbered section heading, and reads markers glued to a number", () => {
    const page = "4To illustrate, we use a toy task.\n3.2 Attention\nAn attention function maps a query to an output.";
    expect(inFootnote(page, page.indexOf("we use a toy"))).toBe(true);
    expect(inFootnote(page, page.indexOf("An attention function"))).toBe(false);
  });

  it("does not take a number or a star inside a sentence for a marker", () => {
    const page =
      "We train for 3 epochs. Results in Table 2 show a gain of 4 points * on average.\nThe model converges.";
    expect(inFootnote(page, page.indexOf("The model converges"))).toBe(false);
  });

  it("ends a note in mid-page at its first sentence's end: body text follows it in a two-column page", () => {
    const body = "Body text of the page goes on for a long while here. ".repeat(40);
    const page = `${body}\n†Smith (2020) is an update to this work. It is released concurrently.\nYet, existing corpora are not without their limitations.\n${body}`;
    expect(inFootnote(page, page.indexOf("It is released"))).toBe(true);
    expect(inFootnote(page, page.indexOf("Yet, existing"))).toBe(false);
    expect(footnoteEnd(page, page.indexOf("It is released"))).toBe(page.indexOf("Yet, existing"));
    // at the page's foot the notes run to its end
    expect(footnoteEnd(PAGE, PAGE.indexOf("Noam proposed"))).toBe(PAGE.length);
  });

  it("reaches only so far back: a marker far above the text is another page part's", () => {
    const page = `∗Work done at a lab.\n${"Body text of the page goes on for a long while here. ".repeat(20)}\nThe end.`;
    expect(inFootnote(page, page.indexOf("The end"))).toBe(false);
  });
});
