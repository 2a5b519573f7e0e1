import { getGraphCounts } from "@/db/queries/graph";
import { relationsAmongPapers } from "@/lib/graph/question";
import { tokenize } from "@/lib/text/terms";
import type { EvidencePassage } from "../../citations";
import { questionTerms } from "../../compose";
import { pendingCard, type StepDefinition } from "../../lifecycle";
import {
  type GraphEdgeChip,
  type GraphFindings,
  graphEdgeChip,
  graphEdgeLines,
  graphEvidence,
} from "../../steps/graph-search";
import type { StepOf } from "../../types";

declare module "@/lib/research/types" {
  interface StepDataByType {
    graph_relations: GraphRelationsData;
  }
}

export interface GraphRelationsData {
  /** Papers of the review's evidence whose relations were looked at. */
  papers: number;
  edges: GraphEdgeChip[];
  /** The graph has no accepted edge at all (not built yet, or nothing extracted). */
  graphEmpty: boolean;
}

/** Relations the part shows at most. */
const RELATIONS_SHOWN = 6;

/** The review's part built from the graph; its heading (verification's topic for its claims). */
export const RELATIONS_HEADING = "How these works relate";

/**
 * How these works relate: the knowledge graph's relations between the methods and models that the review's papers
 * state (improves on, extends, compared with, uses), each with its verbatim quote cited `[PAPER_ID, page N]`. A short
 * part of the review; nothing when the graph holds no such relation among these papers.
 */
export const relationsStep: StepDefinition<
  StepOf<"graph_relations">,
  {
    evidence: EvidencePassage[];
    /** What the review is about beyond its question (the outline's topics and keywords): a relation must bear on it. */
    topics?: string[];
  },
  GraphFindings
> = {
  card: () =>
    pendingCard<StepOf<"graph_relations">>({
      id: "graph_relations",
      type: "graph_relations",
      title: "Relating the works (knowledge graph)",
    }),
  async run(ctx, { evidence, topics = [] }) {
    const paperIds = [...new Set(evidence.map((e) => e.paperId))];
    // the relations that bear on the review: their quote or names share a key term with the question or its topics
    // ("PaSa-7B improves on Google" is a relation among a self-correction review's papers, not one it is about)
    const wanted = new Set(questionTerms([ctx.question, ...topics].join(" ")));
    const all = await relationsAmongPapers(ctx.deps.db, paperIds, { limit: 40 });
    const bearing = (e: (typeof all)[number]) =>
      tokenize(`${e.quote} ${e.source.name} ${e.target.name}`).filter((t) => wanted.has(t)).length;
    const edges = all
      .map((e, i) => ({ e, i, n: bearing(e) }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n || a.i - b.i)
      .slice(0, RELATIONS_SHOWN)
      .map((x) => x.e);
    const counts = edges.length === 0 ? await getGraphCounts(ctx.deps.db) : null;
    const graphEmpty = counts !== null && !counts.edges.some((e) => e.status === "accepted" && e.count > 0);
    const markdown = edges.length > 0 ? [`## ${RELATIONS_HEADING}`, "", ...graphEdgeLines(edges)].join("\n") : "";
    return {
      result: { edges, evidence: graphEvidence(edges), markdown },
      patch: {
        title:
          edges.length > 0
            ? `Related the works: ${edges.length} ${edges.length === 1 ? "relation" : "relations"} from the knowledge graph`
            : all.length > 0
              ? "No relation between these works in the knowledge graph bears on the question"
              : "No relation between these works in the knowledge graph",
        reasoning: graphEmpty
          ? "The knowledge graph has no relations yet: it is built after ingestion (or with `npm run cli -- graph build`)."
          : `Looked for relations between methods and models (improves on, extends, compared with, uses) stated by the ${paperIds.length} ${paperIds.length === 1 ? "paper" : "papers"} of the review's evidence.`,
        data: { papers: paperIds.length, edges: edges.map(graphEdgeChip), graphEmpty },
      },
    };
  },
};
