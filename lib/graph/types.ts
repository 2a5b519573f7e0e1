/**
 * The knowledge graph's ontology and relation vocabulary (fixed), and the type constraints every edge must meet —
 * whoever proposed it, the rules or a model. Framework-free; the table definitions are in db/schema.ts.
 */
import {
  type GraphEdgeStatus,
  type GraphEntityType,
  type GraphRelation,
  graphEntityTypes,
  graphRelations,
} from "@/db/schema";

export type { GraphEdgeStatus, GraphEntityType, GraphRelation };
export const ENTITY_TYPES: readonly GraphEntityType[] = graphEntityTypes;
export const RELATIONS: readonly GraphRelation[] = graphRelations;

/** Edges below this confidence go to review instead of the graph (issue 22). */
export const ACCEPT_CONFIDENCE = 0.6;
/** Longest quote an edge may carry, in characters of page text. */
export const MAX_QUOTE_CHARS = 300;

const METHODISH: readonly GraphEntityType[] = ["Method", "Model"];

/** Which entity types may stand on each side of a relation. */
export const RELATION_TYPES: Record<
  GraphRelation,
  { source: readonly GraphEntityType[]; target: readonly GraphEntityType[]; meaning: string }
> = {
  improves_on: { source: METHODISH, target: METHODISH, meaning: "the source outperforms or improves on the target" },
  extends: {
    source: METHODISH,
    target: ["Method", "Model", "Concept"],
    meaning: "the source extends or builds on the target",
  },
  uses: {
    source: METHODISH,
    target: ["Method", "Model", "Dataset", "Metric", "Concept"],
    meaning: "the source uses, adopts or is initialised with the target",
  },
  evaluates_on: { source: METHODISH, target: ["Dataset", "Task"], meaning: "the source is evaluated on the target" },
  introduces: {
    source: METHODISH,
    target: ["Method", "Model", "Dataset", "Metric", "Task", "Concept"],
    meaning: "the paper's method comes with the target, new in that paper",
  },
  compares_to: { source: METHODISH, target: METHODISH, meaning: "the source is compared with the target" },
};

export function isEntityType(v: unknown): v is GraphEntityType {
  return typeof v === "string" && (ENTITY_TYPES as readonly string[]).includes(v);
}

export function isRelation(v: unknown): v is GraphRelation {
  return typeof v === "string" && (RELATIONS as readonly string[]).includes(v);
}

/** Null when the types fit the relation, else why not. */
export function typeMismatch(relation: GraphRelation, source: GraphEntityType, target: GraphEntityType): string | null {
  const fit = RELATION_TYPES[relation];
  if (!fit.source.includes(source)) return `${relation} needs a ${fit.source.join(" or ")} as source, not a ${source}`;
  if (!fit.target.includes(target)) return `${relation} needs a ${fit.target.join(" or ")} as target, not a ${target}`;
  return null;
}

/** An entity as an extractor names it. */
export interface EntityRef {
  name: string;
  type: GraphEntityType;
  description?: string | null;
}

/**
 * What an extractor proposes: a relation between two named entities, with the quote that states it and the page it
 * is on. Untrusted until `validateCandidate` has checked it against the stored page.
 */
export interface Candidate {
  relation: GraphRelation;
  source: EntityRef;
  target: EntityRef;
  page: number;
  quote: string;
  confidence: number;
  /** `rules` or the model's name. */
  extractor: string;
  /** Why the extractor lowered the confidence (a hedge, an indirect subject); shown in review. */
  note?: string;
  /** A "uses" said while evaluating ("we use D to evaluate"): evaluates_on once the target is known as a dataset. */
  evaluationContext?: boolean;
}

/** A candidate that passed validation: the quote located in the page text. */
export interface ValidEdge extends Candidate {
  /** Verbatim: `pageText.slice(charStart, charEnd)`. */
  quote: string;
  charStart: number;
  charEnd: number;
  status: Exclude<GraphEdgeStatus, "rejected">;
  reason: string | null;
}

/** Why validation turned a candidate away (counted per reason in the build report; never written). */
export type RejectReason =
  | "malformed"
  | "page_missing"
  | "quote_not_on_page"
  | "quote_too_long"
  | "names_not_in_context"
  | "self_edge"
  | "type_mismatch";

/** An acronym a paper defines: "Dense Passage Retriever (DPR)". */
export interface AcronymDefinition {
  short: string;
  long: string;
  page: number;
}

/** Everything one paper yields, before it is written. */
export interface PaperExtraction {
  paperId: string;
  /** The paper's own method, when its title or abstract names one. */
  ownMethod: string | null;
  candidates: Candidate[];
  acronyms: AcronymDefinition[];
  /** Entities the paper names (with a type guess and the first page), kept only when an edge uses them. */
  mentions: { entity: EntityRef; page: number; count: number }[];
  /** Model output that did not parse or had the wrong shape (model extractor only). */
  malformed: number;
  /** Sections the model extractor had to give up on (after the compact prompt failed too). */
  failedSections: number;
  /** The model answered for none of the paper's sections: its candidates are the offline rules' instead. */
  fellBackToRules?: boolean;
}
