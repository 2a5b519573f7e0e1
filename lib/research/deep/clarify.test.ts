import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { A_PAGES, A_TITLE, B_PAGES, B_TITLE, COMPARISON } from "@/lib/testing/tidal-papers";
import type { ResearchDeps } from "../deps";
import { mockModel } from "../testing";
import { generateClarifyingQuestions, generateOutline } from "./index";
import { answerChoices } from "./plan";
import type { ClarifyingAnswer } from "./types";

/**
 * Clarifying questions that take several answers ("Which approaches should be compared?"): where they are made, and
 * how the outline uses every option chosen. The deep-research e2e spec's two papers (lib/testing/tidal-papers.ts),
 * which share the question's words, so both match it.
 */
const DRIFT_TITLE = A_TITLE;
const RADIOS_TITLE = B_TITLE;
const COMPARE_QUESTION = "Which approaches should be compared?";

let lib: TestLibrary;
let deps: ResearchDeps;

beforeAll(async () => {
  lib = await createTestLibrary([A_PAGES, B_PAGES], { name: "clarify" });
  deps = { db: lib.handle.db, embedder: lib.embedder, chatModel: null, llmTimeoutMs: 5_000, runTimeoutMs: 60_000 };
});

afterAll(async () => {
  await lib?.close();
});

describe("a clarifying question that takes several answers", () => {
  it("offline: a comparison asks which approaches to compare, and takes several; the other questions take one", async () => {
    const r = await generateClarifyingQuestions(deps, COMPARISON);
    const compare = r.value.find((q) => q.question === COMPARE_QUESTION);
    expect(compare, JSON.stringify(r.value)).toMatchObject({ purpose: "scope", multiple: true });
    expect([...(compare?.options ?? [])].sort()).toEqual([DRIFT_TITLE, RADIOS_TITLE]);
    for (const q of r.value.filter((q) => q !== compare)) expect(q.multiple).toBeUndefined();
    // asked as a "how" question, it is a comparison all the same
    const how = await generateClarifyingQuestions(
      deps,
      "How does salinity drift in tidal pool sensor networks compare with tide-aware scheduling of sensor radios?",
    );
    expect(
      how.value.find((q) => q.question === COMPARE_QUESTION),
      JSON.stringify(how.value),
    ).toMatchObject({ multiple: true });
    // not a comparison: its scope question takes one answer
    const plain = await generateClarifyingQuestions(deps, "How do tidal pool sensor networks measure salinity?");
    expect(plain.value.some((q) => q.multiple)).toBe(false);
  });

  it("with a model: its questions say whether they take several; a value that is no yes or no counts as one", async () => {
    const model = mockModel({
      reply: () =>
        JSON.stringify({
          questions: [
            {
              id: "q1",
              question: "Which methods should be compared?",
              purpose: "scope",
              options: ["A", "B"],
              multiple: true,
            },
            { id: "q2", question: "How deep?", purpose: "depth", options: ["Short"], multiple: "yes" },
          ],
        }),
    });
    const r = await generateClarifyingQuestions({ ...deps, chatModel: model }, COMPARISON);
    expect(r.method).toBe("llm");
    expect(r.value.map((q) => [q.id, q.multiple])).toEqual([
      ["q1", true],
      ["q2", undefined],
    ]);
  });

  it("reads each option chosen, and what was written beside them", () => {
    const a = (answer: string, choices?: string[]): ClarifyingAnswer => ({
      id: "scope",
      question: "",
      answer,
      choices,
    });
    expect(answerChoices(a("LoRA; BERT; and adapters", ["LoRA", "BERT"]))).toEqual({
      chosen: ["LoRA", "BERT"],
      rest: "and adapters",
    });
    // a choice the answer does not hold (not sent in words) counts for nothing; no choices: all of it is the answer
    expect(answerChoices(a("lora", ["LoRA", "GPT-2"]))).toEqual({ chosen: ["LoRA"], rest: "" });
    expect(answerChoices(a("LoRA; BERT"))).toEqual({ chosen: [], rest: "LoRA; BERT" });
  });

  it("offline: every approach chosen is a point of the outline; one not chosen is not made one", async () => {
    const answer = (choices: string[]): ClarifyingAnswer[] => [
      { id: "scope", question: COMPARE_QUESTION, answer: choices.join("; "), choices },
    ];
    const topicsOf = async (answers: ClarifyingAnswer[]) => {
      const r = await generateOutline(deps, COMPARISON, answers);
      expect(r.method).toBe("library");
      return r.value.knowledge_points.filter((p) => p.importance === "high").map((p) => p.topic);
    };
    // without an answer the radios paper is no point (the question's words lead to the drift paper's phrases)
    expect(await topicsOf([])).not.toContain(RADIOS_TITLE);
    const both = await topicsOf(answer([DRIFT_TITLE, RADIOS_TITLE]));
    expect(both).toEqual(expect.arrayContaining([DRIFT_TITLE, RADIOS_TITLE]));
    const one = await topicsOf(answer([RADIOS_TITLE]));
    expect(one).toContain(RADIOS_TITLE);
    expect(one).not.toContain(DRIFT_TITLE);
  });
});
