import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { readInvite } from "@/lib/auth/people";
import { signIn } from "@/lib/auth/session";
import { type CliLibrary, cli, openCliLibrary, type Run, replaceEnv } from "./testing";

/**
 * `cli user …` and `cli audit` as a user runs them (in this process: `run` from cli/index.ts, stdout and stderr
 * captured), over a fresh instance — a PGlite directory, or a new database on the PostgreSQL server of DATABASE_URL.
 * What a command did is checked through the library too: a printed password signs in.
 */

let lib: CliLibrary | undefined;
let env: Record<string, string | undefined>;
let library: DbHandle;

/** The one JSON document on stdout (no stack trace on stderr). */
function json<T>(r: Run): T {
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return JSON.parse(r.stdout) as T;
}

/** A failed command: exit 1, its error as the JSON document, the message on stderr. */
function failure(r: Run): { code: string; message: string } {
  expect(r.code, r.stdout).toBe(1);
  const { error } = json<{ error: { code: string; message: string } }>(r);
  expect(r.stderr).toContain(`Error: ${error.message.split("\n")[0]}`);
  return error;
}

/** Whether `password` signs `email` in (through the library, not the CLI). */
async function signsIn(email: string, password: string): Promise<boolean> {
  try {
    await signIn(library.db, { email, password }, new Headers());
    return true;
  } catch {
    return false;
  }
}

interface PersonJson {
  id: string;
  email: string;
  name: string;
  role: string;
  created_at: string;
}
interface AddJson {
  person: PersonJson | null;
  invite: {
    email: string;
    role: string;
    path: string;
    url: string | null;
    expires_at: string;
    replaced: number;
  } | null;
  generated_password: string | null;
  first_account: boolean;
}

beforeAll(async () => {
  lib = await openCliLibrary("user");
  env = lib.env;
  library = lib.handle;
}, 300_000);

afterAll(() => lib?.close());

