import { getGraphCounts } from "@/db/queries/graph";
import type { GraphEdgeResult } from "@/lib/graph/query";
import {
  answerGraphQuestion,
  describeGraphQuestion,
  type GraphAnswer,
  type GraphQuestion,
  type ResolvedName,
} from "@/lib/graph/question";
import type { GraphRelation } from "@/lib/graph/types";
import { escapeMarkdown } from "@/lib/text/markdown";
import type { EvidencePassage } from "../citations";
import { citationOf } from "../compose";
import { pendingCard, type StepDefinition } from "../lifecycle";
import type { StepOf } from "../types";

declare module "@/lib/research/types" {
  interface StepDataByType {
    graph_search: GraphSearchData;
  }
}

/** One edge the step used, as its card shows it (a chip that opens the quote on its PDF page). */
export interface GraphEdgeChip {
  id: number;
  relation: GraphRelation;
  source: string;
  target: string;
  paperId: string;
  title: string;
  year: number | null;
  page: number;
  quote: string;
  charStart: number;
  charEnd: number;
  confidence: number;
  /** Transitive answers: the works from this edge's source to the asked one. */
  path?: string[];
}

export interface GraphSearchData {
  question: GraphQuestion;
  /** "what improves on BERT" */
  asked: string;
  /** Each name of the question: the entity it resolved to, or why not and close names. */
  names: { asked: string; entity: string | null; type: string | null; message: string | null; suggestions: string[] }[];
  edges: GraphEdgeChip[];
  /** The graph has no accepted edge at all (not built yet, or nothing extracted). */
  graphEmpty: boolean;
}

/** What the step hands on: the edges, as evidence passages synthesis cites like any other, and the offline section. */
export interface GraphFindings {
  edges: GraphEdgeResult[];
  evidence: EvidencePassage[];
  /** The answer's part built from the edges (offline synthesis leads with it, unless `apart`); "" when there are none. */
  markdown: string;
  /** A question relating two names the graph holds no edge between: its edges are about each name on its own, and
   *  the offline answer puts them after the passages' answer, not before. */
  apart?: boolean;
}

/** Edges listed for two names with no edge between them (each name's own relations; they answer the question less). */
export const GRAPH_EDGES_APART = 5;

/** Up to `limit` edges of two names apart, one of each name's in turn (best first within each), in their order. */
export function eachInTurn(answer: Pick<GraphAnswer, "names" | "edges">, limit: number): GraphEdgeResult[] {
  const ids = [...foundIds(answer)];
  const touches = (e: GraphEdgeResult, id: number) => e.source.id === id || e.target.id === id;
  const lists = ids.map((id) => answer.edges.filter((e) => touches(e, id)));
  const picked = new Set<GraphEdgeResult>();
  for (let i = 0; picked.size < limit && lists.some((l) => i < l.length); i++) {
    for (const l of lists) {
      const e = l[i];
      if (e && picked.size < limit) picked.add(e);
    }
  }
  return answer.edges.filter((e) => picked.has(e));
}

/** The entities of the names found (two for a question relating two names, when both were). */
function foundIds(answer: Pick<GraphAnswer, "names">): Set<number> {
  return new Set(answer.names.flatMap((n) => (n.found ? [n.entity.id] : [])));
}

/** Two names found, and an edge between them among `edges`. */
function edgeBetween(answer: Pick<GraphAnswer, "names" | "edges">): boolean {
  const ids = foundIds(answer);
  return ids.size === 2 && answer.edges.some((e) => ids.has(e.source.id) && ids.has(e.target.id));
}

/** A question relating two names the graph found, with no edge between them among `edges`. */
export function relatesApart(answer: Pick<GraphAnswer, "question" | "names" | "edges">): boolean {
  return answer.question.kind === "relate" && foundIds(answer).size === 2 && !edgeBetween(answer);
}

/** Edges the step uses at most (and the answer lists). */
export const GRAPH_EDGES = 10;

const VERB: Record<GraphRelation, string> = {
  improves_on: "improves on",
  extends: "extends",
  uses: "uses",
  evaluates_on: "is evaluated on",
  introduces: "introduces",
  compares_to: "is compared with",
};

/** An edge as an evidence passage: its quote, at its offsets on its page (what the viewer highlights). */
export function graphEvidence(edges: readonly GraphEdgeResult[]): EvidencePassage[] {
  return edges.map((e) => ({
    chunkUid: `graph:${e.id}`,
    paperId: e.paper_id,
    title: e.paper_title,
    page: e.page,
    charStart: e.char_start,
    charEnd: e.char_end,
    text: e.quote,
  }));
}

/**
 * `- **RoBERTa** improves on **BERT**: “quote” [P, page N]`, one line per edge. A line says only what its quote
 * states (a transitive answer's path is not claimed on it: its citation could not support the rest).
 */
