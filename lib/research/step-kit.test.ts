import { describe, expect, it } from "vitest";
import type { ContentResult } from "@/lib/search/search";
import { passageSource } from "./step-kit";

const result = (section: string | null): ContentResult => ({
  chunkUid: "c1",
  paperId: "2501.10120v1",
  title: "PaSa",
  year: 2025,
  page: 6,
  chunkIndex: 0,
  charStart: 10,
  charEnd: 90,
  section,
  bibliography: false,
  text: "The Crawler collects papers; the Selector reads each one and decides.",
  score: 0.03,
  relevance: 0.834,
  fts: { score: 12, rank: 1 },
  proximity: null,
  vector: { score: 0.6, rank: 2 },
  sentence: null,
  queries: ["crawler"],
});

describe("passageSource", () => {
  it("carries the passage's page, range, relevance and section for its chip", () => {
    expect(passageSource(result("4 Methodology › 4.2 Crawler"))).toMatchObject({
      id: "c1",
      type: "passage",
      paperId: "2501.10120v1",
      page: 6,
      charStart: 10,
      charEnd: 90,
      similarity: 0.83,
      section: "4 Methodology › 4.2 Crawler",
    });
  });

  it("leaves the section out when none was found", () => {
    expect("section" in passageSource(result(null))).toBe(false);
  });
});
