import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PaperSummary } from "@/components/paper/paper-summary";
import { TooltipProvider } from "@/components/ui/tooltip";
import type { DbHandle } from "@/db";
import { getPaperDetail } from "@/db/queries/papers";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { createIngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import { exportBibtex, exportMarkdown } from "@/lib/research/export";
import { runResearch } from "@/lib/research/orchestrator";
import type { ResearchRunState } from "@/lib/research/types";
import { makeTestPdf } from "@/lib/testing/pdf";
import { AnswerMarkdown } from "./answer-view";

/**
 * Paper text is untrusted: a paper whose title and text hold a remote image (a beacon telling its host who reads the
 * paper) and a link to a phishing page, ingested for real and asked about offline. Its summary and the answer quoting
 * it render that text as text: no <img> (so nothing is requested from 127.0.0.1:9) and no link to evil.example.
 */

const BEACON = "![x](http://127.0.0.1:9/beacon.gif)";
const PHISH = "[login](https://evil.example)";
const BARE = "https://evil.example/bare";
const TITLE = `Tidal Harbour Sensing ${BEACON} ${PHISH}`;
const PAGES = [
  [
    "arXiv:2403.05555v1 [physics.ao-ph] 9 Mar 2024",
    TITLE,
    "Mary Somerville",
    "Abstract",
    `Tidal harbour sensors measure the lunar drift of harbour water ${BEACON} across whole seasons.`,
  ].join("\n"),
  [
    "2 Results",
    `The tidal harbour sensors recorded lunar drift within two millimetres on every mooring ${BEACON} in the winter.`,
    `The tidal harbour sensors recorded lunar drift within three millimetres on every mooring ${PHISH} in the summer.`,
    `The tidal harbour sensors recorded lunar drift on every mooring as the protocol at ${BARE} asks of them.`,
  ].join("\n"),
];
const QUESTION = "What lunar drift did the tidal harbour sensors record on every mooring?";

let handle: DbHandle;
let dataDir: string;
let run: ResearchRunState;
let paperId = "";

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-untrusted-"));
  const embedder = createHashingEmbedder({ dimensions: 256 });
  const ctx = createIngestContext(handle, { dataDir, maxUploadBytes: 5 * 1024 * 1024, embedder, chatModel: null });
  const bytes = await makeTestPdf({ pages: PAGES, title: TITLE, author: "Mary Somerville" });
  const [result] = await ingestFiles([{ name: "tidal.pdf", size: bytes.byteLength, read: async () => bytes }], ctx);
  expect(result?.status).toBe("ingested");
  paperId = result?.paper_id ?? "";
  run = await runResearch(
    { db: handle.db, embedder, chatModel: null, llmTimeoutMs: 5_000, runTimeoutMs: 60_000 },
    QUESTION,
    { runId: "untrusted", onEvent: () => {} },
  );
});

afterAll(async () => {
  await handle?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every <img> and every <a href> of some HTML. */
function imagesAndLinks(html: string): { images: string[]; links: string[] } {
  return {
    images: [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]),
    links: [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1] as string),
  };
}

describe("a paper's hostile title and text", () => {
  it("were ingested as written (the attack is in the library)", async () => {
    const detail = await getPaperDetail(handle.db, { id: paperId });
    expect(detail?.paper.title).toContain(BEACON);
    expect(run.status).toBe("completed");
    // the offline answer quotes the sentences that hold them
    expect(run.answer).toContain("lunar drift");
    expect(run.answer).toContain("login");
    expect(run.answer).toContain("beacon.gif");
  });

  it("the offline answer renders them as text: no image, no link to evil.example, not even the bare URL", () => {
    const html = renderToStaticMarkup(
      <TooltipProvider>
        <AnswerMarkdown
          markdown={run.answer}
          citations={run.citations}
          references={run.references}
          onOpenCitation={() => {}}
          streaming={false}
        />
      </TooltipProvider>,
    );
    const { images, links } = imagesAndLinks(html);
    expect(images).toEqual([]);
    expect(links).toEqual([]);
    expect(html).toContain("[login](https://evil.example)");
    expect(html).toContain("![x](http://127.0.0.1:9/beacon.gif)");
    // the citations still became chips, and the claims still verify
    expect(html).toContain('data-testid="citation-chip"');
    expect(run.citations.length).toBeGreaterThan(0);
    expect(run.citations.every((c) => c.supported)).toBe(true);
  });

  it("the summary renders them as text: no image, and only its own page links", async () => {
    const detail = await getPaperDetail(handle.db, { id: paperId });
    const summary = detail?.summary;
    expect(summary?.text).toContain("beacon.gif");
    const html = renderToStaticMarkup(
      <PaperSummary
        summary={summary ? { text: summary.text, method: summary.method, model: summary.model, createdAt: "" } : null}
      />,
    );
    const { images, links } = imagesAndLinks(html);
    expect(images).toEqual([]);
    expect(links.every((href) => href.startsWith("?page="))).toBe(true);
    expect(html).toContain("![x](http://127.0.0.1:9/beacon.gif)");
  });

  it("the exports carry no HTML and load no image", () => {
    const md = exportMarkdown(run) ?? "";
    expect(md).not.toMatch(/(^|[^\\])!\[x\]/);
    expect(md).not.toMatch(/(^|[^\\])\[login\]\(/);
    // the quoted sentences and the title are escaped text in the exported answer and its references
    expect(md).toContain("mooring \\!\\[x\\](http://127.0.0.1:9/beacon.gif) in the winter.");
    expect(md).toContain(
      "— Tidal Harbour Sensing \\!\\[x\\](http://127.0.0.1:9/beacon.gif) \\[login\\](https://evil.example).",
    );
    // BibTeX has no markdown: the title as written, its LaTeX specials (none here) escaped
    expect(exportBibtex(run.references)).toContain(`title = {${TITLE}}`);
  });
});
