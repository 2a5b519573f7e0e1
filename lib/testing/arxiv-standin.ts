import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the arXiv API and its PDFs, for tests and e2e (the machines have no internet). It answers
 * `GET /api/query` (id_list, or search_query with all:/au:/cat: terms joined by AND) with Atom feeds shaped like
 * arXiv's (namespaces, opensearch totals, arxiv:primary_category, arxiv:doi, arxiv:journal_ref, an error entry for a
 * malformed id) and `GET /pdf/<id>v<n>` with the PDF the test gave. Tests can make it fail the next requests (429,
 * 503) and read what was asked, with each request's User-Agent.
 */

export interface StandinVersion {
  version: number;
  /** `YYYY-MM-DD`. */
  date: string;
  /** null: the API lists the version but its PDF answers 404 (a withdrawn or missing file). */
  pdf: Uint8Array | null;
}

export interface StandinPaper {
  /** Without version: `2106.09685`. */
  id: string;
  title: string;
  authors: string[];
  abstract: string;
  /** The first is the primary category. */
  categories: string[];
  doi?: string;
  journalRef?: string;
  versions: StandinVersion[];
}

export interface StandinRequest {
  path: string;
  query: Record<string, string>;
  userAgent: string | null;
}

export interface ArxivStandin {
  /** `http://127.0.0.1:<port>/api/query` (LECTERN_ARXIV_API_URL). */
  apiUrl: string;
  /** `http://127.0.0.1:<port>/pdf` (LECTERN_ARXIV_PDF_URL). */
  pdfUrl: string;
  papers: Map<string, StandinPaper>;
  requests: StandinRequest[];
  /** The next `count` requests (API or PDF) are answered with `status` (and Retry-After: `retryAfter`, when given). */
  failNext(status: number, count?: number, retryAfter?: string): void;
  close(): Promise<void>;
}

const esc = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string);

function entryXml(base: string, p: StandinPaper, v: StandinVersion): string {
  const first = p.versions[0] ?? v;
  const vid = `${p.id}v${v.version}`;
  const [primary] = p.categories;
  return `  <entry>
    <id>http://arxiv.org/abs/${vid}</id>
    <updated>${v.date}T17:59:59Z</updated>
    <published>${first.date}T17:59:59Z</published>
    <title>${esc(p.title)}</title>
    <summary>  ${esc(p.abstract)}
</summary>
${p.authors.map((a) => `    <author>\n      <name>${esc(a)}</name>\n    </author>`).join("\n")}
${p.doi ? `    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">${esc(p.doi)}</arxiv:doi>\n` : ""}${
  p.journalRef
    ? `    <arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">${esc(p.journalRef)}</arxiv:journal_ref>\n`
    : ""
}    <link href="http://arxiv.org/abs/${vid}" rel="alternate" type="text/html"/>
    <link title="pdf" href="${esc(base)}/pdf/${vid}" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="${esc(primary ?? "cs.CL")}" scheme="http://arxiv.org/schemas/atom"/>
${p.categories.map((c) => `    <category term="${esc(c)}" scheme="http://arxiv.org/schemas/atom"/>`).join("\n")}
  </entry>`;
}

function feedXml(entries: string[], total: number, query: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?${esc(query)}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: ${esc(query)}</title>
  <id>http://arxiv.org/api/standin</id>
  <updated>2026-01-01T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${entries.length}</opensearch:itemsPerPage>
${entries.join("\n")}
</feed>
`;
}

function errorFeed(message: string): string {
  return feedXml(
    [
      `  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format</id>
    <title>Error</title>
    <summary>${esc(message)}</summary>
    <updated>2026-01-01T00:00:00-05:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format" rel="alternate" type="text/html"/>
    <author>
      <name>arXiv api core</name>
    </author>
  </entry>`,
    ],
    1,
    "error",
  );
}

const latest = (p: StandinPaper) => p.versions[p.versions.length - 1] as StandinVersion;

