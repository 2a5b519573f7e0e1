// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { ClarifyingAnswer, ClarifyingQuestion } from "@/lib/research/deep/types";
import { ClarifyPanel } from "./clarify-panel";

const QUESTIONS: ClarifyingQuestion[] = [
  {
    id: "scope",
    question: "Which approaches should be compared?",
    purpose: "scope",
    options: ["Dense Passage Retrieval", "BM25 Revisited", "ColBERT: Late Interaction"],
    multiple: true,
  },
  {
    id: "depth",
    question: "How deep should the review go?",
    purpose: "depth",
    options: ["A short overview", "Technical detail"],
  },
];

function panel(sent: ClarifyingAnswer[][], kept: Record<string, string>[] = [], initial?: Record<string, string>) {
  return (
    <ClarifyPanel
      questions={QUESTIONS}
      onContinue={(answers) => sent.push(answers)}
      onSkip={() => {}}
      busy={false}
      initialAnswers={initial}
      onAnswersChange={(a) => kept.push(a)}
    />
  );
}

const chip = (name: string) => screen.getByRole("button", { name });
const field = (i: number) => screen.getAllByTestId("clarify-answer")[i] as HTMLInputElement;

afterEach(cleanup);

describe("the clarifying questions", () => {
  it("a comparison takes several approaches: chips toggle on their own, and all of them are sent", async () => {
    const user = userEvent.setup();
    const sent: ClarifyingAnswer[][] = [];
    render(panel(sent));
    expect(screen.getAllByTestId("clarify-multiple")).toHaveLength(1);
    await user.click(chip("Dense Passage Retrieval"));
    await user.click(chip("ColBERT: Late Interaction"));
    // the second choice leaves the first chosen
    expect(chip("Dense Passage Retrieval").getAttribute("aria-pressed")).toBe("true");
    expect(chip("ColBERT: Late Interaction").getAttribute("aria-pressed")).toBe("true");
    expect(chip("BM25 Revisited").getAttribute("aria-pressed")).toBe("false");
    expect(field(0).value).toBe("Dense Passage Retrieval; ColBERT: Late Interaction");
    // taking one out leaves the other; typed text beside them stays
    await user.click(chip("Dense Passage Retrieval"));
    expect(chip("Dense Passage Retrieval").getAttribute("aria-pressed")).toBe("false");
    expect(chip("ColBERT: Late Interaction").getAttribute("aria-pressed")).toBe("true");
    await user.type(field(0), "; SPLADE");
    await user.click(chip("BM25 Revisited"));
    expect(field(0).value).toBe("ColBERT: Late Interaction; SPLADE; BM25 Revisited");
    await user.click(screen.getByTestId("clarify-continue"));
    expect(sent).toEqual([
      [
        {
          id: "scope",
          question: "Which approaches should be compared?",
          answer: "ColBERT: Late Interaction; SPLADE; BM25 Revisited",
          choices: ["ColBERT: Late Interaction", "BM25 Revisited"],
        },
      ],
    ]);
  });

  it("a one-answer question stays one: a second chip replaces the first", async () => {
    const user = userEvent.setup();
    const sent: ClarifyingAnswer[][] = [];
    render(panel(sent));
    await user.click(chip("A short overview"));
    await user.click(chip("Technical detail"));
    expect(chip("A short overview").getAttribute("aria-pressed")).toBe("false");
    expect(chip("Technical detail").getAttribute("aria-pressed")).toBe("true");
    expect(field(1).value).toBe("Technical detail");
    await user.click(screen.getByTestId("clarify-continue"));
    expect(sent).toEqual([[{ id: "depth", question: "How deep should the review go?", answer: "Technical detail" }]]);
  });

  it("reads the choices back from the answers kept (another page visited meanwhile)", async () => {
    const kept: Record<string, string>[] = [];
    const user = userEvent.setup();
    render(panel([], kept));
    await user.click(chip("BM25 Revisited"));
    await user.click(chip("Dense Passage Retrieval"));
    const last = kept.at(-1) as Record<string, string>;
    cleanup();
    render(panel([], [], last));
    expect(chip("BM25 Revisited").getAttribute("aria-pressed")).toBe("true");
    expect(chip("Dense Passage Retrieval").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("clarify-panel").textContent).toContain("1 of 2 answered");
  });
});
