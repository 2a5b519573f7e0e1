import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { searchContent, searchedRespelled, searchSummaries } from "@/lib/search/search";
import { info, printJson } from "../output";

const USAGE =
  'usage: npm run cli -- search "<query>" [--index content|summary] [--top-k N] [--papers id,id] [--years 2019-2024] [--include-references] [--json]';

/** `2019-2024`, `2019-` or `-2024`, or one year. */
export function parseYears(s: string): { yearFrom?: number; yearTo?: number } {
  const m = /^\s*(\d{4})?\s*(-)?\s*(\d{4})?\s*$/.exec(s);
  if (!m || (!m[1] && !m[3]))
    throw new LecternError("bad_request:query", `--years wants a range like 2019-2024, not "${s}".`);
  const from = m[1] ? Number(m[1]) : undefined;
  const to = m[3] ? Number(m[3]) : m[2] ? undefined : from;
  return { yearFrom: from, yearTo: to };
}

export async function runSearch(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: {
      index: { type: "string", default: "content" },
      "top-k": { type: "string" },
      papers: { type: "string" },
      years: { type: "string" },
      category: { type: "string" },
      "include-references": { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  const query = positionals.join(" ");
  if (positionals.length === 0) {
    info(USAGE);
    return 2;
  }
  const index = String(values.index);
  if (index !== "content" && index !== "summary")
    throw new LecternError("bad_request:query", `--index is content or summary.\n${USAGE}`);
  if (index === "summary" && values["include-references"] === true) {
    throw new LecternError(
      "bad_request:query",
      "--include-references applies to --index content: the summaries have no reference lists.",
    );
  }
  const topK = values["top-k"] === undefined ? undefined : Number(values["top-k"]);
  if (topK !== undefined && !(Number.isInteger(topK) && topK > 0)) {
    throw new LecternError("bad_request:query", "--top-k wants a positive whole number.");
  }
  const opts = {
    k: topK,
    paperIds:
      typeof values.papers === "string"
        ? values.papers
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined,
    ...(typeof values.years === "string" ? parseYears(values.years) : {}),
    category: typeof values.category === "string" ? values.category : undefined,
    // content search leaves the papers' reference lists out unless asked
    includeBibliography: values["include-references"] === true,
  };
  const embedder = getEmbeddingProvider(getEnv());
  const started = performance.now();
  const rows =
    index === "content"
      ? (await searchContent(handle.db, query, embedder, opts)).map((r) => ({
          paper_id: r.paperId,
          page: r.page,
          chunk_uid: r.chunkUid,
          char_start: r.charStart,
          char_end: r.charEnd,
          score: r.score,
          title: r.title,
          section: r.section,
          bibliography: r.bibliography,
          text: r.text,
          fts: r.fts,
          vector: r.vector,
          sentence: r.sentence,
        }))
      : (await searchSummaries(handle.db, query, embedder, opts)).flatMap((p) =>
          p.passages.slice(0, 1).map((s) => ({
            paper_id: p.paperId,
            page: s.pages[0] ?? null,
            chunk_uid: s.chunkUid,
            char_start: s.charStart,
            char_end: s.charEnd,
            score: p.score,
            title: p.title,
            section: null,
            bibliography: false,
            text: s.text,
            fts: s.fts,
            vector: s.vector,
            sentence: null,
          })),
        );
  const ms = performance.now() - started;
  // words looked for under the library's spelling: said on stderr (stdout stays the results)
  for (const r of await searchedRespelled(handle.db, query, index === "content" ? "chunks" : "summary_chunks")) {
    info(`searched “${r.written}” as “${r.searched}”: not in the library as typed`);
  }
  if (json) {
    printJson(rows.map(({ fts: _f, vector: _v, sentence: _s, ...r }) => r));
    info(`${rows.length} results in ${ms.toFixed(0)} ms`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write("No results passed the relevance cutoff.\n");
    return 0;
  }
  const out: string[] = [];
  rows.forEach((r, i) => {
    const why = [
      r.fts ? `full-text #${r.fts.rank} (${r.fts.score.toFixed(2)})` : "full-text —",
      r.vector ? `vector #${r.vector.rank} (${r.vector.score.toFixed(3)})` : "vector —",
      ...(r.sentence ? [`best sentence #${r.sentence.rank} (${r.sentence.score.toFixed(2)})`] : []),
      `fused ${r.score.toFixed(4)}`,
    ].join(" · ");
    out.push(`${String(i + 1).padStart(2)}. ${r.title} — ${r.paper_id}${r.page ? ` p.${r.page}` : ""}`);
    if (r.section) out.push(`    § ${r.section}${r.bibliography ? " (reference list)" : ""}`);
    out.push(`    ${why}`);
    out.push(`    ${r.text.replace(/\s+/g, " ").slice(0, 220)}${r.text.length > 220 ? "…" : ""}`);
  });
  out.push(`${rows.length} results in ${ms.toFixed(0)} ms`);
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
