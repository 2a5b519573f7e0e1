import robotsParser from "robots-parser";
import { decodeBody, type SafeFetchOptions, safeFetch, WebFetchError } from "./fetch";

/**
 * robots.txt, per origin, cached (RFC 9309): a 2xx file is obeyed for our user-agent token; 4xx (none) allows all;
 * a 5xx or an unreachable file disallows all for the moment (§2.3.1.3–4). Parsing by robots-parser.
 */

type Rules =
  | { isAllowed(url: string, ua?: string): boolean | undefined; ruleChars: number }
  | "allow_all"
  | "disallow_all";

interface Cached {
  /** In flight or settled: concurrent fetches of one origin ask for its robots.txt once. */
  rules: Promise<Rules>;
  until: number;
}

/** How long an origin's robots.txt is trusted. */
const ROBOTS_TTL_MS = 60 * 60 * 1000;
/** How long an unreachable robots.txt keeps the origin closed before it is asked again. */
const ROBOTS_RETRY_MS = 5 * 60 * 1000;
const ROBOTS_MAX_BYTES = 512 * 1024;
/**
 * robots-parser matches each rule against the path in time proportional to both their lengths (after a `*` every
 * position of the path is a candidate), and a robots.txt is written by the site: 500 KB of `Disallow: /*a*a…b` rules
 * against a 2,000-character path held the server's thread 5 s for one page. Past this much work (characters of rules,
 * as robots-parser encodes them, times characters of path; about 0.5 s here) the page is not fetched: 100 KB
 * of rules against a 500-character path is half of it.
 */
export const ROBOTS_MAX_MATCH_WORK = 100_000_000;

/**
 * The characters of every Allow and Disallow pattern, as robots-parser encodes them: an upper bound of its work (a line
 * it reads as a rule is counted here too: it trims any whitespace around the key, as `[^\S\r\n]` does).
 */
function ruleCharsOf(text: string): number {
  let total = 0;
  for (const m of text.matchAll(/^[^\S\r\n]*(?:allow|disallow)[^\S\r\n]*:([^\r\n#]*)/gim)) {
    const value = (m[1] as string).trim();
    try {
      total += encodeURI(value).length;
    } catch {
      total += value.length * 9;
    }
  }
  return total;
}

export class RobotsCache {
  private readonly byOrigin = new Map<string, Cached>();
  constructor(private readonly now: () => number = Date.now) {}

  /** True when `url` may be fetched by `agent` (the product token, e.g. "Lectern"). */
  async allowed(url: URL, agent: string, opts: SafeFetchOptions): Promise<boolean> {
    const rules = await this.rulesFor(url, opts);
    if (rules === "allow_all") return true;
    if (rules === "disallow_all") return false;
    if (rules.ruleChars * (url.pathname.length + url.search.length + 1) > ROBOTS_MAX_MATCH_WORK) {
      throw new WebFetchError(
        "robots",
        `${url.host}'s robots.txt is too large to check against so long an address; the page is not fetched.`,
      );
    }
    return rules.isAllowed(url.toString(), agent) !== false;
  }

  private async rulesFor(url: URL, opts: SafeFetchOptions): Promise<Rules> {
    const origin = url.origin;
    const hit = this.byOrigin.get(origin);
    if (hit && hit.until > this.now()) return hit.rules;
    const entry: Cached = {
      rules: this.load(url, opts, (ttl) => {
        entry.until = this.now() + ttl;
      }),
      until: Number.POSITIVE_INFINITY,
    };
    this.byOrigin.set(origin, entry);
    try {
      return await entry.rules;
    } catch (e) {
      this.byOrigin.delete(origin);
      throw e;
    }
  }

  private async load(url: URL, opts: SafeFetchOptions, expiresIn: (ms: number) => void): Promise<Rules> {
    const origin = url.origin;
    const robotsUrl = `${origin}/robots.txt`;
    let rules: Rules;
    let ttl = ROBOTS_TTL_MS;
    try {
      const r = await safeFetch(robotsUrl, { ...opts, maxBytes: ROBOTS_MAX_BYTES, accept: undefined, maxRedirects: 5 });
      const text = decodeBody(r);
      rules = Object.assign(robotsParser(robotsUrl, text), { ruleChars: ruleCharsOf(text) });
    } catch (e) {
      if (
        e instanceof WebFetchError &&
        e.code === "http_status" &&
        e.status !== undefined &&
        e.status >= 400 &&
        e.status < 500
      ) {
        rules = "allow_all";
      } else if (e instanceof WebFetchError && (e.code === "blocked_address" || e.code === "bad_url")) {
        throw e;
      } else {
        if (opts.signal?.aborted) throw e;
        rules = "disallow_all";
        ttl = ROBOTS_RETRY_MS;
      }
    }
    expiresIn(ttl);
    return rules;
  }
}
