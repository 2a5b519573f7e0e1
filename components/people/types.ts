import type { Role } from "@/lib/auth/roles";
import type { Result } from "@/lib/errors";

/**
 * What the people page shows and does. Plain JSON (dates as ISO strings): it crosses the server/client boundary.
 * The actions arrive as props (server actions of app/(people)/people/actions.ts).
 */

export type { Role };

export interface PersonItem {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** ISO 8601. */
  createdAt: string;
}

export interface InviteItem {
  email: string;
  role: Role;
  /** ISO 8601. */
  expiresAt: string;
  createdAt: string;
}

export interface AuditItem {
  id: number;
  /** ISO 8601. */
  at: string;
  /** The account's email when it acted, or "command line" for the operator. */
  actor: string;
  action: string;
  subject: string;
  detail: Record<string, string | number | boolean | null>;
}

/** A role as the pickers offer it (the labels and descriptions of lib/auth/roles.ts, passed by the page). */
export interface RoleOption {
  value: Role;
  label: string;
  description: string;
}

export type AddPersonInput =
  | { method: "password"; email: string; name: string; role: Role; password: string }
  | { method: "invite"; email: string; role: Role };

export type AddedPerson =
  | { method: "password"; person: PersonItem }
  /**
   * `invitePath` (`/invite/<token>`) is shown once: only the token's hash is stored. `replaced`: earlier open invites to
   * the address, whose links stopped working (an address has one working invite).
   */
  | { method: "invite"; email: string; role: Role; invitePath: string; expiresAt: string; replaced: number };

export interface PeopleActions {
  add(input: AddPersonInput): Promise<Result<AddedPerson>>;
  changeRole(input: { userId: string; role: Role }): Promise<Result<{ person: PersonItem }>>;
  resetPassword(input: { userId: string; password: string }): Promise<Result<{ email: string }>>;
  remove(input: { userId: string }): Promise<Result<{ email: string }>>;
  /** Revokes the open invite to `email` (every one, should there be more than one): its link is dead at once. */
  revokeInvite(input: { email: string }): Promise<Result<{ email: string; revoked: number }>>;
}
