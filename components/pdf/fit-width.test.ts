import { describe, expect, it } from "vitest";
import { fitPageWidth } from "./fit-width";

describe("fitPageWidth", () => {
  it("leaves pdf.js the page's own size until the scroller is measured", () => {
    expect(fitPageWidth(0, 1, true)).toBeUndefined();
    expect(fitPageWidth(0, 1, false)).toBeUndefined();
  });

  it("gives the page the scroller's whole width on a phone, and keeps a gutter on wider screens", () => {
    expect(fitPageWidth(390, 1, true)).toBe(390);
    expect(fitPageWidth(900, 1, false)).toBe(868);
  });

  it("scales with the zoom, rounding down to whole pixels", () => {
    expect(fitPageWidth(390, 1.5, true)).toBe(585);
    expect(fitPageWidth(360, 0.67, true)).toBe(241);
    expect(fitPageWidth(900, 2, false)).toBe(1736);
  });

  it("never goes below 200 pixels, however far out it is zoomed", () => {
    expect(fitPageWidth(320, 0.5, true)).toBe(200);
    expect(fitPageWidth(220, 1, false)).toBe(200);
  });
});
