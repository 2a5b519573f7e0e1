import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { getRun } from "@/db/queries/research";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { webSearchConfigOf } from "@/lib/web/config";
import { RobotsCache } from "@/lib/web/robots";
import { startWebStandIn, type WebStandIn } from "@/lib/web/testing";
import { deepRunner } from "./deep/run";
import type { ResearchDeps } from "./deps";
import { runResearch } from "./orchestrator";
import { startRun, waitForRun } from "./runs";
import type { WebCitationsData } from "./steps/web-citations";
import type { WebSearchData } from "./steps/web-search";
import { mockModel } from "./testing";
import type { ResearchEvent, ResearchRunState, ResearchStep } from "./types";
import {
  arxivIdOf,
  asksForRecentWork,
  composeWebSection,
  verifyWebCitations,
  type WebEvidence,
  type WebResearch,
  webCitedClaims,
  webReasonAfterSearch,
  webReasonBeforeSearch,
} from "./web";

const PAGE: WebEvidence = {
  id: "W1",
  url: "https://news.example/glacier",
  title: "Glacier-fed rivers carry more sediment",
  site: "news.example",
  excerpt: "",
  arxivId: null,
  published: null,
  text: [
    "A survey of forty glacier-fed rivers found that sediment loads doubled between 2001 and 2024 as the glaciers retreated.",
    "Meltwater from retreating glaciers exposes fresh moraine, and the exposed moraine supplies most of the extra sediment.",
  ].join("\n\n"),
};

describe("when the plan searches the web", () => {
  it("asked, or a question about recent work (auto mode only)", () => {
    expect(webReasonBeforeSearch("What is LoRA?", { asked: true, mode: "on_request" })).toBe("asked");
    expect(webReasonBeforeSearch("What are the latest results on LoRA?", { asked: false, mode: "auto" })).toBe(
      "recent",
    );
    expect(webReasonBeforeSearch("What are the latest results on LoRA?", { asked: false, mode: "on_request" })).toBe(
      null,
    );
    expect(webReasonBeforeSearch("What is LoRA?", { asked: false, mode: "auto" })).toBe(null);
    for (const q of ["state of the art in parsing", "recent work on adapters", "adapters in 2025", "SOTA on GLUE"]) {
      expect(asksForRecentWork(q), q).toBe(true);
    }
    for (const q of ["How does attention scale?", "Why divide by the square root?", "results on 1000 images"]) {
      expect(asksForRecentWork(q), q).toBe(false);
    }
  });

  it("after the library search: no papers, low relevance, or passages off the question's subject", () => {
    const passage = (text: string, relevance: number) => ({
      chunkUid: "c",
      paperId: "p",
      title: "t",
      page: 1,
      charStart: 0,
      charEnd: text.length,
      text,
      relevance,
    });
    expect(webReasonAfterSearch("What is LoRA?", [])).toBe("no_papers");
    expect(webReasonAfterSearch("What is LoRA?", [passage("LoRA trains low-rank updates.", 0.2)])).toBe(
      "weak_evidence",
    );
    expect(webReasonAfterSearch("What is LoRA?", [passage("LoRA trains low-rank updates.", 0.8)])).toBe(null);
    expect(
      webReasonAfterSearch("How does ERA5 reanalysis handle glacier sediment?", [
        passage("Attention divides the dot products by the square root of the key dimension.", 0.8),
      ]),
    ).toBe("weak_evidence");
  });
});

it("reads arXiv ids from arXiv addresses only", () => {
  expect(arxivIdOf("https://arxiv.org/abs/2106.09685v2")).toBe("2106.09685v2");
  expect(arxivIdOf("https://arxiv.org/pdf/1706.03762")).toBe("1706.03762");
  expect(arxivIdOf("https://export.arxiv.org/abs/hep-th/9901001")).toBe("hep-th/9901001");
  expect(arxivIdOf("https://notarxiv.org/abs/2106.09685")).toBeNull();
  expect(arxivIdOf("https://arxiv.org/list/cs.CL/recent")).toBeNull();
});

