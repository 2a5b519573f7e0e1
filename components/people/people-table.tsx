"use client";

import { LoaderIcon } from "lucide-react";
import { Fragment, useState, useTransition } from "react";
import { formatDate } from "@/components/library/format";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { Result } from "@/lib/errors";
import { RemovePersonDialog } from "./remove-person-dialog";
import { ResetPasswordDialog } from "./reset-password-dialog";
import type { PeopleActions, PersonItem, Role, RoleOption } from "./types";

/**
 * On a phone the table's five columns do not fit (it scrolled sideways, the buttons off screen): below `sm` each row
 * is laid out as a card, a grid of the name (with the email under it) across the top, then the role picker and the
 * buttons. Every control names its person ("Role of …", "Remove …"), so nothing needs the hidden column headers.
 */
const PHONE_ROW =
  "max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-2 max-sm:px-5 max-sm:py-3";
const PHONE_CELL = "max-sm:block max-sm:p-0";

function PersonRow({
  person,
  onlyOwner,
  isMe,
  roles,
  passwordHint,
  actions,
  onDone,
}: {
  person: PersonItem;
  /** The instance's only owner: cannot be removed (the server refuses it too), so the button says so up front. */
  onlyOwner: boolean;
  isMe: boolean;
  roles: RoleOption[];
  passwordHint: string;
  actions: PeopleActions;
  onDone: (message: string) => void;
}) {
  const [asked, setAsked] = useState<Role | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const errorId = `person-error-${person.id}`;

  const change = (role: Role) => {
    if (role === person.role) return;
    setError(null);
    setAsked(role);
    startTransition(async () => {
      const result: Result<{ person: PersonItem }> = await actions
        .changeRole({ userId: person.id, role })
        .catch(() => ({
          ok: false,
          error: { code: "unavailable:session", message: "Could not reach the server. Is Lectern still running?" },
        }));
      setAsked(null); // the select shows the role the page now has (unchanged when refused)
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      const now = result.data.person.role;
      const label = (roles.find((r) => r.value === now)?.label ?? now).toLowerCase();
      onDone(`${person.name} is now ${now === "owner" ? "an" : "a"} ${label}.`);
    });
  };

  return (
    <Fragment>
      <tr
        // below `sm` a row is a card of its own (PHONE_ROW): name and email, then the role and the buttons
        className={cn("border-t", PHONE_ROW)}
        data-testid="person-row"
        data-email={person.email}
        data-role={person.role}
      >
        <td className={cn("py-2.5 pr-3 pl-5 align-middle", PHONE_CELL, "max-sm:col-span-2")}>
          <div className="flex items-center gap-2 max-sm:flex-wrap max-sm:gap-y-1">
            <span className="font-medium" data-testid="person-name">
              {person.name}
            </span>
            {isMe && (
              <Badge variant="secondary" data-testid="person-you">
                You
              </Badge>
            )}
          </div>
          <div className="text-muted-foreground text-xs wrap-anywhere sm:hidden">{person.email}</div>
        </td>
        <td className="hidden px-3 py-2.5 align-middle text-muted-foreground sm:table-cell" data-testid="person-email">
          {person.email}
        </td>
        <td className={cn("px-3 py-2.5 align-middle", PHONE_CELL)}>
          <div className="flex items-center gap-2">
            <Select value={asked ?? person.role} onValueChange={(v) => change(v as Role)} disabled={pending}>
              <SelectTrigger
                className="h-8 w-28 max-sm:h-10 max-sm:w-32"
                aria-label={`Role of ${person.name}`}
                aria-describedby={error ? errorId : undefined}
                aria-invalid={error ? true : undefined}
                data-testid="person-role"
              >
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {roles.map((r) => (
                  <SelectItem key={r.value} value={r.value} data-testid={`role-option-${r.value}`}>
                    {r.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {pending && (
              <LoaderIcon
                className="size-4 animate-spin text-muted-foreground motion-reduce:animate-none"
                aria-label="Changing the role"
              />
            )}
          </div>
        </td>
        <td className="hidden px-3 py-2.5 align-middle text-muted-foreground md:table-cell" data-testid="person-added">
          <time dateTime={person.createdAt}>{formatDate(person.createdAt)}</time>
        </td>
        <td className={cn("py-2.5 pr-5 pl-3 text-right align-middle", PHONE_CELL)}>
          <div className="flex justify-end gap-1">
            <ResetPasswordDialog
              person={person}
              isMe={isMe}
              passwordHint={passwordHint}
              resetPassword={actions.resetPassword}
              onDone={onDone}
            />
            <RemovePersonDialog
              person={person}
              isMe={isMe}
              onlyOwner={onlyOwner}
              remove={actions.remove}
              onDone={onDone}
            />
          </div>
        </td>
      </tr>
      {error && (
        <tr className="max-sm:block">
          <td colSpan={5} className="px-5 pb-2.5 max-sm:block">
            <p id={errorId} role="alert" className="text-destructive text-sm" data-testid="person-error">
              {error}
            </p>
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** Everyone with an account: name, email, role (a picker), when added, and reset-password and remove buttons. */
export function PeopleTable({
  people,
  me,
  roles,
  passwordHint,
  actions,
  onDone,
}: {
  people: PersonItem[];
  me: string;
  roles: RoleOption[];
  passwordHint: string;
  actions: PeopleActions;
  onDone: (message: string) => void;
}) {
  const owners = people.filter((p) => p.role === "owner").length;
  return (
    <Card className="gap-3 pb-2" data-testid="people-list">
      <CardHeader>
        <CardTitle>Accounts</CardTitle>
        <CardDescription>
          {people.length === 1 ? "One account." : `${people.length} accounts.`} A role change applies at their next
          click; there is always at least one owner.
        </CardDescription>
      </CardHeader>
      {people.length === 0 ? (
        <CardContent>
          <p className="text-muted-foreground text-sm" data-testid="people-empty">
            No accounts could be listed.
          </p>
        </CardContent>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-sm max-sm:block">
            <thead className="text-left text-muted-foreground text-xs max-sm:sr-only">
              <tr>
                <th scope="col" className="py-2 pr-3 pl-5 font-medium">
                  Name
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">
                  Email
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Role
                </th>
                <th scope="col" className="hidden px-3 py-2 font-medium md:table-cell">
                  Added
                </th>
                <th scope="col" className="py-2 pr-5 pl-3 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="max-sm:block">
              {people.map((p) => (
                <PersonRow
                  key={p.id}
                  person={p}
                  onlyOwner={p.role === "owner" && owners <= 1}
                  isMe={p.id === me}
                  roles={roles}
                  passwordHint={passwordHint}
                  actions={actions}
                  onDone={onDone}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
