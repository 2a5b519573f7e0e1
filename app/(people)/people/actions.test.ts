import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount, signInAs } from "@/app/testing";
import type { DbHandle } from "@/db";
import { createAppTestDatabase } from "@/db/testing";
import { readAudit } from "@/lib/auth/audit";
import { acceptInvite, findPerson, listPeople, readInvite } from "@/lib/auth/people";
import { getSessionUser, signIn } from "@/lib/auth/session";
import {
  addPersonAction,
  changeRoleAction,
  removePersonAction,
  resetPasswordAction,
  revokeInviteAction,
} from "./actions";

// The actions run as they do in the app, on a test database, signed in as real accounts.
let handle: DbHandle;

const PASSWORD = "a long enough password";

/** The Cookie header of a new session of `email` (signed in with `password`). */
async function cookieOf(email: string, password: string): Promise<string> {
  const { setCookies } = await signIn(handle.db, { email, password }, new Headers());
  return setCookies.map((c) => c.split(";")[0]).join("; ");
}
let owner: { id: string; email: string };

beforeAll(async () => {
  handle = await createAppTestDatabase();
  // the database's first account, its only owner, signed in for the tests that follow (until the refusals)
  owner = (await signInAs(handle.db, "owner")) as { id: string; email: string };
});
afterAll(async () => {
  await handle?.close();
});

