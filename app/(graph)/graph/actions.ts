"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/db";
import { recordAudit } from "@/lib/auth/audit";
import type { Result } from "@/lib/errors";
import { toErrorResult } from "@/lib/errors";
import { decideEdge, decideSuggestion, type ReviewOutcome, splitAlias } from "@/lib/graph/review";
import { requireUser } from "../../access";
import { aliasSuggestionInputSchema, reviewEdgeInputSchema, splitAliasInputSchema } from "./schema";

/**
 * The knowledge graph's review decisions. Anyone who may read the library may look at the queue; only those who may
 * change it (owners and members, `library:write`) decide. Each decision is in the audit trail.
 */

type Refusal = {
  ok: false;
  error: { code: "bad_request:input" | "not_found:input" | "conflict:input"; message: string };
};

function badInput(issues: { message: string }[]): Refusal {
  return { ok: false, error: { code: "bad_request:input", message: issues[0]?.message ?? "Invalid input." } };
}

function outcomeError(outcome: Exclude<ReviewOutcome, "done">, what: string): Refusal {
  if (typeof outcome === "object") return { ok: false, error: { code: "conflict:input", message: outcome.blocked } };
  return outcome === "not_found"
    ? { ok: false, error: { code: "not_found:input", message: `That ${what} is no longer in the graph.` } }
    : { ok: false, error: { code: "conflict:input", message: `That ${what} was decided already.` } };
}

function refreshGraphPages() {
  revalidatePath("/graph", "layout");
}

/** Accepts an edge in review, or rejects it with a reason. */
export async function reviewEdgeAction(
  input: unknown,
): Promise<Result<{ id: number; status: "accepted" | "rejected" }>> {
  try {
    const user = await requireUser("library:write");
    const parsed = reviewEdgeInputSchema.safeParse(input);
    if (!parsed.success) return badInput(parsed.error.issues);
    const db = await getDb();
    const outcome = await decideEdge(db, parsed.data);
    if (outcome !== "done") return outcomeError(outcome, "edge");
    const status = parsed.data.decision === "accept" ? "accepted" : "rejected";
    await recordAudit(
      db,
      user,
      status === "accepted" ? "graph.edge_accepted" : "graph.edge_rejected",
      `edge ${parsed.data.id}`,
      parsed.data.decision === "reject" ? { reason: parsed.data.reason } : {},
    );
    refreshGraphPages();
    return { ok: true, data: { id: parsed.data.id, status } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Confirms a proposed alias pair (links it) or rejects it (keeps the two apart from then on). */
export async function decideAliasSuggestionAction(
  input: unknown,
): Promise<Result<{ id: number; decision: "confirm" | "reject" }>> {
  try {
    const user = await requireUser("library:write");
    const parsed = aliasSuggestionInputSchema.safeParse(input);
    if (!parsed.success) return badInput(parsed.error.issues);
    const db = await getDb();
    const outcome = await decideSuggestion(db, parsed.data);
    if (outcome !== "done") return outcomeError(outcome, "alias suggestion");
    await recordAudit(
      db,
      user,
      parsed.data.decision === "confirm" ? "graph.alias_confirmed" : "graph.alias_rejected",
      `alias suggestion ${parsed.data.id}`,
    );
    refreshGraphPages();
    return { ok: true, data: parsed.data };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Splits an alias link: the entity stands alone again, and no rebuild links the pair again. */
export async function splitAliasAction(input: unknown): Promise<Result<{ entityId: number }>> {
  try {
    const user = await requireUser("library:write");
    const parsed = splitAliasInputSchema.safeParse(input);
    if (!parsed.success) return badInput(parsed.error.issues);
    const db = await getDb();
    const outcome = await splitAlias(db, parsed.data);
    if (outcome !== "done") return outcomeError(outcome, "alias link");
    await recordAudit(db, user, "graph.alias_split", `entity ${parsed.data.entityId}`);
    refreshGraphPages();
    return { ok: true, data: parsed.data };
  } catch (e) {
    return toErrorResult(e);
  }
}
