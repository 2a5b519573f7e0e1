/**
 * The knowledge graph's review queue: edges the validator sent to review (confidence below the bar), alias pairs
 * proposed for a person to confirm, and the alias links in force (which a person may split). Decisions are kept when
 * a paper is extracted again (db/queries/graph.ts). Who may decide is the caller's check (the server actions).
 */
import type { Database } from "@/db";
import { decideAliasSuggestion, findGraphEdges, setEdgeStatus, unlinkAlias } from "@/db/queries/graph";
import {
  type AliasLinkView,
  type AliasSuggestionView,
  getAliasSuggestionPair,
  getAliasSuggestionStatus,
  getEdgeStatus,
  listAliasLinks,
  listPendingAliasSuggestions,
} from "@/db/queries/graph-review";
import { type GraphEdgeResult, toResult } from "./query";

export type { AliasLinkView, AliasSuggestionView };

/** An edge waiting in review, with why it waits ("hedged or conditional", "from a table caption" …). */
export type ReviewEdge = GraphEdgeResult & { reason: string | null };

export interface ReviewQueue {
  edges: ReviewEdge[];
  suggestions: AliasSuggestionView[];
  links: AliasLinkView[];
}

/** Longest reason a person may give for rejecting an edge. */
export const MAX_REJECT_REASON_CHARS = 300;

export async function loadReviewQueue(db: Database, { limit = 200 }: { limit?: number } = {}): Promise<ReviewQueue> {
  const [edges, suggestions, links] = await Promise.all([
    findGraphEdges(db, { statuses: ["review"], limit }),
    listPendingAliasSuggestions(db, { limit }),
    listAliasLinks(db, { limit }),
  ]);
  return { edges: edges.map((e) => ({ ...toResult(e), reason: e.reason })), suggestions, links };
}

export type ReviewOutcome = "done" | "not_found" | "already_decided" | { blocked: string };

/**
 * Accepts an edge, or rejects it with a reason. An edge in review, or one a person decided before (changing their
 * mind); an edge the validator accepted may be rejected too.
 */
export async function decideEdge(
  db: Database,
  d: { id: number; decision: "accept" } | { id: number; decision: "reject"; reason: string },
): Promise<ReviewOutcome> {
  const status = await getEdgeStatus(db, { id: d.id });
  if (status === null) return "not_found";
  const next = d.decision === "accept" ? "accepted" : "rejected";
  if (status === next) return "already_decided";
  const reason = d.decision === "reject" ? d.reason : "accepted in review";
  return (await setEdgeStatus(db, { id: d.id, status: next, reason })) ? "done" : "not_found";
}

/** Confirms (links) or rejects (keeps apart for good) a pending alias suggestion. */
export async function decideSuggestion(
  db: Database,
  d: { id: number; decision: "confirm" | "reject" },
): Promise<ReviewOutcome> {
  const status = await getAliasSuggestionStatus(db, { id: d.id });
  if (status === null) return "not_found";
  if (status !== "pending") return "already_decided";
  if (d.decision === "confirm") {
    // an entity already in another group would not be linked (groups are one level deep): say so, do not mark it
    // confirmed while nothing changes
    const pair = await getAliasSuggestionPair(db, { id: d.id });
    const e = pair?.entity;
    if (pair && e && e.aliasOf !== null && e.aliasOf !== pair.candidateRoot.id) {
      return {
        blocked: `${e.name} is already an alias of ${e.aliasOfName ?? "another entity"}: split that link first to link it with ${pair.candidateRoot.name}.`,
      };
    }
  }
  const ok = await decideAliasSuggestion(db, { id: d.id, status: d.decision === "confirm" ? "accepted" : "rejected" });
  return ok ? "done" : "not_found";
}

/** Splits an alias link: the entity stands alone again, and no later build links the pair again. */
export async function splitAlias(db: Database, { entityId }: { entityId: number }): Promise<ReviewOutcome> {
  return (await unlinkAlias(db, { entityId })) ? "done" : "not_found";
}