describe("the owner manages people", () => {
  it("adds a person with a password, who can then sign in, and records it with the owner as actor", async () => {
    const r = await addPersonAction({
      method: "password",
      email: " Ada@Lab.example ",
      name: "Ada Lovelace",
      role: "member",
      password: PASSWORD,
    });
    expect(r).toMatchObject({
      ok: true,
      data: { method: "password", person: { email: "ada@lab.example", name: "Ada Lovelace", role: "member" } },
    });
    if (!r.ok || r.data.method !== "password") throw new Error("not added");
    expect(r.data.person.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const { user } = await signIn(handle.db, { email: "ada@lab.example", password: PASSWORD }, new Headers());
    expect(user).toMatchObject({ email: "ada@lab.example", role: "member" });
    const [entry] = await readAudit(handle.db, 1);
    expect(entry).toMatchObject({
      actorId: owner.id,
      actorEmail: owner.email,
      action: "person.added",
      subject: "ada@lab.example",
      detail: { role: "member" },
    });
  });

  it("makes an invite link, shown once: its path opens the invite, listed as open until used", async () => {
    const r = await addPersonAction({ method: "invite", email: "grace@lab.example", role: "viewer" });
    if (!r.ok || r.data.method !== "invite") throw new Error(`not invited: ${JSON.stringify(r)}`);
    expect(r.data).toMatchObject({ email: "grace@lab.example", role: "viewer", replaced: 0 });
    const token = r.data.invitePath.match(/^\/invite\/([A-Za-z0-9_-]{40,})$/)?.[1];
    expect(token).toBeDefined();
    expect(await readInvite(handle.db, token as string)).toMatchObject({ email: "grace@lab.example", role: "viewer" });
    expect(new Date(r.data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    const { invites } = await listPeople(handle.db);
    expect(invites.map((i) => i.email)).toContain("grace@lab.example");
    expect((await readAudit(handle.db, 1))[0]).toMatchObject({ action: "person.invited", actorEmail: owner.email });

    // invited again: the new link replaces the first, which stops working; the list keeps one row
    const again = await addPersonAction({ method: "invite", email: "grace@lab.example", role: "member" });
    expect(again).toMatchObject({ ok: true, data: { method: "invite", role: "member", replaced: 1 } });
    expect(await readInvite(handle.db, token as string)).toBeNull();
    const after = await listPeople(handle.db);
    expect(after.invites.filter((i) => i.email === "grace@lab.example").map((i) => i.role)).toEqual(["member"]);
  });

  it("revokes an open invite: the link is dead at once, the list and the trail say so", async () => {
    const r = await addPersonAction({ method: "invite", email: "wrong-address@lab.example", role: "member" });
    if (!r.ok || r.data.method !== "invite") throw new Error(`not invited: ${JSON.stringify(r)}`);
    const token = r.data.invitePath.replace("/invite/", "");
    expect(await revokeInviteAction({ email: " Wrong-Address@lab.example " })).toEqual({
      ok: true,
      data: { email: "wrong-address@lab.example", revoked: 1 },
    });
    expect(await readInvite(handle.db, token)).toBeNull();
    await expect(acceptInvite(handle.db, token, { name: "W", password: PASSWORD })).rejects.toThrow(
      /not valid any more/,
    );
    expect((await listPeople(handle.db)).invites.map((i) => i.email)).not.toContain("wrong-address@lab.example");
    expect((await readAudit(handle.db, 1))[0]).toMatchObject({
      actorId: owner.id,
      actorEmail: owner.email,
      action: "person.invite_revoked",
      subject: "wrong-address@lab.example",
      detail: { role: "member" },
    });
    // again: nothing open to revoke; a bad address names the field
    expect(await revokeInviteAction({ email: "wrong-address@lab.example" })).toEqual({
      ok: false,
      error: {
        code: "not_found:invite",
        message: "There is no open invite for wrong-address@lab.example.",
        field: "email",
      },
    });
    expect(await revokeInviteAction({ email: "nope" })).toMatchObject({
      ok: false,
      error: { code: "bad_request:input", field: "email", message: expect.stringMatching(/not an email/) },
    });
    // grace's invite (above) is still open
    expect((await listPeople(handle.db)).invites.map((i) => i.email)).toContain("grace@lab.example");
  });

  it("says which field is wrong", async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ method: "password", email: "nope", name: "N", role: "member", password: PASSWORD }, "email", /not an email/],
      [{ method: "password", email: "n@lab.example", name: " ", role: "member", password: PASSWORD }, "name", /name/],
      [{ method: "password", email: "n@lab.example", name: "N", role: "member", password: "short" }, "password", /10/],
      [{ method: "invite", email: "n@lab.example", role: "admin" }, "role", /owner, member or viewer/],
      [{ method: "email", email: "n@lab.example", role: "member" }, "method", /password or an invite link/],
      // an account that exists already: the library's message, on the email field
      [{ method: "invite", email: "ADA@lab.example", role: "member" }, "email", /already an account for ada@/],
    ];
    for (const [input, field, message] of cases) {
      const r = await addPersonAction(input);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (r.ok) continue;
      expect(r.error.field, JSON.stringify(input)).toBe(field);
      expect(r.error.message).toMatch(message);
    }
    expect(await changeRoleAction({ userId: "", role: "viewer" })).toMatchObject({
      ok: false,
      error: { code: "bad_request:input", field: "userId" },
    });
    expect(await changeRoleAction({ userId: "no-such-account", role: "viewer" })).toMatchObject({
      ok: false,
      error: { code: "not_found:user" },
    });
  });

  it("changes a role, and the person's next request has it", async () => {
    const ada = (await findPerson(handle.db, { email: "ada@lab.example" })) as { id: string; email: string };
    const cookie = await cookieOf(ada.email, PASSWORD);
    const r = await changeRoleAction({ userId: ada.id, role: "viewer" });
    expect(r).toMatchObject({ ok: true, data: { person: { email: "ada@lab.example", role: "viewer" } } });
    expect(await getSessionUser(handle.db, new Headers({ cookie }))).toMatchObject({ role: "viewer" });
    expect((await readAudit(handle.db, 1))[0]).toMatchObject({
      action: "person.role_changed",
      subject: "ada@lab.example",
      detail: { from: "member", to: "viewer" },
    });
  });

  it("resets a password: the old one and every session end, the new one signs in", async () => {
    const ada = (await findPerson(handle.db, { email: "ada@lab.example" })) as { id: string; email: string };
    const cookie = await cookieOf(ada.email, PASSWORD);
    expect(await resetPasswordAction({ userId: ada.id, password: "short" })).toMatchObject({
      ok: false,
      error: { field: "password", message: expect.stringMatching(/at least 10/) },
    });
    expect(await resetPasswordAction({ userId: ada.id, password: "a brand new password" })).toEqual({
      ok: true,
      data: { email: "ada@lab.example" },
    });
    expect(await getSessionUser(handle.db, new Headers({ cookie }))).toBeNull();
    await expect(signIn(handle.db, { email: ada.email, password: PASSWORD }, new Headers())).rejects.toThrow(
      /do not match/,
    );
    await signIn(handle.db, { email: ada.email, password: "a brand new password" }, new Headers());
    expect((await readAudit(handle.db, 1))[0]).toMatchObject({ action: "person.password_reset", subject: ada.email });
  });

  it("removes a person: signed out at once, gone from the list", async () => {
    const ada = (await findPerson(handle.db, { email: "ada@lab.example" })) as { id: string; email: string };
    const cookie = await cookieOf(ada.email, "a brand new password");
    expect(await removePersonAction({ userId: ada.id })).toEqual({ ok: true, data: { email: "ada@lab.example" } });
    expect(await getSessionUser(handle.db, new Headers({ cookie }))).toBeNull();
    expect((await listPeople(handle.db)).people.map((p) => p.email)).not.toContain("ada@lab.example");
    expect(await removePersonAction({ userId: ada.id })).toMatchObject({
      ok: false,
      error: { code: "not_found:user" },
    });
    expect((await readAudit(handle.db, 1))[0]).toMatchObject({ action: "person.removed", subject: "ada@lab.example" });
  });
});

