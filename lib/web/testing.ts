import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the web, for tests and e2e (the machines running them have no internet): a SearXNG JSON API
 * (`/search?q=…&format=json`) whose results are this server's own pages, a few pages (articles with navigation and
 * footers around their text), a robots.txt that disallows `/private/`, a redirect, a page too large, a PDF, and an
 * endpoint that answers slowly. Every request is recorded (`requests`), so tests can tell what was fetched.
 */

export interface StandInPage {
  path: string;
  title: string;
  paragraphs: string[];
  /** Words of a query that make this page a search result. */
  keywords: string[];
}

export const STAND_IN_PAGES: StandInPage[] = [
  {
    path: "/articles/glacier-sediment",
    title: "Glacier-fed rivers carry more sediment as ice retreats",
    keywords: ["glacier", "sediment", "glacier-fed", "meltwater"],
    paragraphs: [
      "A survey of forty glacier-fed rivers found that sediment loads doubled between 2001 and 2024 as the glaciers retreated.",
      "The survey measured suspended sediment at gauging stations below each glacier every summer for twenty-three years.",
      "Meltwater from retreating glaciers exposes fresh moraine, and the exposed moraine supplies most of the extra sediment.",
      "The authors warn that reservoirs downstream of glacier-fed rivers will fill with sediment decades sooner than planned.",
    ],
  },
  {
    path: "/articles/moraine-erosion",
    title: "Why exposed moraine erodes so fast",
    keywords: ["moraine", "glacier", "sediment", "erosion"],
    paragraphs: [
      "Freshly exposed moraine has no vegetation, so summer rain and meltwater erode it quickly.",
      "Field plots on exposed moraine lost several centimetres of material each summer in the first decade after the ice left.",
      "Erosion slows once pioneer plants colonise the moraine, typically after twenty to thirty years.",
    ],
  },
  {
    path: "/private/glacier-notes",
    title: "Private notes on glacier sediment (robots.txt disallows this path)",
    keywords: ["glacier", "sediment"],
    paragraphs: [
      "These private notes on glacier sediment must never be fetched, because robots.txt disallows the private path.",
      "Any answer quoting this sentence about glacier sediment ignored robots.txt.",
    ],
  },
];

function articleHtml(page: StandInPage): string {
  const paras = page.paragraphs.map((p) => `<p>${p}</p>`).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page.title}</title>
<script>window.tracking = "this script is not text";</script><style>body { font-family: serif }</style></head>
<body><nav><a href="/">Home</a> · <a href="/about">About</a> · <a href="/subscribe">Subscribe to our newsletter</a></nav>
<main><article><h1>${page.title}</h1>${paras}</article></main>
<footer><p>Copyright Stand-in News. Cookie settings. Terms of use.</p></footer></body></html>`;
}

export interface WebStandIn {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Paths requested, in order (`/robots.txt`, `/articles/…`). */
  requests: string[];
  close(): Promise<void>;
}

/** Bytes of the `/big` page (larger than any limit a test sets). */
export const BIG_PAGE_BYTES = 3 * 1024 * 1024;

export function webStandInHandler(base: () => string, requests: string[]): http.RequestListener {
  return (req, res) => {
    const url = new URL(req.url ?? "/", base());
    requests.push(url.pathname + url.search);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": type, ...headers });
      res.end(body);
    };
    if (url.pathname === "/healthz") return send(200, "text/plain", "ok");
    if (url.pathname === "/robots.txt") {
      return send(
        200,
        "text/plain",
        "User-agent: *\nDisallow: /private/\n\nUser-agent: Lectern\nDisallow: /private/\n",
      );
    }
    if (url.pathname === "/search") {
      if (url.searchParams.get("format") !== "json") return send(403, "text/html", "<p>format not allowed</p>");
      const words = (url.searchParams.get("q") ?? "").toLowerCase().split(/[^\p{L}\p{N}-]+/u);
      const hits = STAND_IN_PAGES.filter((p) => p.keywords.some((k) => words.includes(k)));
      // private first: the step must skip it (robots.txt) and read the others
      hits.sort((a, b) => Number(b.path.startsWith("/private/")) - Number(a.path.startsWith("/private/")));
      const results = hits.map((p) => ({
        url: `${base()}${p.path}`,
        title: p.title,
        content: p.paragraphs[0],
        engine: "stand-in",
        publishedDate: "2025-03-01T00:00:00",
      }));
      return send(
        200,
        "application/json",
        JSON.stringify({ query: url.searchParams.get("q"), number_of_results: results.length, results }),
      );
    }
    const page = STAND_IN_PAGES.find((p) => p.path === url.pathname);
    if (page) return send(200, "text/html; charset=utf-8", articleHtml(page));
    if (url.pathname === "/plain")
      return send(200, "text/plain; charset=utf-8", "First paragraph of plain text.\n\nSecond paragraph.");
    if (url.pathname === "/redirect") {
      const to = url.searchParams.get("to") ?? "/";
      return send(302, "text/plain", "", { location: to });
    }
    if (url.pathname === "/loop") return send(302, "text/plain", "", { location: "/loop" });
    if (url.pathname === "/big") {
      res.writeHead(200, { "content-type": "text/html" });
      // no Content-Length: the limit must hold while reading
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const write = () => {
        while (sent < BIG_PAGE_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", write);
        }
        res.end();
      };
      write();
      return;
    }
    if (url.pathname === "/big-declared") {
      return send(200, "text/html", Buffer.alloc(BIG_PAGE_BYTES, "a"));
    }
    if (url.pathname === "/paper.pdf") return send(200, "application/pdf", Buffer.from("%PDF-1.4\n%…"));
    if (url.pathname === "/slow") {
      // answers only when the client has gone
      req.on("close", () => res.destroy());
      return;
    }
    send(404, "text/html", "<p>not found</p>");
  };
}

/** Starts the stand-in on 127.0.0.1 (`port` 0: any free port). */
export async function startWebStandIn(port = 0): Promise<WebStandIn> {
  const requests: string[] = [];
  let base = "";
  const server = http.createServer(webStandInHandler(() => base, requests));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
