import type { WebSearchConfig } from "./config";
import { type ExtractedPage, extractHtml, extractPlain } from "./extract";
import { decodeBody, parseWebUrl, safeFetch, WebFetchError } from "./fetch";
import type { RobotsCache } from "./robots";

/** Pages read as text; a PDF is not read here (a paper found on the web is added to the library instead). */
export const PAGE_TYPES = ["text/html", "application/xhtml+xml", "text/plain"] as const;

export interface WebPage extends ExtractedPage {
  /** The URL asked for. */
  url: string;
  /** Where the text came from, after redirects. */
  finalUrl: string;
}

/**
 * Fetches one result page as a reader would read it: robots.txt first (refused: `robots`), then the page under the
 * safe-fetch rules (lib/web/fetch.ts), reduced to its main text. Throws `WebFetchError`.
 */
export async function fetchWebPage(
  url: string,
  config: Pick<WebSearchConfig, "fetch" | "robotsAgent">,
  robots: RobotsCache,
  signal?: AbortSignal,
): Promise<WebPage> {
  const parsed = parseWebUrl(url);
  const opts = { ...config.fetch, signal };
  if (!(await robots.allowed(parsed, config.robotsAgent, opts))) {
    throw new WebFetchError("robots", `${parsed.host}'s robots.txt does not allow fetching ${parsed.pathname}.`);
  }
  const r = await safeFetch(url, { ...opts, accept: PAGE_TYPES });
  // a redirect to another origin is checked against that origin's robots.txt too
  const final = new URL(r.url);
  if (final.origin !== parsed.origin && !(await robots.allowed(final, config.robotsAgent, opts))) {
    throw new WebFetchError("robots", `${final.host}'s robots.txt does not allow fetching ${final.pathname}.`);
  }
  const text = decodeBody(r);
  const page = r.mediaType === "text/plain" ? extractPlain(text, r.url) : extractHtml(text, r.url);
  return { ...page, url, finalUrl: r.url };
}
