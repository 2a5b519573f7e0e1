import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";

/** A web page reduced to what a reader would read: its title and main text (paragraphs separated by blank lines). */
export interface ExtractedPage {
  title: string;
  text: string;
  byline: string | null;
  siteName: string | null;
}

/** Block elements whose text ends a paragraph. */
const BLOCKS = "p, li, h1, h2, h3, h4, h5, h6, blockquote, pre, td, th, dd, dt, figcaption";

function normalise(s: string): string {
  return s.replace(/[ \t\r\f\v\u00a0]+/g, " ").trim();
}

/** Paragraph text of an HTML fragment: one block per paragraph, in order, nested blocks not repeated. */
function blockText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const blocks = [...document.querySelectorAll(BLOCKS)].filter((el) => !(el as Element).parentElement?.closest(BLOCKS));
  const parts = blocks.map((el) => normalise((el as Element).textContent ?? "")).filter((t) => t.length > 0);
  if (parts.length > 0) return parts.join("\n\n");
  return normalise(document.body?.textContent ?? "");
}

/**
 * The main text of an HTML page by Mozilla's Readability (Firefox's reader view) on linkedom's DOM; when Readability
 * finds no article (a short page), the body's paragraphs. Scripts, styles and navigation are not text.
 */
export function extractHtml(html: string, url: string): ExtractedPage {
  const { document } = parseHTML(html);
  const fallbackTitle = normalise(document.querySelector("title")?.textContent ?? "") || new URL(url).host;
  for (const el of document.querySelectorAll("script, style, noscript, template")) el.remove();
  // Readability changes the document it reads: give it its own copy
  const article = new Readability(parseHTML(document.toString()).document as unknown as Document, {
    charThreshold: 200,
  }).parse();
  const text = article?.content ? blockText(article.content) : "";
  if (text.length > 0) {
    return {
      title: normalise(article?.title ?? "") || fallbackTitle,
      text,
      byline: article?.byline ? normalise(article.byline) : null,
      siteName: article?.siteName ? normalise(article.siteName) : null,
    };
  }
  for (const el of document.querySelectorAll("nav, header, footer, aside, form")) el.remove();
  return { title: fallbackTitle, text: blockText(document.body?.innerHTML ?? ""), byline: null, siteName: null };
}

/** Plain text: paragraphs as the author separated them. */
export function extractPlain(text: string, url: string): ExtractedPage {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map(normalise)
    .filter(Boolean);
  return {
    title: new URL(url).pathname.split("/").pop() || new URL(url).host,
    text: paragraphs.join("\n\n"),
    byline: null,
    siteName: null,
  };
}
