"use client";

import { CheckCircle2Icon, CircleAlertIcon } from "lucide-react";
import { useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { AddPersonForm } from "./add-person-form";
import { AuditTrail } from "./audit-trail";
import { InviteList } from "./invite-list";
import { PeopleTable } from "./people-table";
import type { AuditItem, InviteItem, PeopleActions, PersonItem, RoleOption } from "./types";

/**
 * The people page (owners only): the accounts with their roles, the open invites, a form to add someone, and the
 * audit trail. The actions revalidate the page, so the lists are always the server's; a result is announced once.
 */
export function PeopleView({
  me,
  people,
  invites,
  audit,
  auditLimit,
  roles,
  passwordHint,
  loadError,
  actions,
}: {
  /** The signed-in owner's account id. */
  me: string;
  people: PersonItem[];
  invites: InviteItem[];
  audit: AuditItem[];
  auditLimit: number;
  roles: RoleOption[];
  /** The password rule in words ("At least 10 characters."). */
  passwordHint: string;
  loadError: string | null;
  actions: PeopleActions;
}) {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <div className="space-y-6" data-testid="people-page">
      <header className="space-y-1.5">
        <h1 className="font-semibold text-2xl tracking-tight">People</h1>
        <p className="max-w-3xl text-muted-foreground text-sm">
          Who can use this Lectern and what each may do. Owners manage people and read the audit trail; members upload
          papers and research; viewers read the library and the runs shared with them.
        </p>
      </header>
      {loadError && (
        <Alert variant="destructive" data-testid="people-load-error">
          <CircleAlertIcon aria-hidden />
          <AlertTitle>The people of this Lectern could not be loaded</AlertTitle>
          <AlertDescription>{loadError}</AlertDescription>
        </Alert>
      )}
      {/* always present, so a screen reader announces each new message */}
      <div role="status" aria-live="polite" data-testid="people-status">
        {status && (
          <p className="flex items-center gap-2 rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm">
            <CheckCircle2Icon className="size-4 shrink-0 text-success" aria-hidden />
            {status}
          </p>
        )}
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,1fr)_23rem]">
        <div className="min-w-0 space-y-6">
          <PeopleTable
            people={people}
            me={me}
            roles={roles}
            passwordHint={passwordHint}
            actions={actions}
            onDone={setStatus}
          />
          <InviteList invites={invites} roles={roles} revoke={actions.revokeInvite} onDone={setStatus} />
        </div>
        <AddPersonForm roles={roles} passwordHint={passwordHint} add={actions.add} onAdded={setStatus} />
      </div>
      <AuditTrail entries={audit} limit={auditLimit} />
    </div>
  );
}
