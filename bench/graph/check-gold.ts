/**
 * Checks the knowledge-graph gold set against a library (bench/graph/README.md):
 *   npx tsx bench/graph/check-gold.ts [gold.json ...] [--json]
 * Default file: bench/graph/gold-dev.json only (the held-out file is checked by naming it; do not read it while
 * building or tuning the extractor). Opens the library as the CLI does: DATABASE_URL, else LECTERN_DATA_DIR.
 *
 * For every edge: the relation is in the vocabulary, the entity types in the ontology, no self edge, the quote is at
 * most 300 characters and is on its stated page of the stored text (whitespace and line-break hyphens normalised,
 * lib/graph/eval.ts), and the source and target names (or an alias) occur in the quote — the paper's own main entity
 * may stand as the source of a quote that speaks for the paper ("we use …"). Also: unique edge ids, every edge's paper
 * listed in its file, no paper in two files. Prints counts per relation; exits 1 on any failure.
 */
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { openDatabase } from "@/db";
import { pages } from "@/db/schema";
import { getEnv } from "@/lib/env";
import {
  type GoldEdge,
  type GoldFile,
  GRAPH_RELATIONS,
  type GraphRelation,
  goldEdgeProblems,
  nameInQuote,
  quoteOnPage,
} from "@/lib/graph/eval";

interface FileReport {
  file: string;
  split: string;
  papers: number;
  edges: number;
  perRelation: Record<GraphRelation, number>;
  implicitSource: number;
  failures: { id: string; problems: string[] }[];
}

function readGold(file: string): GoldFile {
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<GoldFile>;
  if (!Array.isArray(raw.edges) || !Array.isArray(raw.papers)) throw new Error(`${file}: no "edges" or "papers" array`);
  return raw as GoldFile;
}

async function main() {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const here = path.dirname(new URL(import.meta.url).pathname);
  const files = args.filter((a) => !a.startsWith("--"));
  if (files.length === 0) files.push(path.join(here, "gold-dev.json"));

  const env = getEnv();
  const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: env.dataDir, role: "bench:graph-gold" });
  const pageCache = new Map<string, string | null>();
  const pageText = async (paperId: string, page: number): Promise<string | null> => {
    const key = `${paperId}#${page}`;
    if (!pageCache.has(key)) {
      const rows = await handle.db
        .select({ text: pages.text })
        .from(pages)
        .where(and(eq(pages.paperId, paperId), eq(pages.pageNumber, page)));
      pageCache.set(key, rows[0]?.text ?? null);
    }
    return pageCache.get(key) ?? null;
  };

  const reports: FileReport[] = [];
  const paperFile = new Map<string, string>();
  const ids = new Set<string>();
  try {
    for (const file of files) {
      const gold = readGold(file);
      const report: FileReport = {
        file: path.relative(process.cwd(), file),
        split: gold.split,
        papers: gold.papers.length,
        edges: gold.edges.length,
        perRelation: Object.fromEntries(GRAPH_RELATIONS.map((r) => [r, 0])) as Record<GraphRelation, number>,
        implicitSource: 0,
        failures: [],
      };
      const mains = new Map(gold.papers.map((p) => [p.paper_id, p.main_entity]));
      for (const p of gold.papers) {
        const other = paperFile.get(p.paper_id);
        if (other && other !== file) report.failures.push({ id: p.paper_id, problems: [`paper also in ${other}`] });
        paperFile.set(p.paper_id, file);
      }
      for (const e of gold.edges as GoldEdge[]) {
        const problems = goldEdgeProblems(e, mains.get(e.paper_id));
        if (ids.has(e.id)) problems.push("duplicate id");
        ids.add(e.id);
        if (!mains.has(e.paper_id)) problems.push(`paper ${e.paper_id} not listed in the file's papers`);
        if (e.source?.name && typeof e.quote === "string" && !nameInQuote(e.source, e.quote)) report.implicitSource++;
        const text = Number.isInteger(e.page) ? await pageText(e.paper_id, e.page) : null;
        if (text === null) problems.push(`no page ${e.page} of ${e.paper_id} in the library`);
        else if (!quoteOnPage(text, e.quote)) problems.push(`quote not on page ${e.page}`);
        if ((GRAPH_RELATIONS as readonly string[]).includes(e.relation)) report.perRelation[e.relation]++;
        if (problems.length) report.failures.push({ id: e.id, problems });
      }
      reports.push(report);
    }
  } finally {
    await handle.close();
  }

  const failed = reports.reduce((n, r) => n + r.failures.length, 0);
  if (json) {
    process.stdout.write(`${JSON.stringify({ library: handle.location, reports, failed }, null, 2)}\n`);
  } else {
    console.log(`library: ${handle.location}`);
    for (const r of reports) {
      const rel = GRAPH_RELATIONS.map((k) => `${k} ${r.perRelation[k]}`).join(", ");
      console.log(`${r.file} (${r.split}): ${r.edges} edges over ${r.papers} papers — ${rel}`);
      console.log(`  source given by the paper's own "we/our/the method": ${r.implicitSource}`);
      for (const f of r.failures) console.log(`  FAIL ${f.id}: ${f.problems.join("; ")}`);
    }
    console.log(failed === 0 ? "all gold edges check out" : `${failed} failing`);
  }
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
