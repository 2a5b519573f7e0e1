import { describe, expect, it } from "vitest";
import type { Outline } from "@/lib/research/deep/types";
import {
  type EditorAction,
  type EditorState,
  initEditor,
  keywordProblem,
  nextPointId,
  outlineReducer,
  validateDraft,
} from "./outline-state";

const OUTLINE: Outline = {
  title: "Retrieval for long documents",
  knowledge_points: [
    {
      id: "kp1",
      category: "Methods",
      topic: "Dense retrieval",
      search_keywords: ["dense", "vectors"],
      importance: "high",
    },
    { id: "kp2", category: "Methods", topic: "Sparse retrieval", search_keywords: ["bm25"], importance: "medium" },
    { id: "kp3", category: "Results", topic: "Benchmarks", search_keywords: ["recall", "mrr"], importance: "low" },
  ],
  search_strategy: "Each point on its own.",
  year_from: 2019,
};

function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce(outlineReducer, state);
}

const ids = (s: EditorState) => s.draft.knowledge_points.map((p) => p.id);

describe("outline editor state", () => {
  it("starts from the outline, years as text, with nothing to undo", () => {
    const s = initEditor(OUTLINE);
    expect(s.draft.title).toBe(OUTLINE.title);
    expect(s.draft.year_from).toBe("2019");
    expect(s.draft.year_to).toBe("");
    expect(s.past).toEqual([]);
    expect(validateDraft(s.draft)).toEqual({ outline: OUTLINE, issues: [] });
  });

  it("adds a point with a fresh id, then keywords as chips (commas split, duplicates and blanks ignored)", () => {
    let s = run(initEditor(OUTLINE), { type: "add_point" });
    expect(ids(s)).toEqual(["kp1", "kp2", "kp3", "kp4"]);
    // keywords typed before the topic: the topic then leaves them alone
    s = run(
      s,
      { type: "add_keyword", id: "kp4", keyword: "  saline   drift " },
      { type: "add_keyword", id: "kp4", keyword: "Saline drift, calibration,, " },
      { type: "add_keyword", id: "kp4", keyword: "   " },
      { type: "update_point", id: "kp4", patch: { topic: "Calibration drift" } },
    );
    expect(s.draft.knowledge_points[3]).toEqual({
      id: "kp4",
      category: "General",
      topic: "Calibration drift",
      search_keywords: ["saline drift", "calibration"],
      importance: "medium",
    });
    expect(validateDraft(s.draft).outline?.knowledge_points).toHaveLength(4);
  });

  it("never reuses the id of a removed point (versions are compared by id)", () => {
    const s = run(initEditor(OUTLINE), { type: "remove_point", id: "kp3" }, { type: "add_point" });
    expect(ids(s)).toEqual(["kp1", "kp2", "kp4"]);
    expect(nextPointId(["kp1", "kp9", "x"])).toBe("kp10");
    expect(nextPointId(["a", "b"])).toBe("kp3");
  });

  it("removes the last keyword with index -1 and a chosen one by index", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "remove_keyword", id: "kp1", index: -1 },
      { type: "remove_keyword", id: "kp3", index: 0 },
    );
    expect(s.draft.knowledge_points[0]?.search_keywords).toEqual(["dense"]);
    expect(s.draft.knowledge_points[2]?.search_keywords).toEqual(["mrr"]);
    // nothing to remove: no change, no undo step
    const empty = run(s, { type: "remove_keyword", id: "kp2", index: 0 });
    const again = run(empty, { type: "remove_keyword", id: "kp2", index: -1 });
    expect(again).toBe(empty);
  });

  it("moves points up and down, clamped at the ends, and says where to", () => {
    let s = run(initEditor(OUTLINE), { type: "move_point", id: "kp1", by: 1 });
    expect(ids(s)).toEqual(["kp2", "kp1", "kp3"]);
    expect(s.announcement).toBe("Moved “Dense retrieval” to position 2 of 3.");
    s = run(s, { type: "move_point", id: "kp3", by: -1 });
    expect(ids(s)).toEqual(["kp2", "kp3", "kp1"]);
    const top = run(s, { type: "move_point", id: "kp2", by: -1 });
    expect(top).toBe(s);
  });

  it("keeps at least one point and at most twelve", () => {
    const one = run(
      initEditor(OUTLINE),
      { type: "remove_point", id: "kp1" },
      { type: "remove_point", id: "kp2" },
      { type: "remove_point", id: "kp3" },
    );
    expect(ids(one)).toEqual(["kp3"]);
    let many = initEditor(OUTLINE);
    for (let i = 0; i < 20; i++) many = outlineReducer(many, { type: "add_point" });
    expect(many.draft.knowledge_points).toHaveLength(12);
  });

  it("undoes and redoes changes in order; a new change clears redo", () => {
    const s0 = initEditor(OUTLINE);
    const s1 = run(s0, { type: "remove_point", id: "kp2" }, { type: "move_point", id: "kp3", by: -1 });
    expect(ids(s1)).toEqual(["kp3", "kp1"]);
    const u1 = run(s1, { type: "undo" });
    expect(ids(u1)).toEqual(["kp1", "kp3"]);
    expect(u1.announcement).toBe("Undone: moved “Benchmarks”.");
    const u2 = run(u1, { type: "undo" });
    expect(u2.draft).toEqual(s0.draft);
    expect(run(u2, { type: "undo" })).toBe(u2);
    const r1 = run(u2, { type: "redo" });
    expect(ids(r1)).toEqual(["kp1", "kp3"]);
    const branched = run(r1, { type: "set_title", title: "Another" });
    expect(branched.future).toEqual([]);
    expect(run(branched, { type: "redo" })).toBe(branched);
  });

  it("makes typing in one field one undo step, and a different field a new one", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "set_title", title: "R" },
      { type: "set_title", title: "Re" },
      { type: "set_title", title: "Rev" },
      { type: "update_point", id: "kp1", patch: { topic: "Dense" } },
      { type: "update_point", id: "kp1", patch: { topic: "Dense r" } },
    );
    expect(s.past).toHaveLength(2);
    const undone = run(s, { type: "undo" });
    expect(undone.draft.title).toBe("Rev");
    expect(undone.draft.knowledge_points[0]?.topic).toBe("Dense retrieval");
    expect(run(undone, { type: "undo" }).draft.title).toBe(OUTLINE.title);
    // after an undo, typing again in the same field starts a new step
    const typed = run(undone, { type: "set_title", title: "Revi" });
    expect(typed.past).toHaveLength(2);
  });

  it("makes every importance pick its own undo step, and ignores unknown values", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "update_point", id: "kp2", patch: { importance: "high" } },
      { type: "update_point", id: "kp2", patch: { importance: "low" } },
      { type: "update_point", id: "kp2", patch: { importance: "urgent" as "low" } },
    );
    expect(s.past).toHaveLength(2);
    expect(s.draft.knowledge_points[1]?.importance).toBe("low");
    expect(run(s, { type: "undo" }).draft.knowledge_points[1]?.importance).toBe("high");
  });

  it("takes only digits for years, four at most", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "set_year", bound: "to", value: "20x245" },
      { type: "set_year", bound: "from", value: "" },
    );
    expect(s.draft.year_to).toBe("2024");
    expect(s.draft.year_from).toBe("");
    expect(validateDraft(s.draft).outline).toMatchObject({ year_to: 2024 });
    expect(validateDraft(s.draft).outline).not.toHaveProperty("year_from");
  });

  it("gives a new point its topic's phrases and content words as keywords, so it can run", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "add_point" },
      { type: "update_point", id: "kp4", patch: { topic: "H" } },
      { type: "update_point", id: "kp4", patch: { topic: "Hallucination in large language models" } },
    );
    const point = s.draft.knowledge_points[3];
    expect(point?.search_keywords).toEqual(["language models", "hallucination", "language"]);
    expect(point?.keywordsFromTopic).toBe(true);
    const { outline, issues } = validateDraft(s.draft);
    expect(issues).toEqual([]);
    // the outline run is the schema's: the editor's own mark is not sent
    expect(outline?.knowledge_points[3]).toEqual({
      id: "kp4",
      category: "General",
      topic: "Hallucination in large language models",
      search_keywords: ["language models", "hallucination", "language"],
      importance: "medium",
    });
    // the typing and the keywords it gave are one undo step
    expect(run(s, { type: "undo" }).draft.knowledge_points[3]).toMatchObject({ topic: "", search_keywords: [] });
  });

  it("leaves keywords the researcher typed or removed alone when the topic changes", () => {
    const derived = run(
      initEditor(OUTLINE),
      { type: "add_point" },
      { type: "update_point", id: "kp4", patch: { topic: "Dense retrieval" } },
    );
    expect(derived.draft.knowledge_points[3]?.search_keywords).toEqual(["dense retrieval", "dense", "retrieval"]);
    const typed = run(
      derived,
      { type: "add_keyword", id: "kp4", keyword: "DPR" },
      { type: "update_point", id: "kp4", patch: { topic: "Sparse retrieval" } },
    );
    // (the first keyword typed replaces the ones taken from the topic: they stood in for the researcher's own)
    expect(typed.draft.knowledge_points[3]?.search_keywords).toEqual(["DPR"]);
    expect(typed.draft.knowledge_points[3]).not.toHaveProperty("keywordsFromTopic");
    const removed = run(
      derived,
      { type: "remove_keyword", id: "kp4", index: -1 },
      { type: "update_point", id: "kp4", patch: { topic: "Sparse retrieval" } },
    );
    expect(removed.draft.knowledge_points[3]?.search_keywords).toEqual(["dense retrieval", "dense"]);
    // an existing point's keywords stay whatever its topic becomes
    const renamed = run(initEditor(OUTLINE), { type: "update_point", id: "kp1", patch: { topic: "Late interaction" } });
    expect(renamed.draft.knowledge_points[0]?.search_keywords).toEqual(["dense", "vectors"]);
  });

  it("takes keywords again from the topic of a point whose keywords were all removed", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "remove_keyword", id: "kp2", index: 0 },
      { type: "update_point", id: "kp2", patch: { topic: "BM25 with query expansion" } },
    );
    expect(s.draft.knowledge_points[1]?.search_keywords).toEqual([
      "BM25 with query expansion",
      "query expansion",
      "BM25",
      "query",
      "expansion",
    ]);
  });

  it("reset starts over from another outline, history cleared", () => {
    const s = run(initEditor(OUTLINE), { type: "remove_point", id: "kp1" }, { type: "reset", outline: OUTLINE });
    expect(s.past).toEqual([]);
    expect(ids(s)).toEqual(["kp1", "kp2", "kp3"]);
  });
});

