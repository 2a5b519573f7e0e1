// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render as renderDom, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SourcesPanel } from "./sources-panel";

let query = "";
vi.mock("next/navigation", () => ({ useSearchParams: () => new URLSearchParams(query) }));

afterEach(() => {
  cleanup();
  query = "";
});

const render = (ui: ReactElement) =>
  renderDom(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);
const searchArxiv = async () => ({ ok: true as const, data: { total: 0, results: [] } });
/** Whether the panel's tab contents are hidden (folded). */
const body = () => {
  const parent = screen.getAllByRole("tabpanel", { hidden: true })[0]?.parentElement;
  if (!parent) throw new Error("no tab panel");
  return parent.hidden;
};

describe("SourcesPanel", () => {
  it("folded (a library with papers): only its heading and tabs show; a tab opens it on that tab, and it folds again", async () => {
    render(<SourcesPanel searchArxiv={searchArxiv} folded />);
    const panel = screen.getByTestId("sources-panel");
    expect(panel.dataset.open).toBe("false");
    expect(body()).toBe(true);
    await userEvent.click(screen.getByRole("tab", { name: "Import a library" }));
    expect(panel.dataset.open).toBe("true");
    expect(body()).toBe(false);
    expect(screen.getByRole("tab", { name: "Import a library" }).getAttribute("aria-selected")).toBe("true");
    await userEvent.click(screen.getByRole("button", { name: "Fold adding from elsewhere" }));
    expect(panel.dataset.open).toBe("false");
    // the tab already chosen opens it too
    await userEvent.click(screen.getByRole("tab", { name: "Import a library" }));
    expect(panel.dataset.open).toBe("true");
  });

  it("open for an empty library, and when a link offers a paper (?arxiv=…), prefilled", () => {
    render(<SourcesPanel searchArxiv={searchArxiv} />);
    expect(screen.getByTestId("sources-panel").dataset.open).toBe("true");
    expect(screen.queryByRole("button", { name: "Fold adding from elsewhere" })).toBeNull();
    cleanup();
    query = "arxiv=2106.09685v2";
    render(<SourcesPanel searchArxiv={searchArxiv} folded />);
    expect(screen.getByTestId("sources-panel").dataset.open).toBe("true");
    expect((screen.getByTestId("arxiv-ids") as HTMLTextAreaElement).value).toBe("2106.09685v2");
  });
});
