import Link from "next/link";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { ExternalLink, remarkUntrustedLinks, untrustedLinkComponents } from "@/components/markdown/untrusted-links";
import { Badge } from "@/components/ui/badge";
import type { PaperDetailView } from "./types";

/** A link destination for markdown: parentheses and spaces escaped so the link syntax stays intact. */
function viewerHref(page: string, passage?: string): string {
  const params = new URLSearchParams({ page });
  if (passage) params.set("hl", passage);
  return `?${params.toString().replace(/\(/g, "%28").replace(/\)/g, "%29")}`;
}

/**
 * Summaries cite pages as "(p. 3)", "(pp. 3-4)" or "[p. 5]": each becomes a link that opens the viewer at that page
 * (the first of a range). A key point — a list item ending in its citation — links with its sentence, which the viewer
 * then highlights.
 */
export function linkPageCitations(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) => {
      const point = /^(\s*[-*+]\s+)(.+?)\s*\((p\.)\s*(\d+)\)\s*$/.exec(line);
      if (point) {
        const [, bullet, sentence = "", label, page = "1"] = point;
        const plain = sentence.replace(/[*_`]/g, "");
        return `${bullet}${sentence} ([${label} ${page}](${viewerHref(page, plain)}))`;
      }
      return line.replace(
        /([([])(pp?\.)\s*(\d+)((?:\s*[-–]\s*\d+)?)([)\]])/g,
        (_m, open: string, label: string, first: string, rest: string, close: string) =>
          `${open}[${label} ${first}${rest.replace(/\s+/g, "")}](${viewerHref(first)})${close}`,
      );
    })
    .join("\n");
}

/** The page links the summary's citations became (linkPageCitations). */
const isPageLink = (url: string) => url.startsWith("?page=");

/**
 * The stored summary, as markdown, saying how it was made. Its text is the paper's (an extractive summary: no link of
 * its own, as written) or a model's reading of it (https links kept, with their host); raw HTML is not rendered and
 * images are never loaded (untrusted-links.tsx). The page links the summary's citations became are the app's own.
 */
export function PaperSummary({ summary }: { summary: PaperDetailView["summary"] }) {
  if (!summary) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="paper-summary-missing">
        No summary has been made for this paper.
      </p>
    );
  }
  return (
    <div className="space-y-3" data-testid="paper-summary">
      <Badge variant="secondary" data-testid="summary-method">
        {summary.method === "llm"
          ? `Summarized by ${summary.model ?? "a language model"}`
          : "Extractive summary (offline)"}
      </Badge>
      <div className="prose-summary text-sm">
        <ReactMarkdown
          remarkPlugins={[
            remarkGfm,
            [remarkUntrustedLinks, { policy: summary.method === "llm" ? "https" : "text", internal: isPageLink }],
          ]}
          components={{
            ...untrustedLinkComponents,
            // a page link opens the viewer at that page, in place
            a: ({ href, children }) =>
              href && isPageLink(href) ? (
                <Link href={href} scroll={false} data-testid="summary-page-link">
                  {children}
                </Link>
              ) : (
                <ExternalLink href={href}>{children}</ExternalLink>
              ),
          }}
        >
          {linkPageCitations(summary.text)}
        </ReactMarkdown>
      </div>
    </div>
  );
}
