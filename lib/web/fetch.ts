import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPublicAddress } from "./address";

/**
 * Fetching a web page on a user's behalf, safely (the server makes the request, so the request must not reach what
 * only the server can reach — SSRF):
 *
 * - http and https only, no credentials in the URL, default ports or any port (the address is what matters);
 * - the host is resolved first and every address it resolves to must be public (lib/web/address.ts); the connection
 *   then goes to the address that was checked (the socket's `lookup` is pinned to it), so a second DNS answer cannot
 *   point it elsewhere (DNS rebinding). IP literals in any spelling (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) are
 *   normalised by the URL parser and checked the same way;
 * - redirects are followed by hand, at most `maxRedirects`, each new address checked again;
 * - a time limit for the whole exchange, a size limit enforced while reading (not trusting Content-Length), and the
 *   caller's content types only.
 *
 * `allowHosts` lets tests reach their local stand-ins (`LECTERN_WEB_ALLOW_HOSTS=127.0.0.1`); nothing else may.
 */

export type WebFetchErrorCode =
  | "bad_url"
  | "blocked_address"
  | "dns"
  | "robots"
  | "too_many_redirects"
  | "too_large"
  | "content_type"
  | "http_status"
  | "timeout"
  | "network";

export class WebFetchError extends Error {
  constructor(
    readonly code: WebFetchErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options);
    this.name = "WebFetchError";
    if (options?.status !== undefined) this.status = options.status;
  }
  /** The HTTP status, for `http_status`. */
  readonly status?: number;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeFetchOptions {
  userAgent: string;
  /** The whole exchange, redirects included. */
  timeoutMs: number;
  /** Bytes of body read at most; more is refused. */
  maxBytes: number;
  maxRedirects?: number;
  /** Hosts (as written in the URL, or their resolved addresses) exempt from the address check: tests only. */
  allowHosts?: readonly string[];
  /** Acceptable media types (`text/html`, …); any when absent. Checked before the body is read. */
  accept?: readonly string[];
  signal?: AbortSignal;
  /** DNS resolution (all addresses); tests inject their own to play a rebinding resolver. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface FetchedResponse {
  /** The URL the body came from (after redirects). */
  url: string;
  status: number;
  /** The media type without parameters, lower case (`text/html`); empty when the server sent none. */
  mediaType: string;
  charset: string | null;
  body: Buffer;
  /** The URLs redirected through, in order. */
  redirects: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function defaultResolve(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** Parses and checks a URL's form (scheme, credentials); throws `bad_url`. */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebFetchError("bad_url", `Not a valid URL: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebFetchError("bad_url", `Only http and https pages are fetched, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new WebFetchError("bad_url", "URLs with credentials are not fetched.");
  if (!url.hostname) throw new WebFetchError("bad_url", "The URL has no host.");
  return url;
}

/** The host of a URL as an address when it is an IP literal (brackets of IPv6 removed), else null. */
function literalAddress(url: URL): string | null {
  const h = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(h) ? h : null;
}

/**
 * The address to connect to for `url`: every address the host resolves to must be public (or the host allow-listed);
 * the first is used. Throws `blocked_address` or `dns`.
 */
export async function checkedAddress(
  url: URL,
  { allowHosts = [], resolve = defaultResolve }: Pick<SafeFetchOptions, "allowHosts" | "resolve">,
): Promise<ResolvedAddress> {
  const allowed = (host: string) => allowHosts.some((a) => a.toLowerCase() === host.toLowerCase());
  const literal = literalAddress(url);
  if (literal) {
    if (!allowed(literal) && !isPublicAddress(literal)) {
      throw new WebFetchError("blocked_address", `${url.host} is not a public address; it is not fetched.`);
    }
    return { address: literal, family: isIP(literal) === 6 ? 6 : 4 };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(url.hostname);
  } catch (e) {
    throw new WebFetchError("dns", `${url.hostname} could not be resolved.`, { cause: e });
  }
  if (addresses.length === 0) throw new WebFetchError("dns", `${url.hostname} could not be resolved.`);
  if (!allowed(url.hostname)) {
    const bad = addresses.find((a) => !allowed(a.address) && !isPublicAddress(a.address));
    if (bad) {
      throw new WebFetchError(
        "blocked_address",
        `${url.hostname} resolves to ${bad.address}, which is not a public address; it is not fetched.`,
      );
    }
  }
  return addresses[0] as ResolvedAddress;
}

/** A socket lookup that answers with the one address already checked, whatever name it is asked for. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

function parseContentType(header: string | undefined): { mediaType: string; charset: string | null } {
  if (!header) return { mediaType: "", charset: null };
  const [type, ...params] = header.split(";");
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1] ?? null)
    .find((c): c is string => c !== null);
  return { mediaType: (type as string).trim().toLowerCase(), charset: charset ?? null };
}

interface OneResponse {
  status: number;
  location: string | null;
  mediaType: string;
  charset: string | null;
  body: Buffer;
}

/** One request to the pinned address; the body is read only for a final (non-redirect) answer. */
function requestOnce(
  url: URL,
  pinned: ResolvedAddress,
  opts: SafeFetchOptions,
  signal: AbortSignal,
): Promise<OneResponse> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === "https:" ? https : http;
    const req = mod.request(
      url,
      {
        method: "GET",
        lookup: pinnedLookup(pinned),
        // no connection reuse: a pooled socket could have been opened for another address
        agent: false,
        signal,
        headers: {
          "user-agent": opts.userAgent,
          accept: opts.accept?.length ? `${opts.accept.join(", ")};q=1, */*;q=0.1` : "*/*",
          "accept-encoding": "identity",
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const { mediaType, charset } = parseContentType(res.headers["content-type"]);
        const location = typeof res.headers.location === "string" ? res.headers.location : null;
        const fail = (e: WebFetchError) => {
          res.destroy();
          reject(e);
        };
        if (REDIRECTS.has(status) && location) {
          res.resume();
          resolve({ status, location, mediaType, charset, body: Buffer.alloc(0) });
          return;
        }
        if (status < 200 || status >= 300) {
          fail(new WebFetchError("http_status", `${url.host} answered ${status}.`, { status }));
          return;
        }
        if (opts.accept?.length && !opts.accept.includes(mediaType)) {
          fail(
            new WebFetchError(
              "content_type",
              `${url.host} sent ${mediaType || "no content type"}, not ${opts.accept.join(" or ")}.`,
            ),
          );
          return;
        }
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          fail(new WebFetchError("too_large", `The page is larger than ${Math.round(opts.maxBytes / 1024)} KB.`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            fail(new WebFetchError("too_large", `The page is larger than ${Math.round(opts.maxBytes / 1024)} KB.`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ status, location, mediaType, charset, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Fetches `raw` under the rules above. Throws `WebFetchError` for every refusal and failure. */
export async function safeFetch(raw: string, opts: SafeFetchOptions): Promise<FetchedResponse> {
  const maxRedirects = opts.maxRedirects ?? 3;
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  let url = parseWebUrl(raw);
  const redirects: string[] = [];
  for (let hop = 0; ; hop++) {
    const pinned = await checkedAddress(url, opts);
    let res: OneResponse;
    try {
      res = await requestOnce(url, pinned, opts, signal);
    } catch (e) {
      if (e instanceof WebFetchError) throw e;
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (deadline.aborted) {
        throw new WebFetchError("timeout", `${url.host} did not answer within ${opts.timeoutMs} ms.`, { cause: e });
      }
      throw new WebFetchError("network", `${url.host} could not be reached.`, { cause: e });
    }
    if (res.location === null || !REDIRECTS.has(res.status)) {
      return {
        url: url.toString(),
        status: res.status,
        mediaType: res.mediaType,
        charset: res.charset,
        body: res.body,
        redirects,
      };
    }
    if (hop >= maxRedirects) {
      throw new WebFetchError("too_many_redirects", `More than ${maxRedirects} redirects from ${raw.slice(0, 200)}.`);
    }
    let next: URL;
    try {
      next = new URL(res.location, url);
    } catch {
      throw new WebFetchError("bad_url", `${url.host} redirected to an invalid URL.`);
    }
    redirects.push(next.toString());
    url = parseWebUrl(next.toString());
  }
}

/** The body as text, in the charset the server named (UTF-8 when it named none or one we cannot decode). */
export function decodeBody(r: Pick<FetchedResponse, "body" | "charset">): string {
  try {
    return new TextDecoder(r.charset ?? "utf-8").decode(r.body);
  } catch {
    return new TextDecoder("utf-8").decode(r.body);
  }
}
