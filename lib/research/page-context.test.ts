import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { type EvidencePassage, verifyCitations } from "./citations";
import { synthesizeExtractive } from "./compose";
import { withPageContext } from "./page-context";

/**
 * Page 2 is long enough for three overlapping passages; the sentence that answers the question is in its last one,
 * which retrieval (here: the test) did not return.
 */
const filler = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Widget ranking note ${i} says the ranker orders candidate widgets by their learned relevance scores.`,
  ).join(" ");
const ANSWER = "The gadget cache holds 4096 entries because larger caches thrash the memory bus.";
const PAPER = [
  "Gadget Caches\nAda Lovelace\nAbstract\nWe study how a gadget cache speeds up widget ranking.",
  `2 Method\nThe gadget cache sits in front of the widget ranker. ${filler(30)} ${ANSWER} ${filler(4)}`,
];

let lib: TestLibrary;

beforeAll(async () => {
  lib = await createTestLibrary([PAPER], { name: "page-context" });
}, 60_000);

afterAll(async () => {
  await lib?.close();
});

async function passagesOf(page: number): Promise<EvidencePassage[]> {
  const rows = await queryRows<{
    chunk_uid: string;
    paper_id: string;
    page_number: number;
    char_start: number;
    char_end: number;
    text: string;
  }>(
    lib.handle.db,
    sql`select chunk_uid, paper_id, page_number, char_start, char_end, text from chunks
        where page_number = ${page} order by char_start`,
  );
  return rows.map((r) => ({
    chunkUid: r.chunk_uid,
    paperId: r.paper_id,
    title: "Gadget Caches",
    page: r.page_number,
    charStart: r.char_start,
    charEnd: r.char_end,
    text: r.text,
  }));
}

const QUESTION = "Why does the gadget cache hold 4096 entries?";

describe("the rest of the best passages' pages", () => {
  it("join the evidence ranked with their passage, and the answer quotes them", async () => {
    const page2 = await passagesOf(2);
    // the premise: the page has several passages and the answer is not in its first (else change the page)
    expect(page2.length).toBeGreaterThanOrEqual(2);
    expect(page2[0]?.text).not.toContain("4096");
    const retrieved = [page2[0] as EvidencePassage, ...(await passagesOf(1))];
    const opts = { intent: "unknown" as const, keywords: ["gadget cache", "4096"] };
    expect(synthesizeExtractive(QUESTION, retrieved, opts)).not.toContain("4096 entries");

    const widened = await withPageContext(lib.handle.db, retrieved, () => {});
    // the retrieved passages first, as they were; then the page's others, each once, ranked with page 2's passage
    expect(widened.slice(0, retrieved.length)).toEqual(retrieved);
    const added = widened.slice(retrieved.length);
    expect(added.map((e) => e.chunkUid).sort()).toEqual(
      page2
        .slice(1)
        .map((e) => e.chunkUid)
        .sort(),
    );
    expect(added.every((e) => e.rank === 0 && e.pageContext === true && e.page === 2)).toBe(true);

    const answer = synthesizeExtractive(QUESTION, widened, opts);
    expect(answer).toContain(ANSWER.replace(/\.$/, ""));
    const citations = verifyCitations(answer, widened);
    const cited = citations.find((c) => c.quote.includes("4096 entries"));
    expect(cited?.supported).toBe(true);
    expect(cited?.page).toBe(2);
    // the passage it names holds the quote at the offsets it gives
    const holder = widened.find((e) => e.chunkUid === cited?.chunkUid);
    expect(holder?.text.slice((cited?.charStart ?? 0) - (holder?.charStart ?? 0))).toContain("4096 entries");
  });

  it("come only from the first passages' pages", async () => {
    const page2 = await passagesOf(2);
    const page1 = await passagesOf(1);
    const widened = await withPageContext(lib.handle.db, [...page1, page2[0] as EvidencePassage], () => {}, 1);
    expect(widened).toHaveLength(page1.length + 1);
  });

  it("are left out, with a warning, when the pages cannot be read", async () => {
    const broken = {
      select: () => {
        throw new Error("connection reset");
      },
    } as unknown as TestLibrary["handle"]["db"];
    const page2 = await passagesOf(2);
    const warnings: string[] = [];
    const evidence = [page2[0] as EvidencePassage];
    expect(await withPageContext(broken, evidence, (m) => warnings.push(m))).toEqual(evidence);
    expect(warnings).toEqual([expect.stringContaining("connection reset")]);
  });
});
