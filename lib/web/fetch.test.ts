import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SafeFetchOptions, safeFetch, WebFetchError } from "./fetch";
import { fetchWebPage } from "./page";
import { braveProvider, searxngProvider, tavilyProvider, WebSearchError } from "./providers";
import { RobotsCache } from "./robots";
import { BIG_PAGE_BYTES, startWebStandIn, type WebStandIn } from "./testing";

let web: WebStandIn;
beforeAll(async () => {
  web = await startWebStandIn();
});
afterAll(async () => {
  await web.close();
});

const port = () => new URL(web.url).port;
const allowed = (): SafeFetchOptions => ({
  userAgent: "Lectern/test",
  timeoutMs: 10_000,
  maxBytes: 256 * 1024,
  allowHosts: ["127.0.0.1"],
});

async function refusal(p: Promise<unknown>): Promise<WebFetchError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(WebFetchError);
  return e as WebFetchError;
}

describe("safeFetch: addresses (SSRF)", () => {
  it("refuses loopback without the allow-list, in every spelling", async () => {
    const opts = { ...allowed(), allowHosts: [] };
    for (const host of [
      "127.0.0.1",
      "2130706433",
      "0x7f000001",
      "0x7f.0.0.1",
      "127.1",
      "0177.0.0.1",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "localhost",
    ]) {
      const e = await refusal(safeFetch(`http://${host}:${port()}/articles/glacier-sediment`, opts));
      expect(e.code, host).toBe("blocked_address");
    }
    expect(web.requests).not.toContain("/articles/glacier-sediment");
  });

  it("refuses private, link-local, CGNAT, unspecified and multicast literals without connecting", async () => {
    for (const host of [
      "10.1.2.3",
      "192.168.0.1",
      "172.20.0.1",
      "169.254.169.254",
      "100.64.1.1",
      "0.0.0.0",
      "224.0.0.251",
      "[fd00::1]",
      "[fe80::1]",
    ]) {
      const e = await refusal(safeFetch(`http://${host}/`, allowed()));
      expect(e.code, host).toBe("blocked_address");
    }
  });

  it("refuses a name that resolves to a private address, and connects to the address it checked", async () => {
    const resolveTo = (address: string) => async () => [{ address, family: 4 as const }];
    const e = await refusal(
      safeFetch("http://intranet.example/", { ...allowed(), allowHosts: [], resolve: resolveTo("10.0.0.7") }),
    );
    expect(e.code).toBe("blocked_address");
    expect(e.message).toContain("10.0.0.7");
    // one private answer among public ones is enough to refuse
    const mixed = await refusal(
      safeFetch("http://mixed.example/", {
        ...allowed(),
        allowHosts: [],
        resolve: async () => [
          { address: "93.184.216.34", family: 4 },
          { address: "127.0.0.1", family: 4 },
        ],
      }),
    );
    expect(mixed.code).toBe("blocked_address");
    // the connection goes to the checked address, never to a second resolution (the stand-in is reached through a
    // made-up name resolved once to 127.0.0.1, allowed by address)
    let lookups = 0;
    const r = await safeFetch(`http://news.example:${port()}/articles/moraine-erosion`, {
      ...allowed(),
      resolve: async () => {
        lookups++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    expect(r.status).toBe(200);
    expect(lookups).toBe(1);
  });

  it("re-checks every redirect: a public page redirecting to 127.0.0.1 is refused", async () => {
    // the first hop is allowed by name (as a public site would be); its redirect target is a loopback literal
    const before = web.requests.length;
    const e = await refusal(
      safeFetch(
        `http://public.example:${port()}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${port()}/articles/glacier-sediment`)}`,
        {
          ...allowed(),
          allowHosts: ["public.example"],
          resolve: async () => [{ address: "127.0.0.1", family: 4 }],
        },
      ),
    );
    expect(e.code).toBe("blocked_address");
    expect(web.requests.slice(before)).toEqual([expect.stringMatching(/^\/redirect/)]);
    for (const to of ["http://2130706433/", "http://[::ffff:7f00:1]/", "http://169.254.169.254/latest/meta-data/"]) {
      const hop = await refusal(
        safeFetch(`http://public.example:${port()}/redirect?to=${encodeURIComponent(to)}`, {
          ...allowed(),
          allowHosts: ["public.example"],
          resolve: async () => [{ address: "127.0.0.1", family: 4 }],
        }),
      );
      expect(hop.code, to).toBe("blocked_address");
    }
  });

  it("follows a few redirects, then stops", async () => {
    const r = await safeFetch(`${web.url}/redirect?to=/plain`, allowed());
    expect(r.url).toBe(`${web.url}/plain`);
    expect(r.redirects).toEqual([`${web.url}/plain`]);
    const e = await refusal(safeFetch(`${web.url}/loop`, allowed()));
    expect(e.code).toBe("too_many_redirects");
  });

  it("fetches http and https only, without credentials", async () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.org/",
      "gopher://127.0.0.1/",
      "javascript:alert(1)",
      "not a url",
      "http://user:pw@example.org/",
    ]) {
      const e = await refusal(safeFetch(url, allowed()));
      expect(e.code, url).toBe("bad_url");
    }
    const redirected = await refusal(
      safeFetch(`${web.url}/redirect?to=${encodeURIComponent("file:///etc/passwd")}`, allowed()),
    );
    expect(redirected.code).toBe("bad_url");
  });
});

