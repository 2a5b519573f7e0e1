import { renderToStaticMarkup } from "react-dom/server";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { describe, expect, it } from "vitest";
import { PaperSummary } from "@/components/paper/paper-summary";
import { AnswerMarkdown } from "@/components/research/answer-view";
import { TooltipProvider } from "@/components/ui/tooltip";
import { type LinkPolicy, remarkUntrustedLinks, untrustedLinkComponents } from "./untrusted-links";

function render(markdown: string, policy: LinkPolicy): string {
  return renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm, [remarkUntrustedLinks, { policy }]]} components={untrustedLinkComponents}>
      {markdown}
    </ReactMarkdown>,
  );
}

const hrefs = (html: string) => [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1]);

describe("links and images a model wrote (policy https)", () => {
  it("keeps an https link, opening a new tab without opener or referrer, nofollow, its host shown", () => {
    const html = render("See [the dataset](https://data.example.org/tides?x=1).", "https");
    expect(html).toBe(
      '<p>See <a href="https://data.example.org/tides?x=1" target="_blank" rel="noopener noreferrer nofollow" ' +
        'data-testid="external-link">the dataset<span class="text-[0.85em] text-muted-foreground"> ' +
        "(data.example.org)</span></a>.</p>",
    );
    // the host tells a link that claims to go elsewhere
    expect(render("[https://bank.example](https://evil.example/login)", "https")).toContain("(evil.example)");
    expect(hrefs(render("<https://data.example.org>", "https"))).toEqual(["https://data.example.org"]);
    expect(hrefs(render("[ref][d]\n\n[d]: https://data.example.org", "https"))).toEqual(["https://data.example.org"]);
  });

  it("keeps any other link as its text: http, mailto, javascript, relative, a non-https reference", () => {
    for (const md of [
      "[login](http://evil.example)",
      "[mail](mailto:a@evil.example)",
      "[x](javascript:alert(1))",
      "[here](/api/ingest)",
      "[ref][d]\n\n[d]: http://evil.example",
    ]) {
      expect(hrefs(render(md, "https")), md).toEqual([]);
    }
    expect(render("[login](http://evil.example)", "https")).toBe("<p>login</p>");
  });

  it("leaves a bare URL as text (it may be paper text the model quoted)", () => {
    const html = render("Data at https://evil.example/x and www.evil.example, or a@evil.example.", "https");
    expect(hrefs(html)).toEqual([]);
    expect(html).toContain("https://evil.example/x");
  });

  it("never loads an image: it shows as its markdown", () => {
    for (const md of [
      "![x](http://127.0.0.1:9/beacon.gif)",
      "![y][b]\n\n[b]: https://x.example/b.gif",
      "![d](data:,x)",
    ]) {
      const html = render(md, "https");
      expect(html, md).not.toContain("<img");
      expect(html).toContain(md.split("\n")[0]);
    }
  });

  it("renders raw HTML as text", () => {
    expect(render('<img src="http://127.0.0.1:9/b.gif"> <a href="https://evil.example">x</a>', "https")).not.toMatch(
      /<img|<a /,
    );
  });
});

describe("paper text (policy text)", () => {
  it("makes no link at all: each reads as written", () => {
    const html = render(
      "Log in: [login](https://evil.example), <https://evil.example>, https://evil.example/x",
      "text",
    );
    expect(hrefs(html)).toEqual([]);
    expect(html).toBe(
      "<p>Log in: [login](https://evil.example), &lt;https://evil.example&gt;, https://evil.example/x</p>",
    );
  });
});

describe("where the app renders untrusted markdown", () => {
  const hostile =
    "## Answer\n\nSee ![x](http://127.0.0.1:9/beacon.gif) and [login](http://evil.example) " +
    "[1706.03762v5, page 4], and [the code](https://github.com/example/tides).";

  it("an answer: no image, http dropped, https kept with its host, citations still chips", () => {
    const html = renderToStaticMarkup(
      <TooltipProvider>
        <AnswerMarkdown markdown={hostile} citations={[]} references={[]} onOpenCitation={() => {}} streaming={false} />
      </TooltipProvider>,
    );
    expect(html).not.toContain("<img");
    expect(hrefs(html)).toEqual(["https://github.com/example/tides"]);
    expect(html).toContain("(github.com)");
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('data-testid="citation-chip"');
  });

  it("a model's summary: like an answer; an extractive one: no link but its page links", () => {
    const text = `${hostile} Key result (p. 2).`;
    const llm = renderToStaticMarkup(<PaperSummary summary={{ text, method: "llm", model: "m", createdAt: "" }} />);
    expect(llm).not.toContain("<img");
    expect(hrefs(llm)).toEqual(["https://github.com/example/tides", "?page=2"]);
    const extractive = renderToStaticMarkup(
      <PaperSummary summary={{ text, method: "extractive", model: null, createdAt: "" }} />,
    );
    expect(extractive).not.toContain("<img");
    expect(hrefs(extractive)).toEqual(["?page=2"]);
    expect(extractive).toContain("[the code](https://github.com/example/tides)");
  });
});
