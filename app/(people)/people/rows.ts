import type { AuditItem, InviteItem, PersonItem } from "@/components/people/types";
import type { Person } from "@/lib/auth/people";
import type { Role } from "@/lib/auth/roles";

/** Rows of lib/auth as the people page's components take them (plain JSON). */

export function toPersonItem(p: Person): PersonItem {
  return { id: p.id, name: p.name, email: p.email, role: p.role, createdAt: p.createdAt.toISOString() };
}

export function toInviteItem(i: { email: string; role: Role; expiresAt: Date; createdAt: Date }): InviteItem {
  return { email: i.email, role: i.role, expiresAt: i.expiresAt.toISOString(), createdAt: i.createdAt.toISOString() };
}

export function toAuditItem(r: {
  id: number;
  at: string;
  actorEmail: string | null;
  action: string;
  subject: string;
  detail: AuditItem["detail"];
}): AuditItem {
  return {
    id: r.id,
    at: r.at,
    actor: r.actorEmail ?? "unknown",
    action: r.action,
    subject: r.subject,
    detail: r.detail,
  };
}