describe("the last owner", () => {
  it("cannot be demoted or removed; once there is another owner, they can", async () => {
    const owners = (await listPeople(handle.db)).people.filter((p) => p.role === "owner");
    expect(owners.map((p) => p.id)).toEqual([owner.id]);
    const refusal = {
      ok: false,
      error: { code: "conflict:role", message: "This is the only owner: make someone else an owner first." },
    };
    expect(await changeRoleAction({ userId: owner.id, role: "member" })).toEqual(refusal);
    expect(await changeRoleAction({ userId: owner.id, role: "viewer" })).toEqual(refusal);
    expect(await removePersonAction({ userId: owner.id })).toEqual(refusal);
    expect((await findPerson(handle.db, { email: owner.email }))?.role).toBe("owner");

    // a second owner: now the first may step down (and is refused the page's actions at its next request)
    const added = await addPersonAction({
      method: "password",
      email: "second-owner@lab.example",
      name: "Second",
      role: "owner",
      password: PASSWORD,
    });
    expect(added.ok).toBe(true);
    expect(await changeRoleAction({ userId: owner.id, role: "member" })).toMatchObject({
      ok: true,
      data: { person: { role: "member" } },
    });
    expect(await addPersonAction({ method: "invite", email: "x@lab.example", role: "viewer" })).toMatchObject({
      ok: false,
      error: { code: "forbidden:role" },
    });
  });
});

describe("members, viewers and visitors are refused", () => {
  it.each(["member", "viewer", null] as const)("as %s: every action refused, nothing changed", async (role) => {
    const target = await makeAccount(handle.db, "viewer");
    await signInAs(handle.db, role);
    const code = role ? "forbidden:role" : "unauthorized:session";
    const before = await readAudit(handle.db, 500);
    const results = [
      await addPersonAction({ method: "invite", email: "sneaky@lab.example", role: "owner" }),
      await addPersonAction({
        method: "password",
        email: "s@lab.example",
        name: "S",
        role: "owner",
        password: PASSWORD,
      }),
      await changeRoleAction({ userId: target.id, role: "owner" }),
      await resetPasswordAction({ userId: target.id, password: "taken over password" }),
      await removePersonAction({ userId: target.id }),
      await revokeInviteAction({ email: "grace@lab.example" }),
      // invalid input too: the role is checked before the input, so a refusal says nothing about it
      await addPersonAction({}),
    ];
    const message = role ? `Your role (${role}) does not allow this. Ask an owner of this Lectern.` : /Sign in/;
    for (const r of results) expect(r).toMatchObject({ ok: false, error: { code, message } });
    expect((await findPerson(handle.db, { email: target.email }))?.role).toBe("viewer");
    expect(await findPerson(handle.db, { email: "sneaky@lab.example" })).toBeNull();
    expect((await listPeople(handle.db)).invites.map((i) => i.email)).not.toContain("sneaky@lab.example");
    expect((await listPeople(handle.db)).invites.map((i) => i.email)).toContain("grace@lab.example");
    expect(await readAudit(handle.db, 500)).toEqual(before);
  });
});
