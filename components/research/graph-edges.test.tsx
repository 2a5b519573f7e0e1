import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { libraryPaperLinks, PaperLinksProvider, sharePaperLinks } from "@/components/paper/paper-links";
import type { GraphEdgeChip } from "@/lib/research/steps/graph-search";
import { GraphEdgeChips } from "./graph-edges";

const edge = (id: number, paperId: string, quote: string): GraphEdgeChip => ({
  id,
  relation: "improves_on",
  source: "<img src=x onerror=alert(1)>",
  target: "WidgetNet",
  paperId,
  title: `Paper ${paperId}`,
  year: 2021,
  page: 3,
  quote,
  charStart: 10,
  charEnd: 40,
  confidence: 0.9,
});

describe("GraphEdgeChips", () => {
  it("in the library: each edge opens its quote on its page; names from PDFs stay text", () => {
    const html = renderToStaticMarkup(
      <PaperLinksProvider links={libraryPaperLinks}>
        <GraphEdgeChips edges={[edge(1, "2101.00001", "It outperforms WidgetNet.")]} />
      </PaperLinksProvider>,
    );
    expect(html).toContain('href="/papers/2101.00001?page=3&amp;start=10&amp;end=40"');
    expect(html).toContain("“It outperforms WidgetNet.”");
    expect(html).not.toContain("<img");
  });

  it("through a share link: only the papers the run opens are links, and a quote left out is not shown as “”", () => {
    const token = "t".repeat(43);
    const html = renderToStaticMarkup(
      <PaperLinksProvider links={sharePaperLinks(token, ["2101.00001"])}>
        <GraphEdgeChips edges={[edge(1, "2101.00001", "It outperforms WidgetNet."), edge(2, "2101.00009", "")]} />
      </PaperLinksProvider>,
    );
    expect(html).toContain(`href="/s/${token}/papers/2101.00001?page=3&amp;start=10&amp;end=40"`);
    expect(html).not.toContain("/papers/2101.00009");
    expect(html).toContain('data-link="none"');
    expect(html).not.toContain("“”");
  });
});
