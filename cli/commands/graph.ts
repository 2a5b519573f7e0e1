import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getChatModel } from "@/lib/ai/providers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { buildGraph, type GraphBuildReport } from "@/lib/graph/build";
import {
  type EntityResolution,
  type GraphEdgeResult,
  graphStats,
  lookupEntity,
  queryRelation,
} from "@/lib/graph/query";
import { isRelation, RELATIONS } from "@/lib/graph/types";
import { info, printJson } from "../output";

const USAGE = `usage: npm run cli -- graph <build|query|entity|stats> [options] [--json]
  graph build [--papers id,id] [--model]      extract the knowledge graph (offline rules; --model: the configured LLM)
  graph query --relation R (--target "X" | --source "X") [--transitive] [--include-review] [--limit N]
                                              edges with their evidence, best first (R: ${RELATIONS.join(", ")})
  graph entity "<name>" [--include-review]    an entity: aliases, relations by type, co-occurring entities
  graph stats                                 entities per type, edges per relation and status`;

/** `npm run cli -- graph …` */
export async function runGraph(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const [sub, ...rest] = args.filter((a) => a !== "--json");
  switch (sub) {
    case "build":
      return graphBuild(handle, rest, json);
    case "query":
      return graphQuery(handle, rest, json);
    case "entity":
      return graphEntity(handle, rest, json);
    case "stats":
      return graphStatsCommand(handle, json);
    default:
      info(USAGE);
      return 2;
  }
}

async function graphBuild(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: false,
    options: { papers: { type: "string" }, model: { type: "boolean" } },
  });
  const env = getEnv();
  const paperIds =
    typeof values.papers === "string"
      ? values.papers
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  if (paperIds && paperIds.length === 0) throw new LecternError("bad_request:query", "--papers wants paper ids.");
  const model = values.model === true ? getChatModel(env) : null;
  if (values.model === true && !model) {
    throw new LecternError(
      "bad_request:query",
      "--model needs a configured model (OPENAI_API_KEY or OPENAI_BASE_URL); without it the build is offline.",
    );
  }
  let embedder = null;
  try {
    embedder = getEmbeddingProvider(env);
  } catch {
    // no embedder: no entity vectors, no tier-B links
  }
  info(
    `Building the knowledge graph (${model ? (typeof model === "string" ? model : model.modelId) : "offline rules"})…`,
  );
  const report = await buildGraph(handle.db, {
    paperIds,
    model,
    embedder,
    callTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
    onProgress: (e) => {
      if (e.type === "paper") info(`  ${e.stage} ${e.done + 1}/${e.of} ${e.paperId}`);
      else info(`  ${e.detail}`);
    },
  });
  const stats = await graphStats(handle.db);
  if (json) {
    printJson({ report, stats });
    return report.failed.length > 0 && report.papers === 0 ? 1 : 0;
  }
  process.stdout.write(`${formatReport(report)}\n${formatStats(stats)}\n`);
  return report.failed.length > 0 && report.papers === 0 ? 1 : 0;
}

function formatReport(r: GraphBuildReport): string {
  const rejected = Object.entries(r.rejected)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  const lines = [
    `${r.papers} papers in ${(r.durationMs / 1000).toFixed(1)} s (${r.extractor})`,
    `candidates ${r.candidates}: accepted ${r.accepted}, review ${r.review}, rejected ${rejected || "none"}`,
  ];
  if (r.extractor !== "rules") lines.push(`malformed model output ${r.malformed}, sections failed ${r.failedSections}`);
  const { withdrawn } = r.aliases.tierB;
  lines.push(
    `aliases linked: tier A ${r.aliases.tierA}, tier B ${r.aliases.tierB.linked} (${r.aliases.tierB.suggested} suggested for review${withdrawn > 0 ? `, ${withdrawn} earlier ones withdrawn` : ""})`,
  );
  for (const f of r.failed) lines.push(`failed: ${f.paperId}: ${f.error}`);
  return lines.join("\n");
}

function formatStats(s: Awaited<ReturnType<typeof graphStats>>): string {
  return [
    `Entities ${s.totals.entities} (+${s.totals.aliases} aliases): ${s.entities.map((e) => `${e.type} ${e.count}`).join(", ") || "none"}`,
    `Edges ${s.totals.edges}: accepted ${s.totals.accepted}, review ${s.totals.review}, rejected ${s.totals.rejected}`,
    ...RELATIONS.map((rel) => {
      const of = s.edges.filter((e) => e.relation === rel);
      return `  ${rel.padEnd(13)} ${of.map((e) => `${e.status} ${e.count}`).join(", ") || "0"}`;
    }),
  ].join("\n");
}

