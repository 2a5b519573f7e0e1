import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { type ArxivStandin, type StandinPaper, startArxivStandin } from "@/lib/testing/arxiv-standin";
import { createFakeClock } from "@/lib/testing/clock";
import { makeTestPdf } from "@/lib/testing/pdf";
import { type ArxivClientOptions, arxivUserAgent, createArxivClient, parseAtom, retryAfterMs } from "./arxiv";
import { parseArxivList, parseArxivRef } from "./arxiv-ids";
import { createIntervalGate } from "./polite";

describe("parseArxivRef", () => {
  it.each([
    ["2106.09685", { id: "2106.09685" }],
    ["2106.09685v2", { id: "2106.09685", version: 2 }],
    ["arXiv:1706.03762v5", { id: "1706.03762", version: 5 }],
    ["https://arxiv.org/abs/1706.03762", { id: "1706.03762" }],
    ["http://arxiv.org/pdf/1706.03762v5", { id: "1706.03762", version: 5 }],
    ["https://arxiv.org/pdf/1706.03762v5.pdf", { id: "1706.03762", version: 5 }],
    ["https://export.arxiv.org/abs/2106.09685v1?context=cs", { id: "2106.09685", version: 1 }],
    ["10.48550/arXiv.2106.09685", { id: "2106.09685" }],
    ["0704.0001", { id: "0704.0001" }],
    ["hep-th/9901001", { id: "hep-th/9901001" }],
    ["math.GT/0309136v2", { id: "math.GT/0309136", version: 2 }],
    ["https://arxiv.org/abs/hep-th/9901001v1", { id: "hep-th/9901001", version: 1 }],
  ])("%s", (raw, expected) => {
    expect(parseArxivRef(raw)).toEqual(expected);
  });

  it.each([
    "",
    "hello",
    "2106.0968", // too short for 2021 (five digits since 2015)
    "1412.12345", // five digits before 2015
    "0612.0001", // new-style ids began in April 2007
    "2113.09685", // month 13
    "nope/9901001",
    "https://example.org/abs/2106.09685",
    "2106.09685v", // a dangling v
  ])("rejects %j", (raw) => {
    expect(parseArxivRef(raw)).toBeNull();
  });

  it("splits a list, keeps each paper once and lists what is not an id", () => {
    const r = parseArxivList(["2106.09685, https://arxiv.org/abs/1706.03762", "2106.09685 bogus;1706.03762v5"]);
    expect(r.refs).toEqual([{ id: "2106.09685" }, { id: "1706.03762" }, { id: "1706.03762", version: 5 }]);
    expect(r.tokens).toEqual(["2106.09685", "https://arxiv.org/abs/1706.03762", "1706.03762v5"]);
    expect(r.invalid).toEqual(["bogus"]);
  });
});

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe("parseAtom", () => {
  it("turns arXiv's error entry into a clear refusal", () => {
    const xml = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_x</id><title>Error</title><summary>incorrect id format for x</summary></entry></feed>`;
    expect(() => parseAtom(xml)).toThrow(/arXiv refused the request: incorrect id format for x/);
  });

  it("refuses something that is not a feed", () => {
    expect(() => parseAtom("<html><body>Service unavailable</body></html>")).toThrow(/not an Atom feed/);
  });
});

const PAPER: StandinPaper = {
  id: "2106.09685",
  title: "LoRA: Low-Rank Adaptation of\n  Large Language Models",
  authors: ["Edward J. Hu", "Yelong Shen", "Phillip Wallis"],
  abstract:
    "We propose Low-Rank Adaptation, or LoRA, which freezes the pre-trained model weights & injects trainable rank decomposition matrices.",
  categories: ["cs.CL", "cs.AI", "cs.LG"],
  doi: "10.48550/arXiv.2106.09685",
  journalRef: "ICLR 2022",
  versions: [
    { version: 1, date: "2021-06-17", pdf: new Uint8Array() },
    { version: 2, date: "2021-10-16", pdf: new Uint8Array() },
  ],
};

describe("the arXiv client against the stand-in", () => {
  let standin: ArxivStandin;
  let cacheDir: string;
  let clock: ReturnType<typeof createFakeClock>;
  /** The fake time at which each request left. */
  let sentAt: { url: string; at: number }[];

  function client(overrides: Partial<ArxivClientOptions> = {}) {
    return createArxivClient({
      apiUrl: standin.apiUrl,
      pdfUrl: standin.pdfUrl,
      userAgent: arxivUserAgent("lab@example.org"),
      cacheDir,
      clock,
      fetch: (input, init) => {
        sentAt.push({ url: String(input), at: clock.now() });
        return fetch(input, init);
      },
      ...overrides,
    });
  }

  beforeAll(async () => {
    const pdf = await makeTestPdf({ pages: ["A page of text about low-rank adaptation of large language models."] });
    for (const v of PAPER.versions) v.pdf = pdf;
    standin = await startArxivStandin([PAPER]);
  });
  afterAll(async () => {
    await standin?.close();
  });
  beforeEach(() => {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-arxiv-cache-"));
    const dir = cacheDir;
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    clock = createFakeClock();
    sentAt = [];
    standin.requests.length = 0;
  });

  it("reads an entry's metadata (latest version unless one is named) and names the app", async () => {
    const entries = await client().getEntries([{ id: "2106.09685" }, { id: "2106.09685", version: 1 }]);
    const latest = entries.get("2106.09685");
    expect(latest).toMatchObject({
      id: "2106.09685",
      version: 2,
      versionedId: "2106.09685v2",
      title: "LoRA: Low-Rank Adaptation of Large Language Models",
      authors: ["Edward J. Hu", "Yelong Shen", "Phillip Wallis"],
      categories: ["cs.CL", "cs.AI", "cs.LG"],
      primaryCategory: "cs.CL",
      published: "2021-06-17",
      updated: "2021-10-16",
      doi: "10.48550/arXiv.2106.09685",
      journalRef: "ICLR 2022",
    });
    expect(latest?.abstract).toContain("weights & injects");
    expect(entries.get("2106.09685v1")?.versionedId).toBe("2106.09685v1");
    expect(standin.requests[0]?.userAgent).toBe(arxivUserAgent("lab@example.org"));
    expect(standin.requests[0]?.userAgent).toMatch(/^Lectern\/.*mailto:lab@example\.org/);
  });

  it("leaves out ids arXiv does not know", async () => {
    const entries = await client().getEntries([{ id: "2106.09685" }, { id: "2401.99999" }]);
    expect([...entries.keys()]).toEqual(["2106.09685"]);
  });

  it("searches by words, author and category", async () => {
    const c = client();
    expect((await c.search({ query: "low-rank adaptation", category: "cs.CL" })).entries.map((e) => e.id)).toEqual([
      "2106.09685",
    ]);
    expect((await c.search({ author: "Yelong Shen" })).total).toBe(1);
    expect((await c.search({ query: "diffusion" })).entries).toEqual([]);
    await expect(c.search({ category: "cs CL; drop" })).rejects.toThrow(/not an arXiv category/);
    await expect(c.search({})).rejects.toThrow(/Give words/);
  });

  it("waits 3 s between API requests and 1 s between PDF downloads, by its clock", async () => {
    const c = client({ cacheDir: null });
    await c.search({ query: "lora" });
    await c.search({ query: "low rank" });
    await c.getEntries([{ id: "2106.09685" }]);
    const api = sentAt.filter((s) => s.url.includes("/api/"));
    expect(api).toHaveLength(3);
    expect((api[1]?.at ?? 0) - (api[0]?.at ?? 0)).toBeGreaterThanOrEqual(3000);
    expect((api[2]?.at ?? 0) - (api[1]?.at ?? 0)).toBeGreaterThanOrEqual(3000);

    const [a, b] = await Promise.all([
      c.downloadPdf("2106.09685v1", { maxBytes: 10_000_000 }),
      c.downloadPdf("2106.09685v2", { maxBytes: 10_000_000 }),
    ]);
    expect(Buffer.from(a).subarray(0, 5).toString()).toBe("%PDF-");
    expect(b.byteLength).toBe(a.byteLength);
    const pdfs = sentAt.filter((s) => s.url.includes("/pdf/"));
    expect((pdfs[1]?.at ?? 0) - (pdfs[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it("the gate spaces callers even when they ask at once", async () => {
    const gate = createIntervalGate(3000, clock);
    const times: number[] = [];
    await Promise.all([1, 2, 3].map(() => gate.wait().then(() => times.push(clock.now()))));
    expect(times).toEqual([times[0], (times[0] ?? 0) + 3000, (times[0] ?? 0) + 6000]);
  });

  it("retries a 503 with backoff and honours Retry-After on a 429", async () => {
    standin.failNext(503, 2);
    const entries = await client({ cacheDir: null }).getEntries([{ id: "2106.09685" }]);
    expect(entries.size).toBe(1);
    expect(standin.requests).toHaveLength(3);
    expect(clock.sleeps.slice(0, 2)).toEqual([3000, 6000]);

    clock.sleeps.length = 0;
    standin.failNext(429, 1, "7");
    await client({ cacheDir: null }).search({ query: "lora" });
    expect(clock.sleeps).toContain(7000);
  });

  it("gives up after its retries with a clear message", async () => {
    standin.failNext(429, 4);
    await expect(client({ cacheDir: null }).getEntries([{ id: "2106.09685" }])).rejects.toMatchObject({
      code: "unavailable:source",
      message: expect.stringMatching(/slow down \(HTTP 429\).*Nothing was added/),
    });
    expect(standin.requests).toHaveLength(4);
  });

  it("caches API answers in its directory for an hour", async () => {
    const c = client();
    await c.getEntries([{ id: "2106.09685" }]);
    await c.getEntries([{ id: "2106.09685" }]);
    expect(standin.requests).toHaveLength(1);
    expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith(".xml"))).toHaveLength(1);
    await clock.sleep(60 * 60 * 1000 + 1);
    await c.getEntries([{ id: "2106.09685" }]);
    expect(standin.requests).toHaveLength(2);
  });

  it("refuses a PDF over the size limit", async () => {
    await expect(client().downloadPdf("2106.09685v2", { maxBytes: 100 })).rejects.toMatchObject({
      code: "bad_request:pdf",
    });
  });

  it("says so clearly when arXiv cannot be reached", async () => {
    const gone = await startArxivStandin([]);
    const apiUrl = gone.apiUrl;
    await gone.close();
    await expect(client({ apiUrl }).getEntries([{ id: "2106.09685" }])).rejects.toMatchObject({
      code: "unavailable:source",
      message: expect.stringMatching(/cannot be reached.*Nothing was added/),
    });
  });
});
