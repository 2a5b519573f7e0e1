import type { Database } from "@/db";
import { insertAudit, listAudit } from "@/db/queries/people";

/**
 * The audit trail: who uploaded, replaced, edited or deleted which paper, who added or invited whom (or revoked an
 * invite), changed or removed whom, and who decided what in the knowledge graph's review queue.
 * Visible to owners (the people page) and at the command line. `actor` null: the operator at the command line.
 */
export type AuditAction =
  | "paper.uploaded"
  | "paper.replaced"
  | "paper.edited"
  | "paper.deleted"
  | "person.added"
  | "person.invited"
  | "person.invite_revoked"
  | "person.joined"
  | "person.role_changed"
  | "person.removed"
  | "person.password_reset"
  | "graph.edge_accepted"
  | "graph.edge_rejected"
  | "graph.alias_confirmed"
  | "graph.alias_rejected"
  | "graph.alias_split";

export async function recordAudit(
  db: Database,
  actor: { id: string; email: string } | null,
  action: AuditAction,
  subject: string,
  detail: Record<string, string | number | boolean | null> = {},
): Promise<void> {
  await insertAudit(db, {
    actorId: actor?.id ?? null,
    actorEmail: actor?.email ?? "command line",
    action,
    subject,
    detail,
  });
}

export async function readAudit(db: Database, limit = 200) {
  const rows = await listAudit(db, { limit });
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}
