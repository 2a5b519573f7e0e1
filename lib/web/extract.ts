import { Readability } from "@mozilla/readability";
import { Parser } from "htmlparser2";
import { parseHTML } from "linkedom";

/** A web page reduced to what a reader would read: its title and main text (paragraphs separated by blank lines). */
export interface ExtractedPage {
  title: string;
  text: string;
  byline: string | null;
  siteName: string | null;
}

/**
 * What a page from the web may cost to read. The reading runs in the server's own thread, and every stage grows faster
 * than the page with its nesting: htmlparser2 (linkedom's parser) shifts its whole stack of open elements at each tag,
 * and Readability on linkedom took 2 minutes for 2,000 nested `<div>`s (21 KB) and 12 s, then a stack overflow, for
 * 128 KB of unclosed `<b>` — a page found by web search held the server that long. So the page is first scanned once
 * (`scanHtml`, linear up to `SCAN_MAX_DEPTH`), and only a page of ordinary size and shape is given a DOM and
 * Readability; any other page is read from the scan (its block elements' text, navigation left out).
 */
export const READABILITY_MAX_ELEMENTS = 5000;
export const READABILITY_MAX_DEPTH = 48;
/** Past this depth the scan stops (the parser's work per tag grows with the depth): the text read so far is kept. */
export const SCAN_MAX_DEPTH = 512;

/** Block elements whose text ends a paragraph. */
const BLOCKS = new Set([
  "p",
  "li",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "pre",
  "td",
  "th",
  "dd",
  "dt",
  "figcaption",
]);
/** Never text. */
const NOT_TEXT = new Set(["script", "style", "noscript", "template"]);
/** Not the page's main text, when there is no article to find it in. */
const AROUND_TEXT = new Set(["nav", "header", "footer", "aside", "form"]);

function normalise(s: string): string {
  return s.replace(/[ \t\r\f\v\u00a0]+/g, " ").trim();
}

export interface HtmlScan {
  /** Elements opened. */
  elements: number;
  /** The deepest nesting of open elements (as linkedom's tree would have it: same parser, same options). */
  depth: number;
  /** True when the scan stopped at `SCAN_MAX_DEPTH` before the end of the page. */
  truncated: boolean;
  /** The first `<title>`'s text. */
  title: string;
  /**
   * The text of the outermost block elements, one paragraph each, in order, with `NOT_TEXT` (and `skip`) left out;
   * when the page has no block element, its whole text as one paragraph.
   */
  paragraphs: string[];
}

/**
 * One pass over `html` with htmlparser2, as linkedom parses it (HTML mode, entities decoded), keeping a stack of open
 * elements in step with the parser's own: counts, depth, title and block text, with no DOM built. Stops past
 * `maxDepth`.
 */
export function scanHtml(
  html: string,
  { skip = new Set<string>(), maxDepth = SCAN_MAX_DEPTH }: { skip?: ReadonlySet<string>; maxDepth?: number } = {},
): HtmlScan {
  const stack: string[] = [];
  let elements = 0;
  let depth = 0;
  let truncated = false;
  /** Open elements whose text is left out, and open blocks. */
  let hidden = 0;
  let blocks = 0;
  let title: string | null = null;
  let inTitle = false;
  const paragraphs: string[] = [];
  let current = "";
  let loose = "";
  const flush = () => {
    const t = normalise(current);
    if (t) paragraphs.push(t);
    current = "";
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (truncated) return;
        elements++;
        stack.push(name);
        depth = Math.max(depth, stack.length);
        if (NOT_TEXT.has(name) || skip.has(name)) hidden++;
        if (BLOCKS.has(name)) blocks++;
        if (name === "title" && title === null) inTitle = true;
        if (stack.length > maxDepth) {
          truncated = true;
          parser.pause();
        }
      },
      onclosetag() {
        if (truncated) return;
        const name = stack.pop();
        if (name === undefined) return;
        if (NOT_TEXT.has(name) || skip.has(name)) hidden--;
        if (BLOCKS.has(name) && --blocks === 0) flush();
        if (name === "title" && inTitle) {
          inTitle = false;
          title = normalise(title ?? "");
        }
      },
      ontext(text) {
        if (truncated) return;
        if (inTitle) {
          title = (title ?? "") + text;
          return;
        }
        if (hidden > 0) return;
        if (blocks > 0) current += text;
        else if (paragraphs.length === 0) loose += text;
      },
    },
    { decodeEntities: true, xmlMode: false },
  );
  parser.write(html);
  if (!truncated) parser.end();
  flush();
  if (inTitle) title = normalise(title ?? "");
  const looseText = normalise(loose);
  return {
    elements,
    depth,
    truncated,
    title: title ?? "",
    paragraphs: paragraphs.length > 0 ? paragraphs : looseText ? [looseText] : [],
  };
}

/** True when a page scanned as `scan` may be given a DOM and Readability (bounded work, lib/web/extract.ts). */
export function readableByDom(scan: HtmlScan): boolean {
  return !scan.truncated && scan.elements <= READABILITY_MAX_ELEMENTS && scan.depth <= READABILITY_MAX_DEPTH;
}

/**
 * The main text of an HTML page by Mozilla's Readability (Firefox's reader view) on linkedom's DOM when the page is of
 * ordinary size and shape; otherwise, or when Readability finds no article (a short page), the paragraphs of the page
 * without its navigation, header, footer, asides and forms. Scripts and styles are never text.
 */
export function extractHtml(html: string, url: string): ExtractedPage {
  const scan = scanHtml(html, { skip: AROUND_TEXT });
  const fallbackTitle = scan.title || new URL(url).host;
  if (readableByDom(scan)) {
    const { document } = parseHTML(html);
    for (const el of document.querySelectorAll("script, style, noscript, template")) el.remove();
    // Readability changes the document it reads: give it its own copy
    const article = new Readability(parseHTML(document.toString()).document as unknown as Document, {
      charThreshold: 200,
    }).parse();
    // Readability's article is no larger than the page it came from: its scan stays within the same bounds
    const text = article?.content ? scanHtml(article.content).paragraphs.join("\n\n") : "";
    if (text.length > 0) {
      return {
        title: normalise(article?.title ?? "") || fallbackTitle,
        text,
        byline: article?.byline ? normalise(article.byline) : null,
        siteName: article?.siteName ? normalise(article.siteName) : null,
      };
    }
  }
  return { title: fallbackTitle, text: scan.paragraphs.join("\n\n"), byline: null, siteName: null };
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