describe("safeFetch: limits", () => {
  it("stops reading past the size limit, with or without Content-Length", async () => {
    for (const path of ["/big", "/big-declared"]) {
      const e = await refusal(safeFetch(`${web.url}${path}`, { ...allowed(), maxBytes: 100 * 1024 }));
      expect(e.code, path).toBe("too_large");
    }
    const ok = await safeFetch(`${web.url}/big`, { ...allowed(), maxBytes: BIG_PAGE_BYTES });
    expect(ok.body.length).toBe(BIG_PAGE_BYTES);
  });

  it("refuses content types it was not asked for, before reading them", async () => {
    const e = await refusal(safeFetch(`${web.url}/paper.pdf`, { ...allowed(), accept: ["text/html", "text/plain"] }));
    expect(e.code).toBe("content_type");
    expect(e.message).toContain("application/pdf");
  });

  it("gives up when the server does not answer in time", async () => {
    const e = await refusal(safeFetch(`${web.url}/slow`, { ...allowed(), timeoutMs: 300 }));
    expect(e.code).toBe("timeout");
  });

  it("says which status a server answered", async () => {
    const e = await refusal(safeFetch(`${web.url}/missing`, allowed()));
    expect(e.code).toBe("http_status");
    expect(e.status).toBe(404);
  });
});

describe("fetchWebPage", () => {
  const config = () => ({ fetch: allowed(), robotsAgent: "Lectern" });

  it("reads an article's main text without its navigation, scripts or footer", async () => {
    const page = await fetchWebPage(`${web.url}/articles/glacier-sediment`, config(), new RobotsCache());
    expect(page.title).toBe("Glacier-fed rivers carry more sediment as ice retreats");
    expect(page.text).toContain(
      "A survey of forty glacier-fed rivers found that sediment loads doubled between 2001 and 2024 as the glaciers retreated.",
    );
    expect(page.text.split("\n\n").length).toBeGreaterThanOrEqual(4);
    expect(page.text).not.toMatch(/newsletter|tracking|Cookie settings|font-family/);
  });

  it("reads plain text", async () => {
    const page = await fetchWebPage(`${web.url}/plain`, config(), new RobotsCache());
    expect(page.text).toBe("First paragraph of plain text.\n\nSecond paragraph.");
  });

  it("respects robots.txt, asking for it once per origin", async () => {
    const robots = new RobotsCache();
    const before = web.requests.length;
    const e = await refusal(fetchWebPage(`${web.url}/private/glacier-notes`, config(), robots));
    expect(e.code).toBe("robots");
    await fetchWebPage(`${web.url}/articles/moraine-erosion`, config(), robots);
    const asked = web.requests.slice(before);
    expect(asked.filter((p) => p === "/robots.txt")).toHaveLength(1);
    expect(asked).not.toContain("/private/glacier-notes");
    expect(asked).toContain("/articles/moraine-erosion");
  });

  it("refuses a PDF (a paper is added to the library instead)", async () => {
    const e = await refusal(fetchWebPage(`${web.url}/paper.pdf`, config(), new RobotsCache()));
    expect(e.code).toBe("content_type");
  });
});

describe("providers", () => {
  it("SearXNG: the JSON API's results, deduplicated and cut to the limit", async () => {
    const results = await searxngProvider(web.url).search("glacier sediment", { limit: 2 });
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ url: `${web.url}/private/glacier-notes`, published: "2025-03-01T00:00:00" });
    expect(results[1]?.snippet).toMatch(/forty glacier-fed rivers/);
    expect(web.requests.at(-1)).toMatch(/^\/search\?q=glacier\+sediment&format=json/);
    expect(await searxngProvider(`${web.url}/`).search("unrelated", { limit: 5 })).toEqual([]);
  });

  it("SearXNG: a clear error when the JSON format is off or the instance is down", async () => {
    const off = searxngProvider(`${web.url}/no-such-instance`);
    await expect(off.search("glacier", { limit: 5 })).rejects.toThrow(WebSearchError);
    await expect(searxngProvider("http://127.0.0.1:1").search("glacier", { limit: 5 })).rejects.toThrow(
      /could not be reached/,
    );
  });

  it("Tavily and Brave: their documented request and response shapes", async () => {
    const http = await import("node:http");
    const seen: { path: string; headers: Record<string, unknown>; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ path: req.url ?? "", headers: req.headers, body });
        res.writeHead(200, { "content-type": "application/json" });
        if (req.url?.startsWith("/search")) {
          res.end(
            JSON.stringify({
              query: "q",
              results: [{ title: "T", url: "https://t.example/a", content: "tavily snippet", score: 0.9 }],
            }),
          );
        } else {
          res.end(
            JSON.stringify({
              web: {
                results: [
                  {
                    title: "<strong>B</strong>",
                    url: "https://b.example/a",
                    description: "brave <strong>snippet</strong>",
                  },
                ],
              },
            }),
          );
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      expect(await tavilyProvider("tvly-key", base).search("glacier", { limit: 3 })).toEqual([
        { url: "https://t.example/a", title: "T", snippet: "tavily snippet", published: null },
      ]);
      expect(seen[0]?.headers.authorization).toBe("Bearer tvly-key");
      expect(JSON.parse(seen[0]?.body ?? "{}")).toMatchObject({ query: "glacier", max_results: 3 });
      expect(await braveProvider("brave-key", base).search("glacier", { limit: 3 })).toEqual([
        { url: "https://b.example/a", title: "B", snippet: "brave snippet", published: null },
      ]);
      expect(seen[1]?.path).toBe("/res/v1/web/search?q=glacier&count=3");
      expect(seen[1]?.headers["x-subscription-token"]).toBe("brave-key");
    } finally {
      server.close();
    }
  });
});
