import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import type { Env } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { type ArxivRef, formatArxivRef, splitVersion } from "./arxiv-ids";
import { createIntervalGate, type IntervalGate, type SourceClock, systemClock } from "./polite";

/**
 * The arXiv API (Atom feed) and PDF downloads, politely: at most one API request per 3 s and one PDF download per
 * second in this process (arXiv's terms of use: https://info.arxiv.org/help/api/tou.html), retries with backoff on
 * 429 and 5xx (honouring Retry-After), a User-Agent naming the app, and API responses cached in the data directory.
 * Base URLs come from configuration (LECTERN_ARXIV_API_URL, LECTERN_ARXIV_PDF_URL): the tests point them at a local
 * stand-in (lib/testing/arxiv-standin.ts).
 */

export interface ArxivEntry {
  /** Without version: `2106.09685`. */
  id: string;
  version: number;
  /** `2106.09685v2`: the paper's id in the library once added. */
  versionedId: string;
  title: string;
  authors: string[];
  abstract: string;
  categories: string[];
  primaryCategory: string | null;
  /** First version's date, `YYYY-MM-DD`. */
  published: string | null;
  /** This version's date. */
  updated: string | null;
  doi: string | null;
  journalRef: string | null;
  comment: string | null;
  absUrl: string;
}

export interface ArxivSearchQuery {
  /** Words searched in every field (`all:`). */
  query?: string;
  author?: string;
  /** `cs.CL`. */
  category?: string;
  start?: number;
  maxResults?: number;
}

export interface ArxivSearchResult {
  total: number;
  entries: ArxivEntry[];
}

export interface ArxivClient {
  /** The entries of these ids (latest version unless one is named), in order; ids arXiv does not know are absent. */
  getEntries(refs: ArxivRef[], signal?: AbortSignal): Promise<Map<string, ArxivEntry>>;
  search(q: ArxivSearchQuery, signal?: AbortSignal): Promise<ArxivSearchResult>;
  /** The PDF of one version, at most `maxBytes`. */
  downloadPdf(versionedId: string, opts: { maxBytes: number; signal?: AbortSignal }): Promise<Uint8Array>;
}

export interface ArxivClientOptions {
  apiUrl: string;
  pdfUrl: string;
  userAgent: string;
  /** Where API responses are cached (one file per request); null: no cache. */
  cacheDir: string | null;
  cacheTtlMs?: number;
  clock?: SourceClock;
  fetch?: typeof fetch;
  /** Retries after a 429 or 5xx answer (or a dropped connection mid-request). */
  maxRetries?: number;
  apiIntervalMs?: number;
  pdfIntervalMs?: number;
  /** Gates shared by every client of this process (getArxivClient); a test makes its own. */
  gates?: { api: IntervalGate; pdf: IntervalGate };
}

const DEFAULT_TTL_MS = 60 * 60 * 1000;
const MAX_RETRY_AFTER_MS = 60_000;
/** Ids asked in one API request (arXiv's id_list). */
const IDS_PER_REQUEST = 50;
const MAX_RESULTS = 50;
const REQUEST_TIMEOUT_MS = 30_000;

