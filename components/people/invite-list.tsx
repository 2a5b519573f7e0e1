import { formatDate } from "@/components/library/format";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { RevokeInviteDialog } from "./revoke-invite-dialog";
import type { InviteItem, PeopleActions, RoleOption } from "./types";

/**
 * Invite links not used yet and not expired (the links themselves were shown once; only their hashes are kept), each
 * with a button to revoke it.
 */
export function InviteList({
  invites,
  roles,
  revoke,
  onDone,
}: {
  invites: InviteItem[];
  roles: RoleOption[];
  revoke: PeopleActions["revokeInvite"];
  onDone: (message: string) => void;
}) {
  const label = (role: string) => roles.find((r) => r.value === role)?.label ?? role;
  return (
    <Card className="gap-3" data-testid="invite-list">
      <CardHeader>
        <CardTitle>Open invites</CardTitle>
        <CardDescription>
          Links that have not been used yet. Each works once and expires after 7 days, unless revoked first.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {invites.length === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="invites-empty">
            No open invites.
          </p>
        ) : (
          <ul className="divide-y rounded-md border">
            {invites.map((i) => (
              <li
                key={`${i.email}-${i.createdAt}`}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm"
                data-testid="invite-row"
                data-email={i.email}
              >
                <span className="min-w-48 flex-1 break-all font-medium" data-testid="invite-email">
                  {i.email}
                </span>
                <Badge variant="outline" data-testid="invite-role">
                  {label(i.role)}
                </Badge>
                <span className="text-muted-foreground text-xs" data-testid="invite-expires">
                  expires <time dateTime={i.expiresAt}>{formatDate(i.expiresAt, true)}</time>
                </span>
                <RevokeInviteDialog invite={i} revoke={revoke} onDone={onDone} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
