import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { briefError, LecternError } from "@/lib/errors";
import { editPaperMetadata } from "@/lib/library/metadata";
import { info, printJson } from "../output";

const USAGE = `usage: npm run cli -- edit <paper_id> [--title "…"] [--authors "A; B"] [--year N] [--date YYYY-MM-DD]
                          [--categories cs.CL,cs.LG] [--doi 10.…] [--arxiv 1706.03762v5] [--json]
  "none" clears --year, --date, --categories, --doi, --arxiv (and --authors)`;

const options = {
  title: { type: "string" },
  authors: { type: "string" },
  year: { type: "string" },
  date: { type: "string" },
  categories: { type: "string" },
  doi: { type: "string" },
  arxiv: { type: "string" },
  json: { type: "boolean" },
} as const;

/** The edit the options ask for (lib/library/metadata.ts validates it). */
export function editFromOptions(values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const edit: Record<string, unknown> = {};
  const given = (key: string): string | undefined => {
    const v = values[key];
    if (v === true) throw new LecternError("bad_request:input", `--${key} needs a value.\n${USAGE}`);
    return typeof v === "string" ? v : undefined;
  };
  const cleared = (v: string) => v.trim().toLowerCase() === "none";
  const title = given("title");
  if (title !== undefined) edit.title = title;
  const authors = given("authors");
  if (authors !== undefined) edit.authors = cleared(authors) ? [] : authors.split(";");
  const year = given("year");
  if (year !== undefined) edit.year = cleared(year) ? null : /^\d+$/.test(year.trim()) ? Number(year) : year;
  const date = given("date");
  if (date !== undefined) edit.publishedDate = cleared(date) ? null : date;
  const categories = given("categories");
  if (categories !== undefined) edit.categories = cleared(categories) ? [] : categories.split(/[,\s]+/);
  const doi = given("doi");
  if (doi !== undefined) edit.doi = cleared(doi) ? null : doi;
  const arxiv = given("arxiv");
  if (arxiv !== undefined) edit.arxivId = cleared(arxiv) ? null : arxiv;
  return edit;
}

/** Corrects a paper's metadata; waits for the library step a new title starts (the process ends after). */
export async function runEdit(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: false, options });
  const paperId = positionals[0];
  if (!paperId) {
    info(USAGE);
    return 2;
  }
  const edit = editFromOptions(values);
  if (Object.keys(edit).length === 0) throw new LecternError("bad_request:input", `Nothing to change.\n${USAGE}`);
  let embedder: EmbeddingProvider | null = null;
  try {
    embedder = getEmbeddingProvider(getEnv());
  } catch (e) {
    info(`No embedder (${briefError(e)}): the passages' neighbours are refreshed at the next start.`);
  }
  const t0 = performance.now();
  const r = await editPaperMetadata({ db: handle.db, embedder }, paperId, edit);
  if (!r) throw new LecternError("not_found:paper", `No paper with id ${paperId} in the library.`);
  await r.vectors;
  const ms = Math.round(performance.now() - t0);
  if (json) {
    printJson({ paper_id: r.paperId, changed: r.changed, metadata: r.metadata, reindexed: r.reindexed, ms });
    return 0;
  }
  if (r.changed.length === 0) {
    info(`Nothing changed: ${paperId} already has that metadata.`);
    return 0;
  }
  const m = r.metadata;
  const lines = [
    `Corrected ${r.changed.join(", ")} of ${r.paperId}${r.reindexed ? ` (${r.reindexed} passages re-indexed)` : ""} in ${ms} ms`,
    `  title       ${m.title}`,
    `  authors     ${m.authors.join("; ") || "—"}`,
    `  published   ${m.publishedDate ?? m.year ?? "—"}`,
    `  categories  ${m.categories.join(", ") || "—"}`,
    `  arXiv       ${m.arxivId ?? "—"}`,
    `  DOI         ${m.doi ?? "—"}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