export function createArxivClient(opts: ArxivClientOptions): ArxivClient {
  const clock = opts.clock ?? systemClock;
  const doFetch = opts.fetch ?? fetch;
  const ttl = opts.cacheTtlMs ?? DEFAULT_TTL_MS;
  const maxRetries = opts.maxRetries ?? 3;
  const gates = opts.gates ?? {
    api: createIntervalGate(opts.apiIntervalMs ?? 3000, clock),
    pdf: createIntervalGate(opts.pdfIntervalMs ?? 1000, clock),
  };
  const apiBase = opts.apiUrl.replace(/\/+$/, "");
  const pdfBase = opts.pdfUrl.replace(/\/+$/, "");

  /** One GET through a gate, retried on 429/5xx with exponential backoff (3 s, 6 s, 12 s) or the server's Retry-After. */
  async function politeGet(url: string, gate: IntervalGate, what: string, signal?: AbortSignal): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      await gate.wait(signal);
      let res: Response;
      try {
        res = await doFetch(url, {
          headers: {
            "User-Agent": opts.userAgent,
            Accept: what === "api" ? "application/atom+xml" : "application/pdf",
          },
          signal: signal
            ? AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
            : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          redirect: "follow",
        });
      } catch (e) {
        if (signal?.aborted) throw e;
        throw unreachable(url, e);
      }
      if (res.ok) return res;
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= maxRetries) {
        await res.body?.cancel().catch(() => {});
        throw statusError(res.status, what);
      }
      const after = retryAfterMs(res.headers.get("retry-after"), clock.now());
      await res.body?.cancel().catch(() => {});
      await clock.sleep(Math.min(MAX_RETRY_AFTER_MS, after ?? 3000 * 2 ** attempt), signal);
    }
  }

  async function cachedApiGet(url: string, signal?: AbortSignal): Promise<string> {
    const file = opts.cacheDir
      ? path.join(opts.cacheDir, `${createHash("sha256").update(url).digest("hex")}.xml`)
      : null;
    if (file) {
      const st = await fs.stat(file).catch(() => null);
      if (st && clock.now() - st.mtimeMs < ttl) return fs.readFile(file, "utf8");
    }
    const res = await politeGet(url, gates.api, "api", signal);
    const text = await res.text();
    // cached only once it parses: a broken answer is asked again next time
    parseAtom(text);
    if (file) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, text);
      await fs.rename(tmp, file);
      await fs.utimes(file, clock.now() / 1000, clock.now() / 1000).catch(() => {});
    }
    return text;
  }

  return {
    async getEntries(refs, signal) {
      const out = new Map<string, ArxivEntry>();
      for (let i = 0; i < refs.length; i += IDS_PER_REQUEST) {
        const batch = refs.slice(i, i + IDS_PER_REQUEST);
        const params = new URLSearchParams({
          id_list: batch.map(formatArxivRef).join(","),
          max_results: String(batch.length),
        });
        const feed = parseAtom(await cachedApiGet(`${apiBase}?${params}`, signal));
        // matched back to what was asked: a versioned ask by its version, a bare one by the latest version sent
        for (const ref of batch) {
          const candidates = feed.entries.filter((e) => e.id === ref.id && (!ref.version || e.version === ref.version));
          const best = candidates.reduce<ArxivEntry | undefined>(
            (a, b) => (!a || b.version > a.version ? b : a),
            undefined,
          );
          if (best) out.set(formatArxivRef(ref), best);
        }
      }
      return out;
    },

    async search(q, signal) {
      const parts: string[] = [];
      const words = (s: string) => s.replace(/["()]/g, " ").trim().split(/\s+/).filter(Boolean);
      if (q.query?.trim())
        parts.push(
          words(q.query)
            .map((w) => `all:${w}`)
            .join(" AND "),
        );
      if (q.author?.trim()) parts.push(`au:"${words(q.author).join(" ")}"`);
      if (q.category?.trim()) {
        const cat = q.category.trim();
        if (!/^[a-z-]+(\.[A-Za-z-]+)?$/.test(cat)) {
          throw new LecternError("bad_request:source", `“${cat}” is not an arXiv category (for example cs.CL).`);
        }
        parts.push(`cat:${cat}`);
      }
      if (parts.length === 0)
        throw new LecternError("bad_request:source", "Give words, an author or a category to search arXiv.");
      const params = new URLSearchParams({
        search_query: parts.join(" AND "),
        start: String(Math.max(0, Math.floor(q.start ?? 0))),
        max_results: String(Math.min(MAX_RESULTS, Math.max(1, Math.floor(q.maxResults ?? 20)))),
        sortBy: "relevance",
        sortOrder: "descending",
      });
      const feed = parseAtom(await cachedApiGet(`${apiBase}?${params}`, signal));
      return { total: feed.total, entries: feed.entries };
    },

    async downloadPdf(versionedId, { maxBytes, signal }) {
      const res = await politeGet(`${pdfBase}/${versionedId}`, gates.pdf, "pdf", signal);
      const declared = Number(res.headers.get("content-length") ?? "NaN");
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body?.cancel().catch(() => {});
        throw tooLarge(versionedId, maxBytes);
      }
      if (!res.body) throw new LecternError("unavailable:source", `arXiv sent no PDF for ${versionedId}.`);
      const parts: Uint8Array[] = [];
      let size = 0;
      const reader = res.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            await reader.cancel().catch(() => {});
            throw tooLarge(versionedId, maxBytes);
          }
          parts.push(value);
        }
      } catch (e) {
        if (e instanceof LecternError || signal?.aborted) throw e;
        throw new LecternError(
          "unavailable:source",
          `The download of ${versionedId} from arXiv was cut off. Try again.`,
          {
            cause: e,
          },
        );
      }
      const bytes = new Uint8Array(size);
      let offset = 0;
      for (const p of parts) {
        bytes.set(p, offset);
        offset += p.byteLength;
      }
      return bytes;
    },
  };
}

function tooLarge(id: string, maxBytes: number): LecternError {
  return new LecternError(
    "bad_request:pdf",
    `The PDF of ${id} is larger than the ${Math.round(maxBytes / (1024 * 1024))} MB limit (LECTERN_MAX_UPLOAD_MB).`,
  );
}

function unreachable(url: string, e: unknown): LecternError {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  const timedOut = (e as { name?: string })?.name === "TimeoutError";
  return new LecternError(
    timedOut ? "timeout:source" : "unavailable:source",
    timedOut
      ? `arXiv (${host}) did not answer in time. Nothing was added; try again later.`
      : `arXiv (${host}) cannot be reached — is this machine offline? Nothing was added.`,
    { cause: e },
  );
}