/** The CLI's edge shape (issue 22): what `graph query --json` prints, best first. */
export function edgeJson(e: GraphEdgeResult) {
  return {
    relation: e.relation,
    source: { name: e.source.name, type: e.source.type },
    target: { name: e.target.name, type: e.target.type },
    paper_id: e.paper_id,
    page: e.page,
    quote: e.quote.replace(/\s+/g, " ").trim(),
    confidence: e.confidence,
    ...(e.path ? { path: e.path } : {}),
  };
}

function notFound(r: Extract<EntityResolution, { found: false }>, json: boolean): number {
  if (json) printJson({ error: { code: "not_found:entity", message: r.message }, suggestions: r.suggestions });
  else info(r.message);
  return 1;
}

async function graphQuery(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: false,
    options: {
      relation: { type: "string" },
      target: { type: "string" },
      source: { type: "string" },
      transitive: { type: "boolean" },
      "include-review": { type: "boolean" },
      limit: { type: "string" },
    },
  });
  const relation = values.relation;
  if (relation !== undefined && !isRelation(relation)) {
    throw new LecternError(
      "bad_request:query",
      `--relation is one of ${RELATIONS.join(", ")}, not "${String(relation)}".`,
    );
  }
  const target = typeof values.target === "string" ? values.target : undefined;
  const source = typeof values.source === "string" ? values.source : undefined;
  if ((target === undefined) === (source === undefined)) {
    throw new LecternError("bad_request:query", `graph query wants --target "X" or --source "X".\n${USAGE}`);
  }
  if (values.transitive === true && target === undefined) {
    throw new LecternError("bad_request:query", "--transitive follows edges into a --target.");
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    throw new LecternError("bad_request:query", "--limit wants a positive whole number.");
  }
  const answer = await queryRelation(handle.db, {
    relation: relation as Parameters<typeof queryRelation>[1]["relation"],
    target,
    source,
    transitive: values.transitive === true,
    includeReview: values["include-review"] === true,
    limit,
  });
  if (!answer.found) return notFound(answer, json);
  if (json) {
    printJson(answer.edges.map(edgeJson));
    return 0;
  }
  if (answer.edges.length === 0) {
    info(`No ${relation ?? ""} edges ${target !== undefined ? "into" : "from"} “${answer.entity.name}”.`);
    return 0;
  }
  for (const e of answer.edges) {
    const path = e.path ? `  via ${e.path.join(" → ")}` : "";
    process.stdout.write(
      `${e.source.name} —${e.relation}→ ${e.target.name}  (${e.confidence.toFixed(2)})${path}\n` +
        `  ${e.paper_id}, page ${e.page}: “${e.quote.replace(/\s+/g, " ").trim()}”\n`,
    );
  }
  return 0;
}

async function graphEntity(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { "include-review": { type: "boolean" } },
  });
  const name = positionals.join(" ").trim();
  if (!name) {
    info(USAGE);
    return 2;
  }
  const answer = await lookupEntity(handle.db, name, { includeReview: values["include-review"] === true });
  if (!answer.found) return notFound(answer, json);
  if (json) {
    printJson({
      entity: answer.entity,
      aliases: answer.aliases,
      papers: answer.papers,
      relations: answer.relations.map((r) => ({ ...r, edges: r.edges.map(edgeJson) })),
      cooccurring: answer.cooccurring,
    });
    return 0;
  }
  const out = [
    `${answer.entity.name} (${answer.entity.type}) — mentioned by ${answer.papers} paper${answer.papers === 1 ? "" : "s"}`,
  ];
  if (answer.entity.description) out.push(`  ${answer.entity.description}`);
  if (answer.aliases.length > 0) out.push(`  also: ${answer.aliases.map((a) => `${a.name} [${a.tier}]`).join(", ")}`);
  for (const r of answer.relations) {
    out.push(`${r.direction === "out" ? `${r.relation} →` : `← ${r.relation}`} (${r.edges.length})`);
    for (const e of r.edges.slice(0, 10)) {
      const other = r.direction === "out" ? e.target.name : e.source.name;
      out.push(`  ${other}  ${e.paper_id}${e.year ? ` (${e.year})` : ""}, page ${e.page}`);
    }
  }
  if (answer.cooccurring.length > 0) {
    out.push(`co-occurs with: ${answer.cooccurring.map((c) => `${c.name} (${c.papers})`).join(", ")}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}

async function graphStatsCommand(handle: DbHandle, json: boolean): Promise<number> {
  const stats = await graphStats(handle.db);
  if (json) printJson(stats);
  else process.stdout.write(`${formatStats(stats)}\n`);
  return 0;
}