describe("npm run cli -- user", () => {
  it("on a new instance: no one yet; the first account is the owner whatever --role says, with a generated password", async () => {
    expect(json<{ people: unknown[]; invites: unknown[] }>(await cli("user", "list", "--json"))).toEqual({
      people: [],
      invites: [],
    });
    // an invite cannot make the owner (the setup page would still be open to anyone meanwhile)
    expect(failure(await cli("user", "add", "ada@lab.example", "--role", "owner", "--invite", "--json"))).toMatchObject(
      {
        code: "bad_request:input",
        message: expect.stringMatching(/no account yet.*owner/),
      },
    );
    const r = await cli("user", "add", "Ada@Lab.example", "--name", "Ada Lovelace", "--role", "viewer", "--json");
    expect(r.code, r.stderr).toBe(0);
    const added = json<AddJson>(r);
    expect(added).toMatchObject({
      person: { email: "ada@lab.example", name: "Ada Lovelace", role: "owner" },
      invite: null,
      first_account: true,
    });
    expect(added.generated_password).toMatch(/^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/);
    expect(await signsIn("ada@lab.example", added.generated_password as string)).toBe(true);
  });

  it("adds a person with a given password (text output says so), or with an invite link", async () => {
    const text = await cli(
      "user",
      "add",
      "bob@lab.example",
      "--name",
      "Bob",
      "--role",
      "member",
      "--password",
      "bob's long password",
    );
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe("Added Bob <bob@lab.example> as member.\n"); // no password printed: it was given
    expect(await signsIn("bob@lab.example", "bob's long password")).toBe(true);

    const invited = json<AddJson>(
      await cli("user", "add", "grace@lab.example", "--role", "viewer", "--invite", "--json"),
    );
    expect(invited).toMatchObject({
      person: null,
      generated_password: null,
      first_account: false,
      invite: { email: "grace@lab.example", role: "viewer", url: null, replaced: 0 },
    });
    expect(invited.invite?.path).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
    // invited again: a new link in the old one's place, and the text output says the old one stopped working
    const again = await cli("user", "add", "grace@lab.example", "--role", "member", "--invite");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/The invite link sent to grace@lab\.example before no longer works/);
    const third = json<AddJson>(
      await cli("user", "add", "grace@lab.example", "--role", "viewer", "--invite", "--json"),
    );
    expect(third.invite).toMatchObject({ email: "grace@lab.example", role: "viewer", replaced: 1 });

    // with the public address configured, the whole link
    replaceEnv({ ...env, LECTERN_PUBLIC_URL: "https://lectern.example" });
    try {
      const r = await cli("user", "add", "hedy@lab.example", "--role", "member", "--invite");
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Invite link for hedy@lab\.example \(member\), shown only now; it works once, until /);
      expect(r.stdout).toMatch(/\n {2}https:\/\/lectern\.example\/invite\/[A-Za-z0-9_-]{43}\n$/);
    } finally {
      replaceEnv(env);
    }
  });

  it("refuses what cannot be done, with the reason and exit code 1", async () => {
    expect(
      failure(await cli("user", "add", "bob@lab.example", "--name", "B", "--role", "member", "--json")).message,
    ).toMatch(/already an account for bob@lab\.example/);
    expect(failure(await cli("user", "add", "c@lab.example", "--name", "C", "--json")).message).toMatch(/needs --role/);
    expect(failure(await cli("user", "add", "c@lab.example", "--role", "admin", "--json")).message).toMatch(
      /--role is owner, member or viewer \(not "admin"\)/,
    );
    expect(failure(await cli("user", "add", "c@lab.example", "--role", "member", "--json")).message).toMatch(/--name/);
    expect(
      failure(
        await cli("user", "add", "c@lab.example", "--name", "C", "--role", "member", "--password", "short", "--json"),
      ).message,
    ).toMatch(/at least 10 characters/);
    expect(failure(await cli("user", "add", "not-an-email", "--name", "C", "--role", "member", "--json")).message).toBe(
      "That is not an email address.",
    );
    expect(failure(await cli("user", "role", "nobody@lab.example", "viewer", "--json"))).toMatchObject({
      code: "not_found:user",
      message: "There is no account for nobody@lab.example.",
    });
    expect(failure(await cli("user", "role", "bob@lab.example", "boss", "--json")).message).toBe(
      "The role is owner, member or viewer.",
    );
    const unknown = await cli("user", "rename", "--json");
    expect(failure(unknown).message).toMatch(/^Unknown user command "rename"\.\nusage: /);
  });

  it("lists people and open invites", async () => {
    const listed = json<{ people: PersonJson[]; invites: { email: string; role: string; expires_at: string }[] }>(
      await cli("user", "list", "--json"),
    );
    expect(listed.people.map((p) => [p.email, p.role])).toEqual([
      ["ada@lab.example", "owner"],
      ["bob@lab.example", "member"],
    ]);
    expect(listed.invites.map((i) => [i.email, i.role]).sort()).toEqual([
      ["grace@lab.example", "viewer"],
      ["hedy@lab.example", "member"],
    ]);
    const text = await cli("user", "list");
    expect(text.stdout).toMatch(
      /^email\s+role\s+added\s+name\nada@lab\.example\s+owner\s+\d{4}-\d\d-\d\d\s+Ada Lovelace\n/,
    );
    expect(text.stdout).toMatch(/\n\nOpen invites\n {2}(grace|hedy)@/);
    expect(text.stdout).toContain("\n  grace@lab.example (viewer), until ");
  });

  it("revokes an open invite: gone from the list, its link dead, recorded; refused when there is none", async () => {
    const invited = json<AddJson>(
      await cli("user", "add", "typo@lab.exmaple", "--role", "member", "--invite", "--json"),
    );
    const token = invited.invite?.path.replace("/invite/", "") as string;
    const r = json<{ revoked: { email: string; role: string; expires_at: string; created_at: string }[] }>(
      await cli("user", "revoke-invite", "Typo@lab.exmaple", "--json"),
    );
    expect(r.revoked).toEqual([
      {
        email: "typo@lab.exmaple",
        role: "member",
        expires_at: invited.invite?.expires_at,
        created_at: expect.any(String),
      },
    ]);
    expect(await readInvite(library.db, token)).toBeNull();
    const { entries } = json<{ entries: { actor: string; action: string; subject: string }[] }>(
      await cli("audit", "--limit", "1", "--json"),
    );
    expect(entries).toMatchObject([
      { actor: "command line", action: "person.invite_revoked", subject: "typo@lab.exmaple" },
    ]);
    expect(failure(await cli("user", "revoke-invite", "typo@lab.exmaple", "--json"))).toEqual({
      code: "not_found:invite",
      message: "There is no open invite for typo@lab.exmaple.",
    });
    expect(failure(await cli("user", "revoke-invite", "--json")).message).toMatch(/^user revoke-invite needs the/);
    // in words; the other invites stay open
    const text = await cli("user", "revoke-invite", "grace@lab.example");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe("Revoked the invite for grace@lab.example (viewer); its link no longer works.\n");
    const listed = json<{ invites: { email: string }[] }>(await cli("user", "list", "--json"));
    expect(listed.invites.map((i) => i.email)).toEqual(["hedy@lab.example"]);
  });

  it("changes roles, never the last owner's, and removes people, never the last owner", async () => {
    expect(json(await cli("user", "role", "bob@lab.example", "viewer", "--json"))).toMatchObject({
      person: { email: "bob@lab.example", role: "viewer" },
      previous_role: "member",
    });
    expect((await cli("user", "role", "bob@lab.example", "viewer")).stdout).toBe(
      "bob@lab.example is already a viewer.\n",
    );
    const onlyOwner = "This is the only owner: make someone else an owner first.";
    expect(failure(await cli("user", "role", "ada@lab.example", "member", "--json"))).toEqual({
      code: "conflict:role",
      message: onlyOwner,
    });
    expect(failure(await cli("user", "remove", "ada@lab.example", "--json"))).toEqual({
      code: "conflict:role",
      message: onlyOwner,
    });
    expect((await cli("user", "role", "bob@lab.example", "owner")).stdout).toBe(
      "bob@lab.example is now an owner (was viewer).\n",
    );
    // with two owners, one may go
    expect(json(await cli("user", "remove", "ada@lab.example", "--json"))).toMatchObject({
      removed: { email: "ada@lab.example", role: "owner" },
    });
    expect(failure(await cli("user", "remove", "bob@lab.example", "--json")).code).toBe("conflict:role");
    const listed = json<{ people: PersonJson[] }>(await cli("user", "list", "--json"));
    expect(listed.people.map((p) => p.email)).toEqual(["bob@lab.example"]);
  });

  it("resets a password: a generated one printed once, or the one given", async () => {
    const generated = json<{ email: string; generated_password: string | null; signed_out: boolean }>(
      await cli("user", "reset-password", "bob@lab.example", "--json"),
    );
    expect(generated).toMatchObject({ email: "bob@lab.example", signed_out: true });
    expect(await signsIn("bob@lab.example", "bob's long password")).toBe(false);
    expect(await signsIn("bob@lab.example", generated.generated_password as string)).toBe(true);

    const given = await cli("user", "reset-password", "bob@lab.example", "--password", "another long password");
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toBe("New password set for bob@lab.example; signed out everywhere.\n");
    expect(await signsIn("bob@lab.example", "another long password")).toBe(true);
    expect(failure(await cli("user", "reset-password", "bob@lab.example", "--json", "--password")).message).toMatch(
      /^--password needs a value\./,
    );
  });
});

