import { describe, expect, it } from "vitest";
import { answersSchema } from "./schema";

describe("the clarifying answers a page sends", () => {
  it("drops control characters from the text and from every choice, and blank answers", () => {
    const parsed = answersSchema.parse([
      {
        id: "q1",
        question: "Which approaches\u0007 should be compared?",
        answer: "Widgets\u0000; Gadgets",
        choices: ["Widgets\u0000", "Gadgets\u001b"],
      },
      { id: "q2", question: "How deep?", answer: "   " },
    ]);
    expect(parsed).toEqual([
      {
        id: "q1",
        question: "Which approaches  should be compared?",
        answer: "Widgets ; Gadgets",
        choices: ["Widgets", "Gadgets"],
      },
    ]);
  });
});
