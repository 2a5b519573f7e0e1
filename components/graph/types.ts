import type { Result } from "@/lib/errors";
import type { GraphEdgeResult } from "@/lib/graph/query";
import type { AliasLinkView, AliasSuggestionView, ReviewEdge } from "@/lib/graph/review";
import type { GraphEntityType, GraphRelation } from "@/lib/graph/types";

/** What the knowledge graph's pages show (the server pages load it from lib/graph; these are its shapes). */

export type { AliasLinkView, AliasSuggestionView, GraphEdgeResult, GraphEntityType, GraphRelation, ReviewEdge };

export const RELATION_LABELS: Record<GraphRelation, string> = {
  improves_on: "improves on",
  extends: "extends",
  uses: "uses",
  evaluates_on: "evaluated on",
  introduces: "introduces",
  compares_to: "compared to",
};

/** Each relation's colour: the drawing's lines and the edge list's marks. */
export const RELATION_COLORS: Record<GraphRelation, string> = {
  improves_on: "#16a34a",
  extends: "#2563eb",
  uses: "#9333ea",
  evaluates_on: "#d97706",
  introduces: "#0891b2",
  compares_to: "#64748b",
};

/** The relations in the order the filters and the entity page list them. */
/** The order the ontology lists its entity types in (lib/graph/types.ts's, without importing the database schema). */
export const TYPE_ORDER: readonly GraphEntityType[] = ["Method", "Model", "Dataset", "Metric", "Task", "Concept"];

export const RELATION_ORDER: readonly GraphRelation[] = [
  "improves_on",
  "extends",
  "uses",
  "evaluates_on",
  "introduces",
  "compares_to",
];

/** A name the search box suggests: an entity or one of its aliases, and the entity it resolves to. */
export interface EntityName {
  name: string;
  type: GraphEntityType;
  rootName: string;
}

/** One entry of the graph's index: an entity among the most connected of its type. */
export interface EntityIndexEntry {
  name: string;
  type: GraphEntityType;
  /** Accepted edges that touch it (its aliases' included). */
  edges: number;
  papers: number;
}

/** The graph's size, for the page header and the empty state. */
export interface GraphSummary {
  entities: number;
  edges: number;
  papers: number;
  review: number;
  pendingSuggestions: number;
}

/** /graph with a name searched: the entity and its edges, or close names when there is no such entity. */
export type EntitySearch =
  | {
      found: true;
      entity: { id: number; name: string; type: GraphEntityType; description: string | null };
      aliases: { name: string; tier: string | null }[];
      edges: GraphEdgeResult[];
    }
  | { found: false; name: string; suggestions: { name: string; type: GraphEntityType }[] };

export type ReviewEdgeDecision =
  | { id: number; decision: "accept" }
  | { id: number; decision: "reject"; reason: string };

/** The review queue's server actions (null for a role that may only look). */
export interface ReviewActions {
  reviewEdge: (input: ReviewEdgeDecision) => Promise<Result<{ id: number; status: "accepted" | "rejected" }>>;
  decideSuggestion: (input: {
    id: number;
    decision: "confirm" | "reject";
  }) => Promise<Result<{ id: number; decision: "confirm" | "reject" }>>;
  splitAlias: (input: { entityId: number }) => Promise<Result<{ entityId: number }>>;
}
