import type { AuditItem } from "./types";

/** How the audit trail reads an entry: what happened, in words, and its details in a line. */

const ACTIONS: Record<string, string> = {
  "paper.uploaded": "Uploaded a paper",
  "paper.replaced": "Replaced a paper's PDF",
  "paper.edited": "Corrected a paper's metadata",
  "paper.deleted": "Deleted a paper",
  "person.added": "Added a person",
  "person.invited": "Invited someone",
  "person.invite_revoked": "Revoked an invite",
  "person.joined": "Joined with an invite",
  "person.role_changed": "Changed a role",
  "person.removed": "Removed a person",
  "person.password_reset": "Reset a password",
  "graph.edge_accepted": "Accepted a graph edge",
  "graph.edge_rejected": "Rejected a graph edge",
  "graph.alias_confirmed": "Confirmed an alias",
  "graph.alias_rejected": "Rejected an alias",
  "graph.alias_split": "Split an alias link",
};

const ROLE_WORDS: Record<string, string> = { owner: "owner", member: "member", viewer: "viewer" };
const role = (v: unknown) => ROLE_WORDS[String(v)] ?? String(v);

export function auditWhat(action: string): string {
  return ACTIONS[action] ?? action;
}

/** The entry's details in a line ("member → viewer", "as a viewer", "fields: title, year"), or "". */
export function auditDetail(entry: Pick<AuditItem, "action" | "detail">): string {
  const d = entry.detail;
  const parts: string[] = [];
  const rest: [string, AuditItem["detail"][string]][] = [];
  for (const [key, value] of Object.entries(d)) {
    if (key === "from" || key === "to") continue;
    if (key === "role") parts.push(`as ${role(value)}`);
    else if (key === "fields") parts.push(String(value));
    else if (key === "file") parts.push(String(value));
    else if (key === "pages") parts.push(`${value} pages`);
    else if (key === "invites_replaced") {
      parts.push(Number(value) === 1 ? "its earlier link stopped working" : `${value} earlier links stopped working`);
    } else if (key === "invites_revoked") parts.push(`${value} links`);
    else if (key === "runsAdopted") {
      if (Number(value) > 0) parts.push(`${value} earlier runs became theirs`);
    } else rest.push([key, value]);
  }
  if ("from" in d || "to" in d) parts.unshift(`${role(d.from)} → ${role(d.to)}`);
  for (const [key, value] of rest) parts.push(`${key}: ${value}`);
  return parts.join(" · ");
}

/** The subject as a link target: a paper that is still there (not a deletion) opens its page. */
export function auditSubjectIsPaper(action: string): boolean {
  return action.startsWith("paper.") && action !== "paper.deleted";
}
