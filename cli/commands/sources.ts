import fs from "node:fs";
import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getEnv } from "@/lib/env";
import { createExtractionPool } from "@/lib/ingest/extract-pool";
import { createIngestContext, type IngestContext } from "@/lib/ingest/pipeline";
import { getJobQueue, type JobQueue } from "@/lib/jobs/queue";
import { startWorker } from "@/lib/jobs/worker";
import { getArxivClient } from "@/lib/sources/arxiv";
import { addFromArxiv } from "@/lib/sources/arxiv-add";
import { searchArxiv } from "@/lib/sources/arxiv-search";
import { parseBibliography } from "@/lib/sources/bibliography";
import { importBibliography } from "@/lib/sources/import";
import { findBibliographyFile, folderResolver } from "@/lib/sources/import-files";
import type { SourceItemResult, SourceProgressEvent, SourceStage } from "@/lib/sources/types";
import { info, printJson } from "../output";

/**
 * `add` (papers by arXiv id or URL), `arxiv search`, and `import` (a Zotero/BibTeX/CSL JSON export). Progress goes to
 * stderr, one line per item and stage; with --json, stdout carries the results.
 */

const STATUS_LABEL: Record<SourceItemResult["status"], string> = {
  ingested: "✓ added",
  replaced: "↻ replaced",
  already_in_library: "= already in library",
  update_available: "↑ newer version available",
  arxiv_available: "⇣ on arXiv",
  no_pdf: "· metadata only, no PDF",
  queued: "… queued",
  error: "✗ error",
};

const STAGE_LABEL: Record<SourceStage, string> = {
  looking_up: "looking up on arXiv",
  downloading: "downloading the PDF",
  validating: "validating",
  extracting: "extracting text",
  chunking: "splitting into passages",
  summarizing: "summarizing",
  embedding: "embedding",
  saving: "saving",
};

/** Prints each item's stages and end on stderr. */
function progressPrinter(): (e: SourceProgressEvent) => void {
  const labels = new Map<number, string>();
  let total = 0;
  const last = new Map<number, string>();
  return (e) => {
    if (e.type === "items") {
      total = e.items.length;
      for (const it of e.items) labels.set(it.index, it.label);
    } else if (e.type === "item_stage") {
      const frac = e.of ? ` ${e.done ?? 0}/${e.of}` : "";
      const line = `[${e.index + 1}/${total}] ${labels.get(e.index)} · ${STAGE_LABEL[e.stage]}${frac}`;
      if (last.get(e.index) !== line) info(line);
      last.set(e.index, line);
    } else if (e.type === "item_done") {
      const r = e.result;
      const what =
        r.status === "error"
          ? r.error
          : [r.paper_id, r.title, r.pages ? `${r.pages} pages` : null, r.detail].filter(Boolean).join(" · ");
      info(`[${e.index + 1}/${total}] ${STATUS_LABEL[r.status]}  ${r.item}  ${what ?? ""}`);
    } else if (e.type === "library_done") {
      if (e.embedded > 0 || e.neighbours > 0) info(`Library vectors updated in ${(e.ms / 1000).toFixed(1)} s`);
    } else if (e.type === "library_error") {
      info(e.error);
    }
  };
}

/**
 * The job queue for an `add` or `import`: the PDFs are queued as jobs (downloads, then ingestion), as an upload's
 * are. This command then works them itself, beside any `npm run worker` processes on the same database (extraction in
 * a worker thread), unless `--enqueue-only` leaves them to those. Everything is stopped when `run` ends.
 */
async function withJobs<T>(
  handle: DbHandle,
  enqueueOnly: boolean,
  run: (ctx: IngestContext, queue: JobQueue) => Promise<T>,
): Promise<T> {
  const pool = enqueueOnly ? null : createExtractionPool(1);
  const ctx = createIngestContext(handle, pool ? { extract: pool.extract } : {});
  const queue = await getJobQueue(handle);
  const worker = enqueueOnly
    ? null
    : await startWorker(handle, { concurrency: 1, ctx, pollingIntervalSeconds: 0.5, log: (line) => info(line) });
  try {
    return await run(ctx, queue);
  } finally {
    await worker?.stop();
    await queue.stop();
    await pool?.close();
  }
}

function summary(results: SourceItemResult[]): string {
  const n = (s: SourceItemResult["status"]) => results.filter((r) => r.status === s).length;
  const parts = (Object.keys(STATUS_LABEL) as SourceItemResult["status"][])
    .filter((s) => n(s) > 0)
    .map((s) => `${n(s)} ${STATUS_LABEL[s].replace(/^\S+ /, "")}`);
  return `${results.length} items: ${parts.join(", ")}`;
}

