import type { Role } from "@/db/schema";

export { ROLES, type Role } from "@/db/schema";

/**
 * What each role may do. The library is shared by everyone in the instance; research runs belong to their author
 * (private unless shared by a link, lib/auth/share.ts) — so reading, sharing and deleting a run also needs to be its
 * author, which the run's own checks add (lib/auth/runs.ts).
 */
export const CAPABILITIES = {
  /** Browse and search the library, open its PDFs. */
  "library:read": ["owner", "member", "viewer"],
  /** Upload papers, correct their metadata. */
  "library:write": ["owner", "member"],
  /** Delete papers from the library. */
  "library:delete": ["owner"],
  /** Ask questions (quick and deep research), rerun and improve one's own runs, share and delete them. */
  "research:run": ["owner", "member"],
  /** Open one's own runs and the list of them (a viewer's is empty: viewers read runs through share links). */
  "research:read": ["owner", "member", "viewer"],
  /** Add people, change roles, remove people, read the audit trail. */
  "people:manage": ["owner"],
  /** Be told how to set the instance up (web search): it means editing the server's environment and restarting it. */
  "instance:configure": ["owner"],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

export function can(role: Role, capability: Capability): boolean {
  return (CAPABILITIES[capability] as readonly Role[]).includes(role);
}

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", member: "Member", viewer: "Viewer" };

/** What a role may do, in a line, for the owner choosing it (the people page shows it beside the role picker). */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: "Everything, people included.",
  member: "Upload and edit papers, research, share and delete their own runs.",
  viewer: "Read the library and the runs shared with them.",
};

/** The same line addressed to the person invited (the invite page). */
export const ROLE_DESCRIPTIONS_FOR_INVITEE: Record<Role, string> = {
  owner: "You may do everything, people included.",
  member: "You may upload and edit papers, research, and share and delete your own runs.",
  viewer: "You may read the library and the runs shared with you.",
};

/** The invite page's line: "You are invited as a member. You may upload…" */
export function inviteDescription(role: Role): string {
  const label = ROLE_LABELS[role].toLowerCase();
  return `You are invited as ${/^[aeiou]/.test(label) ? "an" : "a"} ${label}. ${ROLE_DESCRIPTIONS_FOR_INVITEE[role]}`;
}