describe("npm run cli -- audit", () => {
  it('prints the trail newest first, the operator as "command line"; --limit N', async () => {
    const { entries } = json<{
      entries: { id: number; at: string; actor: string; action: string; subject: string; detail: object }[];
    }>(await cli("audit", "--limit", "4", "--json"));
    expect(entries.map((e) => [e.actor, e.action, e.subject])).toEqual([
      ["command line", "person.password_reset", "bob@lab.example"],
      ["command line", "person.password_reset", "bob@lab.example"],
      ["command line", "person.removed", "ada@lab.example"],
      ["command line", "person.role_changed", "bob@lab.example"],
    ]);
    expect(entries[3]?.detail).toEqual({ from: "viewer", to: "owner" });
    expect(new Date(entries[0]?.at as string).getTime()).toBeGreaterThanOrEqual(
      new Date(entries[3]?.at as string).getTime(),
    );

    const all = json<{ entries: { action: string; actor: string }[] }>(await cli("audit", "--json"));
    // the first account, made at the command line, is the operator's doing too (set up in the browser, its own)
    expect(all.entries.at(-1)).toMatchObject({ action: "person.added", actor: "command line" });

    const text = await cli("audit", "--limit", "1");
    expect(text.stdout).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}command line {2}person\.password_reset {2}bob@lab\.example\n$/,
    );
    expect(failure(await cli("audit", "--limit", "0", "--json")).message).toMatch(/--limit is a whole number from 1/);
  });
});