function statusError(status: number, what: string): LecternError {
  if (status === 429 || status === 503) {
    return new LecternError(
      "unavailable:source",
      `arXiv is asking us to slow down (HTTP ${status}) and kept doing so after retries. Nothing was added; try again in a few minutes.`,
    );
  }
  if (status === 404 && what === "pdf")
    return new LecternError("not_found:source", "arXiv has no PDF for that version.");
  return new LecternError("unavailable:source", `arXiv answered HTTP ${status}. Nothing was added; try again later.`);
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3) → milliseconds from now; undefined when absent or bad. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const s = header.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

// ---- The Atom feed ---------------------------------------------------------------------------------------------

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ["entry", "author", "category", "link"].includes(name),
});

type XmlNode = Record<string, unknown>;

function text(v: unknown): string {
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && "#text" in v) return String((v as XmlNode)["#text"] ?? "");
  return "";
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
const dateOf = (s: string) => (/^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : null);

/** The feed's entries; arXiv's own error entries (a malformed id) become a bad_request naming the problem. */
export function parseAtom(xml: string): ArxivSearchResult {
  let doc: XmlNode;
  try {
    doc = parser.parse(xml) as XmlNode;
  } catch (e) {
    throw new LecternError("unavailable:source", "arXiv's answer could not be read (not an Atom feed).", { cause: e });
  }
  const feed = doc.feed as XmlNode | undefined;
  if (!feed || typeof feed !== "object") {
    throw new LecternError("unavailable:source", "arXiv's answer could not be read (not an Atom feed).");
  }
  const total = Number(text(feed.totalResults)) || 0;
  const entries: ArxivEntry[] = [];
  for (const raw of (feed.entry as XmlNode[] | undefined) ?? []) {
    const idUrl = oneLine(text(raw.id));
    if (/\/api\/errors/.test(idUrl)) {
      throw new LecternError(
        "bad_request:source",
        `arXiv refused the request: ${oneLine(text(raw.summary)) || "error"}.`,
      );
    }
    const m = /arxiv\.org\/abs\/(.+)$/.exec(idUrl);
    if (!m) continue;
    const { id, version } = splitVersion(m[1] as string);
    const title = oneLine(text(raw.title));
    if (!title || !version) continue; // an empty entry: arXiv's way of saying the id does not exist
    const categories = ((raw.category as XmlNode[] | undefined) ?? [])
      .map((c) => String(c["@_term"] ?? ""))
      .filter(Boolean);
    const primary = raw.primary_category as XmlNode | undefined;
    entries.push({
      id,
      version,
      versionedId: `${id}v${version}`,
      title,
      authors: ((raw.author as XmlNode[] | undefined) ?? []).map((a) => oneLine(text(a.name))).filter(Boolean),
      abstract: oneLine(text(raw.summary)),
      categories: [...new Set(categories)],
      primaryCategory: primary ? String(primary["@_term"] ?? "") || null : null,
      published: dateOf(text(raw.published)),
      updated: dateOf(text(raw.updated)),
      doi: oneLine(text(raw.doi)) || null,
      journalRef: oneLine(text(raw.journal_ref)) || null,
      comment: oneLine(text(raw.comment)) || null,
      absUrl: idUrl,
    });
  }
  return { total, entries };
}

// ---- The process's client ---------------------------------------------------------------------------------------

/** `Lectern/0.1 (+mailto:…)`: names the app, and a contact when LECTERN_ARXIV_CONTACT is set. */
export function arxivUserAgent(contact?: string): string {
  return `Lectern/0.1 (research paper library; ${contact ? `mailto:${contact}` : "no contact configured"})`;
}

/**
 * One pair of gates per process, kept on globalThis: Next.js may load this module once per route bundle, and the
 * limits are the process's, not a bundle's.
 */
function processGates(): { api: IntervalGate; pdf: IntervalGate } {
  const key = Symbol.for("lectern.arxiv.gates");
  const g = globalThis as unknown as Record<symbol, { api: IntervalGate; pdf: IntervalGate } | undefined>;
  g[key] ??= { api: createIntervalGate(3000, systemClock), pdf: createIntervalGate(1000, systemClock) };
  return g[key];
}

/** The arXiv client of this process, configured by LECTERN_ARXIV_* (cache: `<data dir>/cache/arxiv`). */
export function getArxivClient(
  env: Pick<Env, "LECTERN_ARXIV_API_URL" | "LECTERN_ARXIV_PDF_URL" | "LECTERN_ARXIV_CONTACT" | "dataDir">,
): ArxivClient {
  return createArxivClient({
    apiUrl: env.LECTERN_ARXIV_API_URL,
    pdfUrl: env.LECTERN_ARXIV_PDF_URL,
    userAgent: arxivUserAgent(env.LECTERN_ARXIV_CONTACT),
    cacheDir: path.join(env.dataDir, "cache", "arxiv"),
    gates: processGates(),
  });
}
