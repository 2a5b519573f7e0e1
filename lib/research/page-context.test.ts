import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPageChunks, listPaperFileNames } from "@/db/queries/papers";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { analyzeWithRules } from "./analysis";
import { type EvidencePassage, verifyCitations } from "./citations";
import { synthesizeExtractive } from "./compose";
import { synthesisEvidence, withPageContext } from "./page-context";
import { synthesisStep } from "./steps/synthesis";
import { testResearchDeps, testStepContext } from "./testing";

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
});

afterAll(async () => {
  await lib?.close();
});

/** The passages of a page of the library's one paper, as retrieval would hand them on. */
async function passagesOf(page: number): Promise<EvidencePassage[]> {
  const [paper] = await listPaperFileNames(lib.handle.db);
  if (!paper) throw new Error("no paper stored");
  const rows = await getPageChunks(lib.handle.db, { keys: [{ paperId: paper.id, pageNumber: page }] });
  return rows.map(({ pageNumber, ...r }) => ({ ...r, title: "Gadget Caches", page: pageNumber }));
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

  it("rank a passage retrieved lower on a top passage's page with that page's best one", async () => {
    const page2 = await passagesOf(2);
    const page1 = await passagesOf(1);
    const fillers = Array.from({ length: 6 }, (_, i) => ({
      ...(page1[0] as EvidencePassage),
      chunkUid: `f${i}`,
      paperId: `other-${i}`,
    }));
    // page 2's first passage ranked first, its last one retrieved at rank 7
    const retrieved = [page2[0] as EvidencePassage, ...fillers, page2[page2.length - 1] as EvidencePassage];
    const widened = await withPageContext(lib.handle.db, retrieved, () => {});
    expect(widened[7]?.rank).toBe(0);
    expect(widened[7]?.pageContext).toBeUndefined();
    expect(widened.slice(1, 7).every((e) => e.rank === undefined)).toBe(true);
  });

  it("are added offline only: with a model the passages go as chosen, and the pages are not read", async () => {
    const broken = {
      select: () => {
        throw new Error("must not be read");
      },
    } as unknown as TestLibrary["handle"]["db"];
    const page2 = await passagesOf(2);
    const chosen = [page2[0] as EvidencePassage];
    const warnings: string[] = [];
    const model = {} as NonNullable<Parameters<typeof synthesisEvidence>[0]["chatModel"]>;
    expect(await synthesisEvidence({ db: broken, chatModel: model }, chosen, (m) => warnings.push(m))).toBe(chosen);
    expect(warnings).toEqual([]);
    const offline = await synthesisEvidence({ db: lib.handle.db, chatModel: null }, chosen, () => {});
    expect(offline.length).toBe(page2.length);
  });

  it("do not decide whether the library answers: a subject only they mention is still absent", async () => {
    const page2 = await passagesOf(2);
    const chosen = [page2[0] as EvidencePassage];
    const widened = await withPageContext(lib.handle.db, chosen, () => {});
    // the question's named subject ("4096") and its other words ("entries", "thrash", "bus") are only in the page's
    // other passages: the retrieved one does not answer it
    const question = "How many entries of the TLB-4096 thrash the memory bus?";
    const ctx = testStepContext(testResearchDeps(lib), question);
    const analysis = analyzeWithRules(question);
    await expect(synthesisStep.run(ctx, { evidence: chosen, analysis })).rejects.toMatchObject({
      detail: { code: "no_answer" },
    });
    await expect(synthesisStep.run(ctx, { evidence: widened, analysis })).rejects.toMatchObject({
      detail: { code: "no_answer" },
    });
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