/** Does `p` match one `all:`/`au:`/`cat:`/`ti:` term? Words match case-insensitively, as substrings. */
function matches(p: StandinPaper, term: string): boolean {
  const m = /^(all|au|cat|ti|abs):"?(.*?)"?$/.exec(term.trim());
  if (!m) return false;
  const value = (m[2] as string).toLowerCase();
  const words = value.split(/\s+/).filter(Boolean);
  const hay = {
    all: `${p.title} ${p.abstract} ${p.authors.join(" ")} ${p.categories.join(" ")}`,
    au: p.authors.join(" | "),
    cat: p.categories.join(" "),
    ti: p.title,
    abs: p.abstract,
  }[m[1] as "all"].toLowerCase();
  if (m[1] === "cat") return p.categories.some((c) => c.toLowerCase() === value);
  return words.every((w) => hay.includes(w));
}

export async function startArxivStandin(
  papers: StandinPaper[] = [],
  opts: { port?: number; host?: string } = {},
): Promise<ArxivStandin> {
  const registry = new Map(papers.map((p) => [p.id, p]));
  const requests: StandinRequest[] = [];
  let failures: { status: number; retryAfter?: string }[] = [];
  let base = "";

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://standin");
    requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      userAgent: req.headers["user-agent"] ?? null,
    });
    const failure = failures.shift();
    if (failure) {
      res.writeHead(failure.status, failure.retryAfter ? { "Retry-After": failure.retryAfter } : {});
      res.end("Rate exceeded.");
      return;
    }
    const atom = (body: string) => {
      res.writeHead(200, { "Content-Type": "application/atom+xml; charset=utf-8" });
      res.end(body);
    };
    if (url.pathname === "/api/query") {
      const idList = url.searchParams.get("id_list");
      const search = url.searchParams.get("search_query");
      if (idList) {
        const entries: string[] = [];
        for (const raw of idList.split(",")) {
          const m = /^(.+?)(?:v(\d+))?$/.exec(raw.trim());
          const id = m?.[1] ?? raw;
          if (!/^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})$/.test(id)) {
            atom(errorFeed(`incorrect id format for ${raw}`));
            return;
          }
          const p = registry.get(id);
          if (!p) continue; // arXiv leaves an unknown id out of the feed
          const v = m?.[2] ? p.versions.find((x) => x.version === Number(m[2])) : latest(p);
          if (v) entries.push(entryXml(base, p, v));
        }
        atom(feedXml(entries, entries.length, url.search.slice(1)));
        return;
      }
      if (search) {
        const terms = search.split(/\s+AND\s+/);
        const found = [...registry.values()].filter((p) => terms.every((t) => matches(p, t)));
        const start = Number(url.searchParams.get("start") ?? 0);
        const max = Number(url.searchParams.get("max_results") ?? 10);
        atom(
          feedXml(
            found.slice(start, start + max).map((p) => entryXml(base, p, latest(p))),
            found.length,
            url.search.slice(1),
          ),
        );
        return;
      }
      atom(feedXml([], 0, url.search.slice(1)));
      return;
    }
    const pdf = /^\/pdf\/(.+?)v(\d+)(?:\.pdf)?$/.exec(url.pathname);
    if (pdf) {
      const p = registry.get(decodeURIComponent(pdf[1] as string));
      const v = p?.versions.find((x) => x.version === Number(pdf[2]));
      if (!v?.pdf) {
        res.writeHead(404, { "Content-Type": "text/plain" });
        res.end("not found");
        return;
      }
      res.writeHead(200, { "Content-Type": "application/pdf", "Content-Length": String(v.pdf.byteLength) });
      res.end(Buffer.from(v.pdf));
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("not found");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  base = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  return {
    apiUrl: `${base}/api/query`,
    pdfUrl: `${base}/pdf`,
    papers: registry,
    requests,
    failNext(status, count = 1, retryAfter) {
      failures = [...failures, ...Array.from({ length: count }, () => ({ status, retryAfter }))];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