describe("keyword problems", () => {
  it("says why a keyword cannot be added", () => {
    expect(keywordProblem(["dense"], "Dense")).toBe("“Dense” is already a keyword.");
    expect(keywordProblem([], "x".repeat(81))).toBe("A keyword is at most 80 characters.");
    expect(
      keywordProblem(
        Array.from({ length: 12 }, (_, i) => `k${i}`),
        "new",
      ),
    ).toBe("A point has at most 12 keywords.");
    expect(keywordProblem(["dense"], "  ")).toBeNull();
    expect(keywordProblem(["dense"], "sparse")).toBeNull();
  });
});

describe("outline validation", () => {
  it("names the field of every problem, in the editor's words", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "set_title", title: " " },
      { type: "add_point" },
      { type: "update_point", id: "kp2", patch: { category: "" } },
      { type: "remove_keyword", id: "kp2", index: 0 },
    );
    const { outline, issues } = validateDraft(s.draft);
    expect(outline).toBeNull();
    expect(issues).toEqual([
      { field: "title", message: "Give the outline a title (2–300 characters)." },
      { field: "kp2:category", message: "Give the point a category (at most 60 characters)." },
      { field: "kp2:keywords", message: "Add at least one keyword (at most 12)." },
      { field: "kp4:topic", message: "Give the point a topic (2–200 characters)." },
      { field: "kp4:keywords", message: "Add at least one keyword, or write the topic to take them from." },
    ]);
  });

  it("says so when a point's topic gives no keyword, and Run stays blocked", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "add_point" },
      { type: "update_point", id: "kp4", patch: { topic: "Limitations of current approaches" } },
    );
    expect(s.draft.knowledge_points[3]?.search_keywords).toEqual([]);
    const { outline, issues } = validateDraft(s.draft);
    expect(outline).toBeNull();
    expect(issues).toEqual([
      {
        field: "kp4:keywords",
        message:
          "No keyword could be taken from “Limitations of current approaches” (only common words): add at least one.",
      },
    ]);
  });

  it("checks the year range: digits in range, from before to", () => {
    const bad = run(initEditor(OUTLINE), { type: "set_year", bound: "to", value: "19" });
    expect(validateDraft(bad.draft).issues).toEqual([
      { field: "years", message: "Years are four digits between 1900 and 2100 (or empty for no bound)." },
    ]);
    const empty = run(initEditor(OUTLINE), { type: "set_year", bound: "to", value: "2010" });
    expect(validateDraft(empty.draft).issues).toEqual([
      { field: "years", message: "The year range is empty (from is after to)." },
    ]);
  });

  it("returns the trimmed outline the server accepts", () => {
    const s = run(
      initEditor(OUTLINE),
      { type: "set_title", title: "  Retrieval, revisited  " },
      { type: "update_point", id: "kp1", patch: { topic: "  Dense retrieval  " } },
    );
    const { outline } = validateDraft(s.draft);
    expect(outline?.title).toBe("Retrieval, revisited");
    expect(outline?.knowledge_points[0]?.topic).toBe("Dense retrieval");
  });
});
