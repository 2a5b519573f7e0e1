import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { footnoteEnd } from "@/lib/text/footnotes";
import type { EvidencePassage } from "./citations";
import { parseOutline, startDeepRun } from "./deep";
import { markFootnotes } from "./footnotes";
import { waitForRun } from "./runs";
import { testResearchDeps } from "./testing";
import type { ResearchRunState } from "./types";

/**
 * A page with a contributions footnote in mid-page (as pdf.js gives a two-column page), long enough that the chunker
 * starts a passage inside the footnote ("Listing order is random. Noam proposed …"): the passage's own text does not
 * show the marker, its page does.
 */
const body = (n: number, word: string) =>
  Array.from(
    { length: n },
    (_, i) =>
      `${word} retrieval study sentence number ${i} describes how the ranker orders candidate widgets by their scores.`,
  ).join(" ");
const NOTE =
  "*Equal contribution. Listing order is random. Noam proposed scaled dot-product attention and multi-head\nattention and the position representation and became the other person involved in nearly every\ndetail of the widget work and its many variants over the years.";
const PAPER = [
  `arXiv:2001.00009v1 [cs.CL] 2 Jan 2020\nScaled Widgets\nAda Lovelace\nAbstract\nScaled dot-product attention divides the dot products by the square root of the key dimension.`,
  `1 Introduction\nScaled dot-product attention keeps the softmax away from regions of small gradients.\n${body(17, "Widget")}\n${NOTE}\n${body(16, "Attention")}`,
];

let lib: TestLibrary;

beforeAll(async () => {
  lib = await createTestLibrary([PAPER], { name: "footnotes" });
});

afterAll(async () => {
  await lib?.close();
});

async function passages(): Promise<{ evidence: EvidencePassage[]; pageText: string }> {
  const rows = await queryRows<{
    chunk_uid: string;
    paper_id: string;
    page_number: number;
    char_start: number;
    char_end: number;
    text: string;
    page_text: string;
  }>(
    lib.handle.db,
    sql`select c.chunk_uid, c.paper_id, c.page_number, c.char_start, c.char_end, c.text, p.text as page_text
        from chunks c join pages p on p.paper_id = c.paper_id and p.page_number = c.page_number
        where c.page_number = 2 order by c.char_start`,
  );
  const evidence = rows.map((r) => ({
    chunkUid: r.chunk_uid,
    paperId: r.paper_id,
    title: "Scaled Widgets",
    page: r.page_number,
    charStart: r.char_start,
    charEnd: r.char_end,
    text: r.text,
  }));
  return { evidence, pageText: rows[0]?.page_text ?? "" };
}

describe("footnotes a passage starts inside", () => {
  it("are marked on the passage with their length, from its page's text", async () => {
    const { evidence, pageText } = await passages();
    const inside = evidence.filter((e) => footnoteEnd(pageText, e.charStart) !== null);
    // the premise: the chunker started a passage inside the note (if it no longer does, change the page, not the test)
    expect(inside).toHaveLength(1);
    const marked = await markFootnotes(lib.handle.db, evidence, () => {});
    const note = marked.find((e) => e.chunkUid === inside[0]?.chunkUid);
    expect(note?.footnoteChars).toBe((footnoteEnd(pageText, note?.charStart ?? 0) ?? 0) - (note?.charStart ?? 0));
    expect(note?.text.slice(0, note.footnoteChars)).toContain("Noam proposed");
    expect(marked.filter((e) => e.footnoteChars !== undefined)).toHaveLength(1);
  });

  it("are not quoted by a deep-research section", async () => {
    const outline = parseOutline({
      title: "Scaled attention",
      search_strategy: "",
      knowledge_points: [
        {
          id: "a",
          category: "Methods",
          topic: "Scaled dot-product attention",
          search_keywords: ["scaled dot-product attention", "multi-head attention", "proposed"],
          importance: "high",
        },
      ],
    });
    const started = startDeepRun(testResearchDeps(lib), {
      question: "Who proposed scaled dot-product attention?",
      outline,
    });
    for await (const _ of started.events) {
      // drain
    }
    const state = (await waitForRun(started.runId)) as ResearchRunState;
    expect(state.status).toBe("completed");
    expect(state.answer).toContain("Scaled dot-product attention");
    expect(state.answer).not.toContain("Noam proposed");
  });
});
