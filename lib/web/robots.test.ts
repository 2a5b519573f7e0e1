import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SafeFetchOptions } from "./fetch";
import { WebFetchError } from "./fetch";
import { fetchWebPage } from "./page";
import { ROBOTS_MAX_MATCH_WORK, RobotsCache } from "./robots";

/** A site whose robots.txt is 500 KB of rules that cost robots-parser rule × path work, and whose pages are long. */
const SLOW_RULE = `Disallow: /${"*a".repeat(50)}b\n`;
const ROBOTS = `User-agent: *\n${SLOW_RULE.repeat(Math.floor((500 * 1024) / SLOW_RULE.length))}`;
const ARTICLE = `<html><head><title>Long address</title></head><body><article>${"<p>A paragraph of the page, long enough to be read as the article's prose, with commas, and more words.</p>".repeat(5)}</article></body></html>`;

let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(ROBOTS);
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(ARTICLE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const fetchOpts: SafeFetchOptions = {
  userAgent: "Lectern/test",
  timeoutMs: 10_000,
  maxBytes: 1024 * 1024,
  allowHosts: ["127.0.0.1"],
};
const config = { fetch: fetchOpts, robotsAgent: "Lectern" };

describe("robots.txt a site wrote to be slow to check", () => {
  it("500 KB of wildcard rules against a 2,000-character address (5 s of matching): refused at once, unchecked", async () => {
    const url = `${base}/${"a".repeat(2000)}`;
    const start = performance.now();
    const e = await fetchWebPage(url, config, new RobotsCache()).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(WebFetchError);
    expect((e as WebFetchError).code).toBe("robots");
    expect((e as WebFetchError).message).toMatch(/too large to check/);
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it("the same file still answers for a short address (its work under the bound)", async () => {
    const ruleChars = ROBOTS.length;
    expect(ruleChars * 10).toBeLessThan(ROBOTS_MAX_MATCH_WORK);
    const page = await fetchWebPage(`${base}/short`, config, new RobotsCache());
    expect(page.title).toBe("Long address");
  });
});