export async function runAdd(handle: DbHandle, argv: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      replace: { type: "boolean", default: false },
      "enqueue-only": { type: "boolean", default: false },
      json: { type: "boolean" },
    },
  });
  const ids = positionals.map(String);
  if (ids.length === 0) {
    info("usage: npm run cli -- add <arXiv ids or URLs...> [--replace] [--enqueue-only] [--json]");
    return 2;
  }
  const env = getEnv();
  const enqueueOnly = values["enqueue-only"] === true;
  return withJobs(handle, enqueueOnly, async (ctx, queue) => {
    const results = await addFromArxiv(
      ids,
      { ctx, arxiv: getArxivClient(env), queue },
      { replace: values.replace === true, onProgress: progressPrinter(), follow: !enqueueOnly },
    );
    info(summary(results));
    if (results.some((r) => r.status === "update_available")) {
      info("Run again with --replace to replace the older versions.");
    }
    if (enqueueOnly && results.some((r) => r.status === "queued")) info("`npm run worker` downloads and ingests them.");
    if (json) printJson({ results });
    return results.some((r) => r.status === "error") ? 1 : 0;
  });
}

export async function runArxiv(handle: DbHandle, argv: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      author: { type: "string" },
      category: { type: "string" },
      max: { type: "string" },
      start: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const [sub, ...words] = positionals.map(String);
  if (sub !== "search") {
    info('usage: npm run cli -- arxiv search "<words>" [--author "Name"] [--category cs.CL] [--max 20] [--json]');
    return 2;
  }
  const max = values.max === undefined ? 20 : Number(values.max);
  if (!Number.isInteger(max) || max < 1 || max > 50) {
    info("--max must be a whole number from 1 to 50.");
    return 2;
  }
  const { total, results } = await searchArxiv(handle.db, getArxivClient(getEnv()), {
    query: words.join(" "),
    author: typeof values.author === "string" ? values.author : undefined,
    category: typeof values.category === "string" ? values.category : undefined,
    maxResults: max,
    start: values.start === undefined ? 0 : Number(values.start) || 0,
  });
  info(`${total} ${total === 1 ? "paper on arXiv matches" : "papers on arXiv match"}; showing ${results.length}.`);
  for (const r of results) {
    const have = r.in_library ? `  [in library as ${r.in_library.paper_id}]` : "";
    info(
      `${r.arxiv_id}  ${r.title} — ${r.authors.slice(0, 3).join(", ")}${r.authors.length > 3 ? " et al." : ""} (${r.published?.slice(0, 4) ?? "?"})${have}`,
    );
  }
  if (json) printJson({ total, results });
  return 0;
}

export async function runImport(handle: DbHandle, argv: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      "download-arxiv": { type: "boolean", default: false },
      "enqueue-only": { type: "boolean", default: false },
      json: { type: "boolean" },
    },
  });
  const [target] = positionals.map(String);
  if (!target || positionals.length > 1) {
    info(
      "usage: npm run cli -- import <export.bib | export.json | export folder> [--download-arxiv] [--enqueue-only] [--json]",
    );
    return 2;
  }
  const { file, baseDir } = findBibliographyFile(target);
  const bib = await parseBibliography(fs.readFileSync(file, "utf8"));
  info(
    `${file}: ${bib.format === "bibtex" ? "BibTeX" : "CSL JSON"}, ${bib.records.length + bib.failures.length} entries`,
  );
  const env = getEnv();
  const enqueueOnly = values["enqueue-only"] === true;
  return withJobs(handle, enqueueOnly, async (ctx, queue) => {
    const report = await importBibliography(
      bib,
      folderResolver(baseDir),
      { ctx, arxiv: getArxivClient(env), queue },
      { downloadArxiv: values["download-arxiv"] === true, onProgress: progressPrinter(), follow: !enqueueOnly },
    );
    const c = report.counts;
    info(
      `Imported: ${c.ingested} ingested${enqueueOnly ? `, ${c.queued} queued for \`npm run worker\`` : ""}, ` +
        `${c.already_present} already present, ${c.no_pdf} no PDF, ` +
        `${c.arxiv_available} on arXiv${values["download-arxiv"] ? "" : " (add them with --download-arxiv)"}, ${c.failed} failed`,
    );
    if (json) printJson(report);
    return c.failed > 0 ? 1 : 0;
  });
}
