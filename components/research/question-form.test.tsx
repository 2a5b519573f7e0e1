import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { QuestionForm } from "./question-form";
import type { WebSearchAvailability } from "./types";

const OFF: WebSearchAvailability = { available: false, provider: null, mode: "on_request", howToEnable: null };

function render({ busy = false, web }: { busy?: boolean; web?: WebSearchAvailability }): string {
  return renderToStaticMarkup(
    <QuestionForm onAsk={() => {}} examples={[]} showExamples={false} busy={busy} web={web} />,
  );
}

describe("the question box's web search line", () => {
  it("tells how to set web search up when the page gives the instructions (the owner's)", () => {
    const html = render({ web: { ...OFF, howToEnable: "Web search is off: set LECTERN_SEARXNG_URL…" } });
    expect(html).toContain('data-testid="research-web-off"');
    expect(html).toContain("LECTERN_SEARXNG_URL");
  });

  it("says nothing of web search to a role that cannot set it up", () => {
    const html = render({ web: OFF });
    expect(html).not.toContain('data-testid="research-web-off"');
    expect(html).not.toContain('data-testid="research-web"');
  });
});

describe("the question box's submit button", () => {
  it("says that asking while a run is going on stops that run", () => {
    expect(render({ busy: true })).toContain("Stop the run and ask");
    expect(render({ busy: true })).not.toContain("Ask instead");
    expect(render({ busy: false })).toMatch(/<\/svg>Ask<\/button>/);
  });
});
