import { ShieldIcon } from "lucide-react";
import type { Metadata } from "next";
import { NoticePage } from "@/components/layout/notice-page";
import { PeopleView } from "@/components/people/people-view";
import type { AuditItem, InviteItem, PersonItem, RoleOption } from "@/components/people/types";
import { getDb } from "@/db";
import { readAudit } from "@/lib/auth/audit";
import { listPeople } from "@/lib/auth/people";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES } from "@/lib/auth/roles";
import { PASSWORD } from "@/lib/auth/server";
import type { SessionUser } from "@/lib/auth/session";
import { isLecternError, userMessage } from "@/lib/errors";
import { pageUser } from "../../access";
import {
  addPersonAction,
  changeRoleAction,
  removePersonAction,
  resetPasswordAction,
  revokeInviteAction,
} from "./actions";
import { toAuditItem, toInviteItem, toPersonItem } from "./rows";

export const metadata: Metadata = { title: "People" };
export const dynamic = "force-dynamic";

/** How many audit entries the page shows (the CLI's `audit --limit N` reads further back). */
const AUDIT_ON_PAGE = 100;

const roles: RoleOption[] = ROLES.map((value) => ({
  value,
  label: ROLE_LABELS[value],
  description: ROLE_DESCRIPTIONS[value],
}));

/** The signed-in owner, or null for a member or viewer (shown a notice, not an error page). */
async function ownerOrNull(): Promise<SessionUser | null> {
  try {
    return await pageUser("/people", "people:manage");
  } catch (e) {
    if (isLecternError(e) && e.code === "forbidden:role") return null;
    throw e; // a redirect to sign in (or to set up the owner), or a real failure
  }
}

export default async function PeoplePage() {
  const owner = await ownerOrNull();
  if (!owner) {
    return (
      <NoticePage
        icon={ShieldIcon}
        title="Owners only"
        description="Only an owner of this Lectern can add people, change roles, reset passwords and read the audit trail. Ask an owner if something about your account should change."
        testId="people-forbidden"
      />
    );
  }
  let people: PersonItem[] = [];
  let invites: InviteItem[] = [];
  let audit: AuditItem[] = [];
  let loadError: string | null = null;
  try {
    const db = await getDb();
    const [listed, trail] = await Promise.all([listPeople(db), readAudit(db, AUDIT_ON_PAGE)]);
    people = listed.people.map(toPersonItem);
    invites = listed.invites.map(toInviteItem);
    audit = trail.map(toAuditItem);
  } catch (e) {
    if (!isLecternError(e)) console.error("[people]", e);
    loadError = userMessage(e);
  }
  return (
    <PeopleView
      me={owner.id}
      people={people}
      invites={invites}
      audit={audit}
      auditLimit={AUDIT_ON_PAGE}
      roles={roles}
      passwordHint={`At least ${PASSWORD.min} characters.`}
      loadError={loadError}
      actions={{
        add: addPersonAction,
        changeRole: changeRoleAction,
        resetPassword: resetPasswordAction,
        remove: removePersonAction,
        revokeInvite: revokeInviteAction,
      }}
    />
  );
}