describe("web citations", () => {
  it("gives a marker standing after a full stop to the sentence before it, so every quoted sentence is checked", () => {
    const claims = webCitedClaims(
      "The glacier lost 12 m in 2023. [W1] This loss is the largest on record. [W1] It was measured by drone. [W2]",
    );
    expect(claims.map((c) => [c.claim, c.ids])).toEqual([
      ["The glacier lost 12 m in 2023.", ["W1"]],
      ["This loss is the largest on record.", ["W1"]],
      ["It was measured by drone.", ["W2"]],
    ]);
  });

  it("the offline composer quotes page sentences, each cited [Wn], under a heading that says they are from the web", () => {
    const md = composeWebSection("How much did sediment loads in glacier-fed rivers grow?", [PAGE], {
      intent: "unknown",
      keywords: ["sediment", "glacier-fed"],
      libraryAnswered: false,
    });
    expect(md).toMatch(/^## From the web\n\n_The library does not answer this\./);
    expect(md).toContain("sediment loads doubled between 2001 and 2024 as the glaciers retreated. [W1]");
  });

  it("checks each [Wn] against the fetched text: quoted, paraphrased too far, or a page that was not fetched", () => {
    const body = [
      "Sediment loads in forty glacier-fed rivers doubled between 2001 and 2024 [W1].",
      "Glaciers are made of chocolate according to every survey [W1].",
      "Rivers are wide [W7].",
    ].join(" ");
    const [good, bad, unknown] = verifyWebCitations(body, [PAGE]);
    expect(good).toMatchObject({ sourceId: "W1", url: PAGE.url, supported: true });
    expect(good?.quote).toBe(
      "A survey of forty glacier-fed rivers found that sediment loads doubled between 2001 and 2024 as the glaciers retreated.",
    );
    expect(bad).toMatchObject({ supported: false });
    expect(bad?.reason).toMatch(/of the claim's words are on the page/);
    expect(unknown).toMatchObject({
      sourceId: "W7",
      supported: false,
      reason: "W7 is not among the web pages fetched.",
    });
  });
});

// ---- the run, against the web stand-in ----

const LORA = [
  "arXiv:2106.00002v2 [cs.LG] 1 Jun 2021\nLow-Rank Adapters for Large Language Models\nAlan Turing\nAbstract\nWe freeze the pretrained weights and train small low-rank update matrices for each downstream task.",
  "4.1 No Additional Inference Latency\nWhen deployed in production, the low-rank update is merged into the frozen weight matrix, so the adapted model runs exactly as fast as the original one. There is no extra latency at inference time compared with full fine-tuning.",
];

let handle: DbHandle;
let lib: TestLibrary;
let embedder: EmbeddingProvider;
let site: WebStandIn;

beforeAll(async () => {
  site = await startWebStandIn();
  lib = await createTestLibrary([LORA], { name: "web-research" });
  handle = lib.handle;
  embedder = lib.embedder;
});

afterAll(async () => {
  await lib?.close();
  await site?.close();
});

function webOf(mode: WebResearch["mode"], searxng = site.url): WebResearch {
  const config = webSearchConfigOf({
    LECTERN_SEARXNG_URL: searxng,
    TAVILY_API_KEY: undefined,
    LECTERN_TAVILY_URL: "https://api.tavily.com",
    BRAVE_SEARCH_API_KEY: undefined,
    LECTERN_BRAVE_URL: "https://api.search.brave.com",
    LECTERN_WEB_TIMEOUT_MS: 10_000,
    LECTERN_WEB_MAX_PAGE_KB: 512,
    LECTERN_WEB_ALLOW_HOSTS: "127.0.0.1",
    LECTERN_PUBLIC_URL: undefined,
  });
  if (!config.provider) throw new Error("no provider");
  return { config: { ...config, provider: config.provider }, robots: new RobotsCache(), mode };
}

function deps(over: Partial<ResearchDeps> = {}): ResearchDeps {
  return { db: handle.db, embedder, chatModel: null, llmTimeoutMs: 5_000, runTimeoutMs: 60_000, ...over };
}

async function run(question: string, over: Partial<ResearchDeps> = {}, web = false) {
  const events: ResearchEvent[] = [];
  const state = await runResearch(deps(over), question, { runId: "t", onEvent: (e) => events.push(e) }, { web });
  return { state, events };
}

function stepOf<T>(state: ResearchRunState, id: string): ResearchStep & { data: T | null } {
  const s = state.steps.find((x) => x.id === id);
  if (!s) throw new Error(`no step ${id}`);
  return s as ResearchStep & { data: T | null };
}

const ABSENT = "How much did sediment loads in glacier-fed rivers grow as the glaciers retreated?";

describe("the quick run with web search", () => {
  it("no provider: no web step in the plan, and the run fails as before", async () => {
    const { state, events } = await run(ABSENT);
    const started = events[0];
    expect(started?.kind === "run_started" && started.steps.map((s) => s.id)).not.toContain("web_search");
    expect(state.status).toBe("failed");
    expect(state.error?.code).toBe("no_papers");
  });

  it("asked for: a question the library cannot answer is answered from the web, cited [Wn] and verified", async () => {
    const before = site.requests.length;
    const { state } = await run(ABSENT, { web: webOf("on_request") }, true);
    expect(state.status).toBe("completed");
    expect(state.steps.map((s) => `${s.id}:${s.status}`)).toEqual([
      "analysis:completed",
      "query_expansion:completed",
      "search_summaries:completed",
      "search_content:completed",
      "web_search:completed",
      "synthesis:completed",
      "verification:completed",
      "web_citations:completed",
      "formatting:completed",
    ]);
    const webStep = stepOf<WebSearchData>(state, "web_search");
    expect(webStep.data).toMatchObject({ ran: true, reason: "asked", provider: "SearXNG" });
    expect(webStep.reasoning).toMatch(/^You asked for web search\./);
    // the robots.txt-disallowed page was a result, and was not read
    expect(webStep.data?.skipped).toEqual([
      { url: `${site.url}/private/glacier-notes`, reason: expect.stringContaining("robots.txt") },
    ]);
    expect(webStep.data?.pages.map((p) => [p.id, p.url])).toEqual([
      ["W1", `${site.url}/articles/glacier-sediment`],
      ["W2", `${site.url}/articles/moraine-erosion`],
    ]);
    const asked = site.requests.slice(before);
    expect(asked).not.toContain("/private/glacier-notes");
    expect(asked.filter((p) => p === "/robots.txt")).toHaveLength(1);

    expect(state.answer).toMatch(/## From the web/);
    expect(state.answer).toMatch(/\[W1\]/);
    expect(state.answer).not.toMatch(/robots\.txt/);
    expect(state.answer).toMatch(
      /## Web sources\n\n- \[W1\] Glacier-fed rivers carry more sediment as ice retreats — http/,
    );
    const checked = stepOf<WebCitationsData>(state, "web_citations").data;
    expect(checked?.total).toBeGreaterThan(0);
    expect(checked?.citations.every((c) => c.supported && c.quote.length > 0)).toBe(true);
    expect(checked?.sources.map((s) => s.id)).toContain("W1");
  });

  it("auto mode: the card says the web was not needed when the library answers, and nothing is sent", async () => {
    const before = site.requests.length;
    const { state } = await run("Why is there no additional inference latency with low-rank adapters?", {
      web: webOf("auto"),
    });
    expect(state.status).toBe("completed");
    const webStep = stepOf<WebSearchData>(state, "web_search");
    expect(webStep.title).toBe("Web search not needed");
    expect(webStep.data).toMatchObject({ ran: false, reason: null });
    expect(webStep.reasoning).toMatch(/nothing was sent to the web/);
    expect(site.requests.length).toBe(before);
    expect(stepOf<WebCitationsData>(state, "web_citations").data?.total).toBe(0);
    expect(state.answer).not.toMatch(/Web sources|\[W\d\]/);
  });

  it("auto mode: no papers on the question → the web; recent work → the web", async () => {
    const absent = await run(ABSENT, { web: webOf("auto") });
    expect(stepOf<WebSearchData>(absent.state, "web_search").data?.reason).toBe("no_papers");
    expect(absent.state.status).toBe("completed");
    const recent = await run("What are the latest findings on glacier sediment?", { web: webOf("auto") });
    expect(stepOf<WebSearchData>(recent.state, "web_search").data?.reason).toBe("recent");
  });

  it("a provider that fails: with no papers the run ends with no_papers saying why; otherwise a warning", async () => {
    const down = webOf("on_request", "http://127.0.0.1:1");
    const { state } = await run(ABSENT, { web: down }, true);
    expect(state.status).toBe("failed");
    expect(state.error).toMatchObject({ code: "no_papers" });
    expect(state.error?.message).toMatch(/SearXNG could not be reached/);
    const lib = await run("Why is there no additional inference latency with low-rank adapters?", { web: down }, true);
    expect(lib.state.status).toBe("completed");
    expect(lib.state.warnings.join(" ")).toMatch(/Web search failed: SearXNG could not be reached/);
  });

  it("with a model: the web pages are in the prompt as [Wn] sources, and its [Wn] citations are judged", async () => {
    const prompts: string[] = [];
    const model = mockModel({
      reply: (prompt, kind) => {
        prompts.push(prompt);
        if (kind === "stream") {
          return "## Answer\n\nSediment loads in forty glacier-fed rivers doubled between 2001 and 2024, according to a web survey [W1].";
        }
        if (/CLAIM:/.test(prompt)) return '{"verdicts": [{"i": 1, "supported": true, "relevance": "relevant"}]}';
        return '{"intent": "unknown", "confidence": 0.5, "keywords": ["sediment"]}';
      },
    });
    const { state } = await run(ABSENT, { web: webOf("on_request"), chatModel: model }, true);
    expect(state.status).toBe("completed");
    const synthesis = prompts.find((p) => p.includes("Web sources:"));
    expect(synthesis).toContain(
      `Web source [W1] — Glacier-fed rivers carry more sediment as ice retreats (${site.url}/articles/glacier-sediment)`,
    );
    expect(synthesis).toMatch(/cite a sentence taken from one with that label alone, like \[W1\]/);
    expect(prompts.some((p) => /CLAIM: Sediment loads in forty glacier-fed rivers doubled/.test(p))).toBe(true);
    const checked = stepOf<WebCitationsData>(state, "web_citations").data;
    expect(checked).toMatchObject({ method: "llm", total: 1, supported: 1 });
  });

  it("is saved with the run: a stored run reads back with its web step and web citations", async () => {
    const started = startRun(deps({ web: webOf("on_request") }), ABSENT, {
      runner: (d, q, h) => runResearch(d, q, h, { web: true }),
    });
    await waitForRun(started.runId);
    const stored = await getRun(handle.db, started.runId);
    expect(stored?.status).toBe("completed");
    const webStep = stored?.steps.find((s) => s.id === "web_search");
    expect(webStep?.type).toBe("web_search");
    expect((webStep?.data as WebSearchData | null)?.pages[0]?.id).toBe("W1");
    const cites = stored?.steps.find((s) => s.id === "web_citations")?.data as WebCitationsData | null;
    expect(cites?.citations.length).toBeGreaterThan(0);
    expect(stored?.answer).toMatch(/\[W1\]/);
  });
});

describe("deep research with web search", () => {
  const outline = {
    title: "Glacier sediment",
    knowledge_points: [
      {
        id: "p1",
        category: "Findings",
        topic: "Sediment loads of glacier-fed rivers",
        search_keywords: ["glacier-fed rivers sediment loads"],
        importance: "high" as const,
      },
    ],
    search_strategy: "",
  };

  it("auto mode: points with no evidence in the library → the web; the review has a From the web section cited [Wn]", async () => {
    const events: ResearchEvent[] = [];
    const state = await deepRunner({ outline })(deps({ web: webOf("auto") }), ABSENT, {
      runId: "deep",
      onEvent: (e) => events.push(e),
    });
    expect(state.status).toBe("completed");
    const started = events[0];
    expect(started?.kind === "run_started" && started.steps.map((s) => s.id)).toEqual([
      "outline",
      "point_p1",
      "web_search",
      "section_p1",
      "graph_relations",
      "framing",
      "verification",
      "web_citations",
      "formatting",
    ]);
    expect(stepOf<WebSearchData>(state, "web_search").data?.reason).toBe("no_papers");
    expect(state.answer).toMatch(/## From the web[\s\S]*\[W1\]/);
    expect(stepOf<WebCitationsData>(state, "web_citations").data?.supported).toBeGreaterThan(0);
  });

  it("no provider: the deep plan is as before", async () => {
    const events: ResearchEvent[] = [];
    await deepRunner({ outline })(deps(), ABSENT, { runId: "deep2", onEvent: (e) => events.push(e) });
    const started = events[0];
    expect(started?.kind === "run_started" && started.steps.map((s) => s.id)).not.toContain("web_search");
  });
});
