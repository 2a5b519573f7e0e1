import { describe, expect, it } from "vitest";
import { currentEntries } from "./paper-outline";
import type { OutlineEntry } from "./types";

const entry = (page: number, title: string): OutlineEntry => ({ page, numbering: "", title, depth: 0 });
const outline = [
  entry(1, "Abstract"),
  entry(1, "Introduction"),
  entry(3, "Method"),
  entry(3, "Setup"),
  entry(6, "Results"),
];

describe("currentEntries", () => {
  it("marks the headings on the page in view", () => {
    expect(currentEntries(outline, 1)).toEqual([0, 1]);
    expect(currentEntries(outline, 3)).toEqual([2, 3]);
  });

  it("marks the section a page without headings continues", () => {
    expect(currentEntries(outline, 2)).toEqual([1]);
    expect(currentEntries(outline, 5)).toEqual([3]);
    expect(currentEntries(outline, 40)).toEqual([4]);
  });

  it("marks nothing before the first heading or without headings", () => {
    expect(currentEntries([entry(2, "Introduction")], 1)).toEqual([]);
    expect(currentEntries([], 1)).toEqual([]);
  });
});
