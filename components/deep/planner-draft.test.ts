import { describe, expect, it } from "vitest";
import type { Outline } from "@/lib/research/deep/types";
import { type PlannerDraft, plannerDraftKey, readPlannerDraft, writePlannerDraft } from "./planner-draft";

/** A Storage over a Map (this file runs in node), or one that refuses every call. */
function memoryStorage(refuse = false): Storage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  const check = () => {
    if (refuse) throw new DOMException("The operation is insecure.", "SecurityError");
  };
  return {
    items,
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => {
      check();
      return items.get(k) ?? null;
    },
    setItem: (k, v) => {
      check();
      items.set(k, v);
    },
    removeItem: (k) => {
      check();
      items.delete(k);
    },
    clear: () => items.clear(),
  };
}

const OUTLINE: Outline = {
  title: "Retrieval for long documents",
  knowledge_points: [
    { id: "kp1", category: "Methods", topic: "Dense retrieval", search_keywords: ["dense"], importance: "high" },
  ],
  search_strategy: "",
};

const EDIT: PlannerDraft = {
  stage: "edit",
  question: "How is retrieval done over long documents?",
  quick: false,
  answers: [{ id: "q1", question: "Which years?", answer: "Since 2020" }],
  outline: OUTLINE,
  method: "library",
  editor: {
    draft: {
      title: "Retrieval, revisited",
      knowledge_points: [
        { id: "kp1", category: "Methods", topic: "Dense retrieval", search_keywords: ["dense"], importance: "high" },
        {
          id: "kp2",
          category: "General",
          topic: "",
          search_keywords: [],
          importance: "medium",
          keywordsFromTopic: true,
        },
      ],
      search_strategy: "",
      year_from: "20",
      year_to: "",
    },
    usedIds: ["kp1", "kp2"],
  },
};

const KEY = plannerDraftKey("user-1");

describe("the kept deep research draft", () => {
  it("is kept per user, and read back as written (an outline being edited may not be valid yet)", () => {
    expect(plannerDraftKey("user-1")).not.toBe(plannerDraftKey("user-2"));
    const storage = memoryStorage();
    writePlannerDraft(storage, KEY, EDIT);
    expect(readPlannerDraft(storage, KEY)).toEqual(EDIT);
    const ask: PlannerDraft = { stage: "ask", question: "What is late interaction?", quick: true };
    writePlannerDraft(storage, KEY, ask);
    expect(readPlannerDraft(storage, KEY)).toEqual(ask);
  });

  it("drops what is not JSON, or not a draft, and removes it from storage", () => {
    const bad = [
      "{not json",
      "null",
      '"a string"',
      JSON.stringify({ stage: "run", question: "Q", quick: false }),
      JSON.stringify({ stage: "ask", question: 42, quick: false }),
      JSON.stringify({ ...EDIT, outline: { ...OUTLINE, knowledge_points: [] } }),
      JSON.stringify({ ...EDIT, editor: { ...EDIT.editor, draft: { title: "T" } } }),
      JSON.stringify({ stage: "clarify", question: "Q", quick: false, questions: [], method: "llm", answers: {} }),
      JSON.stringify({ stage: "ask", question: "x".repeat(20_001), quick: false }),
    ];
    for (const raw of bad) {
      const storage = memoryStorage();
      storage.setItem(KEY, raw);
      expect(readPlannerDraft(storage, KEY), raw.slice(0, 60)).toBeNull();
      expect(storage.items.has(KEY)).toBe(false);
    }
  });

  it("goes on without a draft when storage refuses", () => {
    const storage = memoryStorage(true);
    expect(() => writePlannerDraft(storage, KEY, EDIT)).not.toThrow();
    expect(readPlannerDraft(storage, KEY)).toBeNull();
  });
});
