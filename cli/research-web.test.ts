import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRun } from "@/db/queries/research";
import { startWebStandIn, type WebStandIn } from "@/lib/web/testing";
import { type CliLibrary, cli, openCliLibrary, replaceEnv } from "./testing";

/**
 * `npm run cli -- research "<question>" --web` over an empty library (a PGlite directory, or a new database on
 * DATABASE_URL's server), against the web stand-in: the answer comes from the web, cited [W1]; without a provider the
 * command says how to enable web search.
 */

const QUESTION = "How much more sediment do glacier-fed rivers carry as the glaciers retreat?";
let lib: CliLibrary | undefined;
let site: WebStandIn;
let base: Record<string, string | undefined> = {};

beforeAll(async () => {
  site = await startWebStandIn();
  lib = await openCliLibrary("web", () => ({ LECTERN_WARMUP: "0" }));
  base = lib.env;
}, 300_000);

afterAll(async () => {
  try {
    await lib?.close();
  } finally {
    await site?.close();
  }
});

describe("npm run cli -- research --web", () => {
  it("answers from the web when asked, with the web steps and [W1] in the JSON", async () => {
    replaceEnv({ ...base, LECTERN_SEARXNG_URL: site.url, LECTERN_WEB_ALLOW_HOSTS: "127.0.0.1" });
    const res = await cli("research", QUESTION, "--web", "--json");
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      answer_markdown: string;
      steps: { id: string; status: string }[];
      web_sources: { id: string; url: string }[];
      web_citations: { id: string; supported: boolean; quote: string }[];
    };
    expect(out.steps.map((s) => `${s.id}:${s.status}`)).toContain("web_search:completed");
    expect(out.steps.map((s) => `${s.id}:${s.status}`)).toContain("web_citations:completed");
    expect(out.answer_markdown).toMatch(
      /sediment loads doubled between 2001 and 2024 as the glaciers retreated\. \[W1\]/,
    );
    expect(out.answer_markdown).toContain(
      `## Web sources\n\n- [W1] Glacier-fed rivers carry more sediment as ice retreats — ${site.url}/articles/glacier-sediment`,
    );
    expect(out.web_sources).toEqual([
      { id: "W1", url: `${site.url}/articles/glacier-sediment`, title: expect.any(String), arxiv_id: null },
    ]);
    expect(out.web_citations.length).toBeGreaterThan(0);
    expect(out.web_citations.every((c) => c.id === "W1" && c.supported && c.quote.length > 0)).toBe(true);
    expect(res.stderr).toMatch(/Searched the web \(you asked\): read 2 pages via SearXNG/);
  });

  it("without a provider: says how to enable it, and the run ends as before", async () => {
    replaceEnv(base);
    const res = await cli("research", QUESTION, "--web", "--json");
    expect(res.stderr).toContain("Web search is off: set LECTERN_SEARXNG_URL");
    const out = JSON.parse(res.stdout) as { steps: { id: string }[]; error?: { code: string } };
    expect(out.steps.map((s) => s.id)).not.toContain("web_search");
    expect(out.error?.code).toBe("no_papers");
  });
});

describe("npm run cli -- research --as <email>", () => {
  it("makes the run that account's (to open in the app), and refuses an unknown account or one that may not research", async () => {
    replaceEnv(base);
    for (const [email, role] of [
      ["ada@lab.test", "member"],
      ["vic@lab.test", "viewer"],
    ]) {
      const add = await cli(
        "user",
        "add",
        email as string,
        "--name",
        "X",
        "--role",
        role as string,
        "--password",
        "a long enough password",
      );
      expect(add.code, add.stderr).toBe(0);
    }
    const people = await cli("user", "list", "--json");
    const ada = (JSON.parse(people.stdout) as { people: { id: string; email: string }[] }).people.find(
      (p) => p.email === "ada@lab.test",
    );
    const res = await cli("research", QUESTION, "--as", "Ada@Lab.test", "--json");
    const out = JSON.parse(res.stdout) as { run_id: string };
    expect((await getRun((lib as CliLibrary).handle.db, out.run_id))?.ownerId).toBe(ada?.id);
    // without it the run has no author
    const anonymous = JSON.parse((await cli("research", QUESTION, "--json")).stdout) as { run_id: string };
    expect((await getRun((lib as CliLibrary).handle.db, anonymous.run_id))?.ownerId).toBeNull();
    const unknown = await cli("research", QUESTION, "--as", "nobody@lab.test", "--json");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("no account for nobody@lab.test");
    const viewer = await cli("research", QUESTION, "--as", "vic@lab.test", "--json");
    expect(viewer.code).not.toBe(0);
    expect(viewer.stderr).toContain("may not research");
  });
});
