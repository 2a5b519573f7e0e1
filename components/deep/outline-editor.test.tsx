// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { Outline } from "@/lib/research/deep/types";
import { OutlineEditor } from "./outline-editor";

const OUTLINE: Outline = {
  title: "Retrieval for long documents",
  knowledge_points: [
    { id: "kp1", category: "Methods", topic: "Dense retrieval", search_keywords: ["dense"], importance: "high" },
  ],
  search_strategy: "",
};

afterEach(cleanup);

function renderEditor() {
  const runs: Outline[] = [];
  render(<OutlineEditor initial={OUTLINE} onRun={(o) => runs.push(o)} />);
  return runs;
}

describe("a knowledge point added in the outline editor", () => {
  it("takes its keywords from the topic typed, so Run starts the review", async () => {
    const user = userEvent.setup();
    const runs = renderEditor();
    await user.click(screen.getByTestId("outline-add-point"));
    // the new point's topic field has the focus
    await user.keyboard("Hallucination in large language models");
    const added = screen.getAllByTestId("outline-point")[1] as HTMLElement;
    expect(added.textContent).toContain("language models");
    expect(screen.getByTestId("outline-point-keywords-from-topic")).toBeTruthy();
    await user.click(screen.getByTestId("outline-run"));
    expect(screen.queryByTestId("outline-issues")).toBeNull();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.knowledge_points[1]?.search_keywords).toEqual(["language models", "hallucination", "language"]);
  });

  it("replaces the keywords taken from the topic with the first one typed, even one of them", async () => {
    const user = userEvent.setup();
    const runs = renderEditor();
    await user.click(screen.getByTestId("outline-add-point"));
    await user.keyboard("Hallucination in large language models");
    const added = screen.getAllByTestId("outline-point")[1] as HTMLElement;
    const field = added.querySelector<HTMLInputElement>('input[aria-label^="Search keywords of"]');
    if (!field) throw new Error("no keyword field");
    await user.click(field);
    await user.keyboard("hallucination{Enter}factuality{Enter}");
    await user.click(screen.getByTestId("outline-run"));
    expect(runs[0]?.knowledge_points[1]?.search_keywords).toEqual(["hallucination", "factuality"]);
  });

  it("keeps Run blocked, saying why, when the topic gives no keyword", async () => {
    const user = userEvent.setup();
    const runs = renderEditor();
    await user.click(screen.getByTestId("outline-add-point"));
    await user.keyboard("Limitations of current approaches");
    await user.click(screen.getByTestId("outline-run"));
    expect(runs).toEqual([]);
    expect(screen.getByTestId("outline-issues").textContent).toContain(
      "Point 2: No keyword could be taken from “Limitations of current approaches” (only common words): add at least one.",
    );
  });
});
