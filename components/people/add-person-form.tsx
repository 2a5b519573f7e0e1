"use client";

import { LoaderIcon, UserPlusIcon } from "lucide-react";
import { useId, useRef, useState, useTransition } from "react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { Result } from "@/lib/errors";
import { InviteLinkPanel } from "./invite-link-panel";
import { PasswordField } from "./password-field";
import type { AddedPerson, PeopleActions, Role, RoleOption } from "./types";

type Method = "invite" | "password";

const METHODS: { value: Method; label: string; description: string }[] = [
  { value: "invite", label: "Invite link", description: "They choose their name and password. Works once, 7 days." },
  { value: "password", label: "Password", description: "You choose it and give it to them." },
];

/** A group of radio cards (native radios: Tab reaches the group, the arrow keys choose). */
function Choice<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  invalid,
  testId,
}: {
  legend: string;
  name: string;
  options: { value: T; label: string; description: string }[];
  value: T;
  onChange: (v: T) => void;
  invalid: boolean;
  testId: string;
}) {
  return (
    <fieldset className="space-y-1.5" data-testid={testId} aria-invalid={invalid || undefined}>
      <legend className="mb-1.5 font-medium text-sm">{legend}</legend>
      {options.map((o) => (
        <label
          key={o.value}
          className={cn(
            "flex cursor-pointer items-start gap-2.5 rounded-md border px-3 py-2 text-sm transition-colors",
            "has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50",
            value === o.value ? "border-primary/60 bg-primary/5" : "hover:bg-accent/50",
            invalid && "border-destructive",
          )}
        >
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
            className="mt-0.5 accent-primary outline-none"
            data-testid={`${testId}-${o.value}`}
          />
          <span className="space-y-0.5">
            <span className="block font-medium">{o.label}</span>
            <span className="block text-muted-foreground text-xs">{o.description}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Adds a person: email and role, then a password the owner gives them (with their name) or an invite link, shown
 * once. The server's message appears under the form, and the field it names is marked and focused.
 */
export function AddPersonForm({
  roles,
  passwordHint,
  add,
  onAdded,
}: {
  roles: RoleOption[];
  passwordHint: string;
  add: PeopleActions["add"];
  onAdded: (message: string) => void;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [method, setMethod] = useState<Method>("invite");
  const [role, setRole] = useState<Role>("member");
  const [round, setRound] = useState(0);
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);
  const [invite, setInvite] = useState<Extract<AddedPerson, { method: "invite" }> | null>(null);
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const roleLabel = (r: Role) => roles.find((o) => o.value === r)?.label ?? r;

  const focusField = (field: string | undefined) => {
    const form = formRef.current;
    if (!form || !field) return;
    const el = form.elements.namedItem(field);
    const target =
      el instanceof RadioNodeList ? (Array.from(el).find((r) => (r as HTMLInputElement).checked) ?? el[0]) : el;
    if (target instanceof HTMLElement) target.focus();
  };

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (key: string) => String(data.get(key) ?? "");
    const input =
      method === "password"
        ? { method, email: text("email"), name: text("name"), role, password: text("password") }
        : { method, email: text("email"), role };
    startTransition(async () => {
      const result: Result<AddedPerson> = await add(input).catch(() => ({
        ok: false,
        error: { code: "unavailable:session", message: "Could not reach the server. Is Lectern still running?" },
      }));
      if (!result.ok) {
        setProblem({ message: result.error.message, field: result.error.field });
        focusField(result.error.field);
        return;
      }
      setProblem(null);
      setRound((r) => r + 1); // empty fields for the next person
      if (result.data.method === "invite") {
        setInvite(result.data);
        const earlier =
          result.data.replaced > 0 ? " The link sent to them before no longer works: they need this one." : "";
        onAdded(`Invite link made for ${result.data.email}. Copy it now: it is shown only once.${earlier}`);
      } else {
        const p = result.data.person;
        setInvite(null);
        const a = p.role === "owner" ? "an" : "a";
        onAdded(`Added ${p.name} (${p.email}) as ${a} ${roleLabel(p.role).toLowerCase()}. Give them their password.`);
        requestAnimationFrame(() => focusField("email"));
      }
    });
  };

  return (
    <Card className="gap-4" data-testid="add-person">
      <CardHeader>
        <CardTitle id={`${id}-title`}>Add a person</CardTitle>
        <CardDescription>There is no public sign-up: people get in only this way.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {invite && (
          <InviteLinkPanel
            email={invite.email}
            roleLabel={roleLabel(invite.role)}
            path={invite.invitePath}
            expiresAt={invite.expiresAt}
            onDone={() => {
              setInvite(null);
              requestAnimationFrame(() => focusField("email"));
            }}
          />
        )}
        <form
          key={round}
          ref={formRef}
          className="space-y-4"
          // a submit before React owns the form is a POST (no password in an address) and its button is disabled
          method="post"
          onSubmit={onSubmit}
          noValidate
          aria-labelledby={`${id}-title`}
        >
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-email`}>Email</Label>
            <Input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="off"
              required
              aria-invalid={problem?.field === "email" || undefined}
              data-testid="add-person-email"
            />
          </div>
          <Choice
            legend="Role"
            name="role"
            options={roles}
            value={role}
            onChange={setRole}
            invalid={problem?.field === "role"}
            testId="add-person-role"
          />
          <Choice
            legend="How they sign in"
            name="method"
            options={METHODS}
            value={method}
            onChange={(m) => {
              setMethod(m);
              setProblem(null);
            }}
            invalid={problem?.field === "method"}
            testId="add-person-method"
          />
          {method === "password" && (
            <>
              <div className="space-y-1.5">
                <Label htmlFor={`${id}-name`}>Name</Label>
                <Input
                  id={`${id}-name`}
                  name="name"
                  type="text"
                  autoComplete="off"
                  required
                  aria-invalid={problem?.field === "name" || undefined}
                  data-testid="add-person-name"
                />
              </div>
              <PasswordField
                id={`${id}-password`}
                label="Password"
                hint={`${passwordHint} Give it to them over a channel you trust.`}
                invalid={problem?.field === "password"}
                testId="add-person-password"
              />
            </>
          )}
          {problem && (
            <Alert variant="destructive" data-testid="add-person-error">
              <AlertDescription>{problem.message}</AlertDescription>
            </Alert>
          )}
          <Button type="submit" className="w-full" disabled={pending || !hydrated} data-testid="add-person-submit">
            {pending ? (
              <LoaderIcon className="animate-spin motion-reduce:animate-none" aria-hidden />
            ) : (
              <UserPlusIcon aria-hidden />
            )}
            {method === "invite" ? "Make an invite link" : "Add this person"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
