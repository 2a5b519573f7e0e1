/**
 * Checks the ingestion heuristics on the real corpus: extract → clean → metadata for every PDF in
 * /work/shared/corpus (or the directory given as the first argument), compared with papers.json.
 * Run: npx tsx bench/check-metadata.ts [corpusDir]
 */
import fs from "node:fs";
import path from "node:path";
import { cleanPages } from "@/lib/ingest/clean";
import { extractPdf } from "@/lib/ingest/extract";
import { extractMetadata } from "@/lib/ingest/metadata";

interface Expected {
  id: string;
  file: string;
  title: string;
  authors: string[];
  year?: number;
  arxiv_id?: string;
  arxiv_id_source?: string;
  pages: number;
}

const corpusDir = process.argv[2] ?? "/work/shared/corpus";
const expected = JSON.parse(fs.readFileSync(path.join(corpusDir, "papers.json"), "utf8")) as Expected[];

/** Case, punctuation and spacing folded: the comparison ignores "—" vs ":" and all-caps styling. */
const fold = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

let idsRight = 0;
let idsExpected = 0;
let noIdRight = 0;
let pagesRight = 0;
let titlesRight = 0;
let yearsRight = 0;
let authorsExact = 0;
let authorsFirstRight = 0;
let abstracts = 0;
let totalPages = 0;
let extractMs = 0;
const rows: string[] = [];

for (const paper of expected) {
  const file = path.join(corpusDir, paper.file);
  const bytes = new Uint8Array(fs.readFileSync(file));
  // warm per-page time: extract twice, time the second run
  await extractPdf(bytes);
  const t0 = performance.now();
  const extracted = await extractPdf(bytes);
  extractMs += performance.now() - t0;
  totalPages += extracted.pageCount;
  const pages = cleanPages(extracted.pages);
  const meta = extractMetadata({ pages, info: extracted.info, fileName: path.basename(file) });

  const baseId = meta.arxivId?.replace(/v\d+$/, "");
  // Papers whose PDF and file name carry no arXiv id (published versions) are right when we find none.
  const derivable = paper.arxiv_id_source !== "recalled" || /^\d{4}\.\d{4,5}/.test(path.basename(file));
  const idOk = derivable ? baseId === paper.arxiv_id : baseId === undefined || baseId === paper.arxiv_id;
  if (derivable) {
    idsExpected++;
    if (idOk) idsRight++;
  } else if (idOk) noIdRight++;
  const pagesOk = extracted.pageCount === paper.pages;
  const titleOk = fold(meta.title) === fold(paper.title);
  const yearOk = meta.year === paper.year;
  const authorsOk =
    meta.authors.length === paper.authors.length &&
    meta.authors.every((a, i) => fold(a) === fold(paper.authors[i] ?? ""));
  const firstOk = fold(meta.authors[0] ?? "") === fold(paper.authors[0] ?? "");
  if (pagesOk) pagesRight++;
  if (titleOk) titlesRight++;
  if (yearOk) yearsRight++;
  if (authorsOk) authorsExact++;
  if (firstOk) authorsFirstRight++;
  if (meta.abstract) abstracts++;
  rows.push(
    [
      `${idOk ? "✓" : "✗"} id ${meta.arxivId ?? "-"} (want ${derivable ? paper.arxiv_id : "none"})`,
      `${pagesOk ? "✓" : "✗"} pages ${extracted.pageCount}/${paper.pages}`,
      `${yearOk ? "✓" : "✗"} year ${meta.year}/${paper.year}`,
      `${titleOk ? "✓" : "✗"} title: ${meta.title}${titleOk ? "" : `\n      want: ${paper.title}`}`,
      `${authorsOk ? "✓" : firstOk ? "~" : "✗"} authors (${meta.authors.length}/${paper.authors.length}): ${meta.authors.slice(0, 4).join("; ")}${meta.authors.length > 4 ? " …" : ""}`,
      `  abstract: ${meta.abstract ? `${meta.abstract.slice(0, 70)}… (${meta.abstract.length} chars)` : "-"}`,
      `  categories ${meta.categories.join(",") || "-"} date ${meta.publishedDate ?? "-"} doi ${meta.doi ?? "-"}`,
    ].join("\n    "),
  );
}

console.log(rows.map((r, i) => `${expected[i]?.file}\n    ${r}`).join("\n"));
const n = expected.length;
console.log(`
arXiv ids right:   ${idsRight}/${idsExpected} with an id in the PDF or file name; ${noIdRight}/${n - idsExpected} without one correctly left empty (${idsRight + noIdRight}/${n})
page counts right: ${pagesRight}/${n}
titles right:      ${titlesRight}/${n}
years right:       ${yearsRight}/${n}
authors exact:     ${authorsExact}/${n} (first author right ${authorsFirstRight}/${n})
abstracts found:   ${abstracts}/${n}
extraction (warm): ${totalPages} pages in ${(extractMs / 1000).toFixed(1)} s = ${(totalPages / (extractMs / 1000)).toFixed(0)} pages/s, ${(extractMs / totalPages).toFixed(1)} ms/page`);