export function graphEdgeLines(edges: readonly GraphEdgeResult[]): string[] {
  return edges.map((e) => {
    const quote = escapeMarkdown(e.quote.replace(/\s+/g, " ").trim());
    return `- **${escapeMarkdown(e.source.name)}** ${VERB[e.relation]} **${escapeMarkdown(e.target.name)}**: “${quote}” ${citationOf(e.paper_id, e.page)}`;
  });
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * The answer's graph part: a heading that says what the edges answer, and the edges with their evidence. Transitive
 * answers list the works that improve on the asked one directly first, then, under their own heading, those that
 * improve on one of them. For two names with no edge between them, the heading says the edges are about each name.
 */
export function composeGraphSection(answer: Pick<GraphAnswer, "question" | "names" | "edges">): string {
  const { question, names, edges } = answer;
  if (edges.length === 0) return "";
  const found = names.flatMap((n) => (n.found ? [n.entity] : []));
  let heading = `${capitalised(describeGraphQuestion(question))}, from the knowledge graph`;
  if (question.kind === "relate") {
    if (!edgeBetween(answer)) {
      // (the graph has no edge between them; the passages may still compare them, so nothing is said of that)
      const about = found.map((e) => e.name).join(" and ");
      heading = `What the knowledge graph holds about ${about}${found.length === 2 ? ", each on its own" : ""}`;
    }
  }
  const direct = edges.filter((e) => (e.depth ?? 1) <= 1);
  const further = edges.filter((e) => (e.depth ?? 1) > 1);
  const lines = [`## ${escapeMarkdown(heading)}`, "", ...graphEdgeLines(direct)];
  if (further.length > 0) {
    const target = escapeMarkdown(found[0]?.name ?? question.entities[0] ?? "");
    lines.push(
      "",
      `### Through other works: improving on a work that improves on ${target}`,
      "",
      ...graphEdgeLines(further),
    );
  }
  return lines.join("\n");
}

/** An edge as its chip shows it. */
export function graphEdgeChip(e: GraphEdgeResult): GraphEdgeChip {
  return {
    id: e.id,
    relation: e.relation,
    source: e.source.name,
    target: e.target.name,
    paperId: e.paper_id,
    title: e.paper_title,
    year: e.year,
    page: e.page,
    quote: e.quote,
    charStart: e.char_start,
    charEnd: e.char_end,
    confidence: e.confidence,
    ...(e.path ? { path: e.path } : {}),
  };
}

function nameRow(n: ResolvedName): GraphSearchData["names"][number] {
  return n.found
    ? { asked: n.asked, entity: n.entity.name, type: n.entity.type, message: null, suggestions: [] }
    : { asked: n.asked, entity: null, type: null, message: n.message, suggestions: n.suggestions.map((s) => s.name) };
}

/**
 * Graph search, for a question about how works relate ("which papers improve on BERT?", "what does RAG build on?",
 * "which methods are evaluated on HotpotQA?", "how does X relate to Y?"): the question's names resolved in the
 * knowledge graph (lib/graph) and the accepted edges that answer it, each with the verbatim quote that makes the
 * claim. Its edges become evidence that synthesis cites as `[PAPER_ID, page N]` and verification checks like any
 * passage. A name the graph does not hold is reported with close names; the run goes on with the passages.
 */
export const graphSearchStep: StepDefinition<StepOf<"graph_search">, GraphQuestion, GraphFindings> = {
  card: () =>
    pendingCard<StepOf<"graph_search">>({
      id: "graph_search",
      type: "graph_search",
      title: "Searching the knowledge graph",
    }),
  async run(ctx, question) {
    const asked = describeGraphQuestion(question);
    ctx.progress({ title: `Searching the knowledge graph: ${asked}` });
    const answer = await answerGraphQuestion(ctx.deps.db, question, { limit: GRAPH_EDGES });
    // two names with no edge between them: a few of each one's own relations, after the passages' answer
    const apart = relatesApart(answer);
    const edges = apart ? eachInTurn(answer, GRAPH_EDGES_APART) : answer.edges;
    const counts = edges.length === 0 ? await getGraphCounts(ctx.deps.db) : null;
    const graphEmpty = counts !== null && !counts.edges.some((e) => e.status === "accepted" && e.count > 0);
    const missing = answer.names.filter((n) => !n.found);
    const [a, b] = answer.names;
    const oneEntity =
      question.kind === "relate" && a?.found && b?.found && a.entity.id === b.entity.id
        ? `“${a.asked}” and “${b.asked}” are one entity in the knowledge graph (${a.entity.name}); the answer relies on the passages.`
        : null;
    const papers = new Set(edges.map((e) => e.paper_id)).size;
    const reasoning = graphEmpty
      ? "The knowledge graph has no relations yet: it is built after ingestion (or with `npm run cli -- graph build`). The answer relies on the passages."
      : [
          ...missing.map((n) => (n.found ? "" : n.message)),
          oneEntity ??
            (edges.length > 0
              ? `${edges.length} ${edges.length === 1 ? "relation" : "relations"} from ${papers} ${papers === 1 ? "paper" : "papers"}, each with the sentence that states it; the answer cites them like passages.`
              : missing.length === answer.names.length
                ? "The answer relies on the passages."
                : `The graph holds no relation that answers ${asked}; the answer relies on the passages.`),
        ]
          .filter(Boolean)
          .join(" ");
    return {
      result: {
        edges,
        evidence: graphEvidence(edges),
        markdown: composeGraphSection({ ...answer, edges }),
        ...(apart ? { apart } : {}),
      },
      patch: {
        title:
          edges.length > 0
            ? `Found ${edges.length} ${edges.length === 1 ? "relation" : "relations"} in the knowledge graph`
            : "No relation found in the knowledge graph",
        reasoning,
        data: { question, asked, names: answer.names.map(nameRow), edges: edges.map(graphEdgeChip), graphEmpty },
      },
    };
  },
};
