import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { getRun, insertRun } from "@/db/queries/research";
import { createTestDatabase } from "@/db/testing";
import { readAudit } from "./audit";
import {
  acceptInvite,
  addPerson,
  changeRole,
  createOwner,
  invitePerson,
  listPeople,
  needsOwner,
  readInvite,
  removePerson,
  resetPassword,
  revokeInvite,
} from "./people";
import { getSessionUser, SIGN_IN_ACCOUNT_LIMIT, SIGN_IN_LIMIT, signIn, signOut } from "./session";
import { createShareLink, resolveShareToken } from "./share";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

/** The Cookie header a browser would send back after these Set-Cookie values. */
function cookieHeader(setCookies: string[]): Headers {
  return new Headers({ cookie: setCookies.map((c) => c.split(";")[0]).join("; ") });
}

const PASSWORD = "correct horse battery";

describe("people and sessions", () => {
  it("makes the first account the owner, once, and gives it the runs made before accounts existed", async () => {
    const db = handle.db;
    expect(await needsOwner(db)).toBe(true);
    await insertRun(db, {
      id: "before-accounts",
      question: "q",
      mode: "offline",
      model: "extractive",
      startedAt: new Date().toISOString(),
      steps: [],
    });
    await expect(createOwner(db, { email: "not an email", name: "Ada", password: PASSWORD })).rejects.toThrow(
      /not an email/,
    );
    await expect(createOwner(db, { email: "ada@lab.example", name: "Ada", password: "short" })).rejects.toThrow(
      /at least 10 characters/,
    );
    const owner = await createOwner(db, { email: " Ada@Lab.example ", name: "Ada", password: PASSWORD });
    expect(owner).toMatchObject({ email: "ada@lab.example", role: "owner" });
    expect(await needsOwner(db)).toBe(false);
    expect((await getRun(db, "before-accounts"))?.ownerId).toBe(owner.id);
    await expect(createOwner(db, { email: "eve@evil.example", name: "Eve", password: PASSWORD })).rejects.toThrow(
      /already has an owner/,
    );
  });

  it("signs in with the right password only, and the session reads back with the current role", async () => {
    const db = handle.db;
    await expect(signIn(db, { email: "ada@lab.example", password: "wrong password!" }, new Headers())).rejects.toThrow(
      /do not match/,
    );
    await expect(signIn(db, { email: "nobody@lab.example", password: PASSWORD }, new Headers())).rejects.toThrow(
      /do not match/,
    );
    const { user, setCookies } = await signIn(db, { email: "ADA@lab.example", password: PASSWORD }, new Headers());
    expect(user.role).toBe("owner");
    expect(setCookies.join(";")).toMatch(/HttpOnly/i);
    expect(setCookies.join(";")).toMatch(/SameSite=Lax/i);
    const headers = cookieHeader(setCookies);
    expect(await getSessionUser(db, headers)).toMatchObject({ email: "ada@lab.example", role: "owner" });
    expect(await getSessionUser(db, new Headers({ cookie: "lectern.session_token=forged.value" }))).toBeNull();
    expect(await getSessionUser(db, new Headers())).toBeNull();
    await signOut(db, headers);
    expect(await getSessionUser(db, headers)).toBeNull();
  });

  it("adds people with a password or an invite link, changes roles, resets passwords, removes people", async () => {
    const db = handle.db;
    const ada = (await listPeople(db)).people[0] as { id: string; email: string };
    const member = await addPerson(db, ada, {
      email: "max@lab.example",
      name: "Max",
      password: PASSWORD,
      role: "member",
    });
    expect(member.role).toBe("member");
    await expect(
      addPerson(db, ada, { email: "max@lab.example", name: "Max", password: PASSWORD, role: "member" }),
    ).rejects.toThrow(/already an account/);

    const { token } = await invitePerson(db, ada, { email: "vic@lab.example", role: "viewer" });
    expect(await readInvite(db, token)).toMatchObject({ email: "vic@lab.example", role: "viewer" });
    expect(await readInvite(db, "not-a-real-token-at-all-xx")).toBeNull();
    const viewer = await acceptInvite(db, token, { name: "Vic", password: PASSWORD });
    expect(viewer).toMatchObject({ email: "vic@lab.example", role: "viewer" });
    // a link works once
    await expect(acceptInvite(db, token, { name: "Mallory", password: PASSWORD })).rejects.toThrow(/not valid/);

    const { setCookies } = await signIn(db, { email: "vic@lab.example", password: PASSWORD }, new Headers());
    const vic = cookieHeader(setCookies);
    await changeRole(db, ada, viewer.id, "member");
    // the session sees the new role at once
    expect((await getSessionUser(db, vic))?.role).toBe("member");
    await resetPassword(db, ada, viewer.id, "a brand new password");
    expect(await getSessionUser(db, vic)).toBeNull();
    await expect(signIn(db, { email: "vic@lab.example", password: PASSWORD }, new Headers())).rejects.toThrow();
    await signIn(db, { email: "vic@lab.example", password: "a brand new password" }, new Headers());

    const people = await listPeople(db);
    expect(people.people.map((p) => [p.email, p.role])).toEqual([
      ["ada@lab.example", "owner"],
      ["max@lab.example", "member"],
      ["vic@lab.example", "member"],
    ]);
    await removePerson(db, ada, member.id);
    expect((await listPeople(db)).people).toHaveLength(2);
    const owner = (await listPeople(db)).people.find((p) => p.role === "owner");
    await expect(changeRole(db, ada, owner?.id ?? "", "member")).rejects.toThrow(/only owner/);
    await expect(removePerson(db, ada, owner?.id ?? "")).rejects.toThrow(/only owner/);

    const audit = await readAudit(db);
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        "person.added",
        "person.invited",
        "person.joined",
        "person.role_changed",
        "person.removed",
      ]),
    );
    // the owner set up in the browser added themself (at the command line it is the operator: cli/user.test.ts)
    expect(audit.find((a) => a.action === "person.added" && a.subject === "ada@lab.example")?.actorEmail).toBe(
      "ada@lab.example",
    );
  });

  it("revokes an open invite: its link is dead at once, as a used one, and the trail says who revoked it", async () => {
    const db = handle.db;
    const ada = (await listPeople(db)).people.find((p) => p.role === "owner") as { id: string; email: string };
    const { token } = await invitePerson(db, ada, { email: "wrong@lab.example", role: "member" });
    const other = await invitePerson(db, ada, { email: "right@lab.example", role: "viewer" });
    const revoked = await revokeInvite(db, ada, { email: " Wrong@Lab.example " });
    expect(revoked).toEqual([
      { email: "wrong@lab.example", role: "member", expiresAt: expect.any(Date), createdAt: expect.any(Date) },
    ]);
    expect(await readInvite(db, token)).toBeNull();
    // accepting it says what a used link says, and makes no account
    await expect(acceptInvite(db, token, { name: "Wrong", password: PASSWORD })).rejects.toMatchObject({
      code: "not_found:invite",
      message: "This invite link is not valid any more. Ask for a new one.",
    });
    expect((await listPeople(db)).people.map((p) => p.email)).not.toContain("wrong@lab.example");
    // the other invite is untouched
    expect((await listPeople(db)).invites.map((i) => i.email)).toEqual(["right@lab.example"]);
    expect(await readInvite(db, other.token)).toMatchObject({ email: "right@lab.example" });
    const [entry] = await readAudit(db, 1);
    expect(entry).toMatchObject({
      actorEmail: "ada@lab.example",
      action: "person.invite_revoked",
      subject: "wrong@lab.example",
      detail: { role: "member" },
    });

    // none left to revoke: revoked already, never sent, or used
    const none = { code: "not_found:invite", field: "email" };
    await expect(revokeInvite(db, ada, { email: "wrong@lab.example" })).rejects.toMatchObject({
      ...none,
      message: "There is no open invite for wrong@lab.example.",
    });
    await expect(revokeInvite(db, ada, { email: "never@lab.example" })).rejects.toMatchObject(none);
    await acceptInvite(db, other.token, { name: "Right", password: PASSWORD });
    await expect(revokeInvite(db, ada, { email: "right@lab.example" })).rejects.toMatchObject(none);
    await expect(revokeInvite(db, ada, { email: "not an email" })).rejects.toMatchObject({
      code: "bad_request:input",
      field: "email",
    });
    expect((await readAudit(db, 1))[0]?.action).toBe("person.joined");

    // invited again (the first link lost, say): the new link replaces the old, which is dead at once; one row is listed
    const first = await invitePerson(db, ada, { email: "twice@lab.example", role: "viewer" });
    expect(first.replaced).toBe(0);
    const second = await invitePerson(db, ada, { email: " Twice@lab.example", role: "member" });
    expect(second.replaced).toBe(1);
    expect(await readInvite(db, first.token)).toBeNull();
    expect(await readInvite(db, second.token)).toMatchObject({ email: "twice@lab.example", role: "member" });
    expect((await listPeople(db)).invites.filter((i) => i.email === "twice@lab.example")).toEqual([
      { email: "twice@lab.example", role: "member", expiresAt: expect.any(Date), createdAt: expect.any(Date) },
    ]);
    expect((await readAudit(db, 1))[0]).toMatchObject({
      action: "person.invited",
      subject: "twice@lab.example",
      detail: { role: "member", invites_replaced: 1 },
    });
    await expect(acceptInvite(db, first.token, { name: "Twice", password: PASSWORD })).rejects.toMatchObject({
      code: "not_found:invite",
    });
    // two invites sent at the same moment leave one working link (on PGlite, transactions run one at a time anyway:
    // the PostgreSQL run of this file is where the lock on the address is what makes this pass)
    const racing = await Promise.all([
      invitePerson(db, ada, { email: "race@lab.example", role: "viewer" }),
      invitePerson(db, null, { email: "race@lab.example", role: "viewer" }),
    ]);
    const alive = await Promise.all(racing.map((r) => readInvite(db, r.token)));
    expect(alive.filter((a) => a !== null)).toHaveLength(1);
    expect(racing.map((r) => r.replaced).sort()).toEqual([0, 1]);
    expect(await revokeInvite(db, null, { email: "race@lab.example" })).toHaveLength(1);
    expect(await revokeInvite(db, null, { email: "twice@lab.example" })).toHaveLength(1);
    expect((await readAudit(db, 1))[0]).toMatchObject({
      actorEmail: "command line",
      action: "person.invite_revoked",
      detail: { role: "member" },
    });
    // an account made meanwhile: no invite to it
    await expect(invitePerson(db, ada, { email: "right@lab.example", role: "viewer" })).rejects.toMatchObject({
      code: "conflict:user",
    });
    const old = await invitePerson(db, ada, { email: "old@lab.example", role: "viewer" });
    const expired = new Date(Date.now() + 8 * 24 * 3600 * 1000);
    await expect(revokeInvite(db, ada, { email: "old@lab.example" }, expired)).rejects.toMatchObject(none);
    expect(await readInvite(db, old.token)).not.toBeNull();
    await revokeInvite(db, ada, { email: "old@lab.example" });
  });

  it("leaves one owner when two owners demote each other at the same moment", async () => {
    const db = handle.db;
    const ada = (await listPeople(db)).people.find((p) => p.role === "owner") as { id: string; email: string };
    const bo = await addPerson(db, ada, { email: "bo@lab.example", name: "Bo", password: PASSWORD, role: "owner" });
    // each demotes the other; with the owners locked while checked, one must find itself the only owner
    const results = await Promise.allSettled([
      changeRole(db, ada, bo.id, "member"),
      changeRole(db, bo, ada.id, "member"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/only owner/);
    const owners = (await listPeople(db)).people.filter((p) => p.role === "owner");
    expect(owners).toHaveLength(1);
    // back as before: Ada the one owner, Bo gone
    const survivor = owners[0] as { id: string; email: string };
    if (survivor.id !== ada.id) await changeRole(db, survivor, ada.id, "owner");
    await removePerson(db, ada, bo.id);
    expect((await listPeople(db)).people.filter((p) => p.role === "owner").map((p) => p.id)).toEqual([ada.id]);
  });

  it("revokes a person's share links when they are removed, or become a viewer", async () => {
    const db = handle.db;
    const ada = (await listPeople(db)).people.find((p) => p.role === "owner") as { id: string; email: string };
    const linksOf = async (email: string) => {
      const person = await addPerson(db, ada, { email, name: "Sharer", password: PASSWORD, role: "member" });
      const runId = `run-of-${person.id}`;
      await insertRun(db, {
        id: runId,
        question: "q",
        mode: "offline",
        model: "extractive",
        startedAt: new Date().toISOString(),
        steps: [],
        ownerId: person.id,
      });
      const { token } = await createShareLink(db, person, { runId });
      expect(await resolveShareToken(db, token)).toBe(runId);
      return { person, token };
    };
    const removed = await linksOf("gone@lab.example");
    const demoted = await linksOf("viewer-now@lab.example");
    const promoted = await linksOf("owner-now@lab.example");
    await removePerson(db, ada, removed.person.id);
    await changeRole(db, ada, demoted.person.id, "viewer");
    await changeRole(db, ada, promoted.person.id, "owner");
    expect(await resolveShareToken(db, removed.token)).toBeNull();
    expect(await resolveShareToken(db, demoted.token)).toBeNull();
    // someone who may still share keeps their links
    expect(await resolveShareToken(db, promoted.token)).not.toBeNull();
    const audit = await readAudit(db);
    expect(audit.find((a) => a.action === "person.removed" && a.subject === "gone@lab.example")).toBeTruthy();
    await changeRole(db, ada, promoted.person.id, "member");
    await removePerson(db, ada, promoted.person.id);
    await removePerson(db, ada, demoted.person.id);
  });

  it("limits guesses per account", async () => {
    const db = handle.db;
    const guess = () => signIn(db, { email: "limit@lab.example", password: "wrong password!" }, new Headers());
    // the limit counts per fixed window: the clock is set early in one, so no guess falls into the next (the test
    // failed once when its guesses straddled a window's end at 18:30)
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T10:01:00Z"));
    try {
      for (let i = 0; i < SIGN_IN_LIMIT.limit; i++) await expect(guess()).rejects.toThrow(/do not match/);
      await expect(guess()).rejects.toMatchObject({ code: "rate_limited:session", retryAfter: expect.any(Number) });
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts failed sign-ins only: signing in correctly again and again never locks the account", async () => {
    const db = handle.db;
    const owner = (await listPeople(db)).people[0] as { id: string; email: string };
    await addPerson(db, owner, { email: "often@lab.example", name: "Often", password: PASSWORD, role: "member" });
    const right = () =>
      signIn(db, { email: "often@lab.example", password: PASSWORD, client: "10.0.0.9" }, new Headers());
    const wrong = () =>
      signIn(db, { email: "often@lab.example", password: "wrong password!", client: "10.0.0.9" }, new Headers());
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T11:01:00Z"));
    try {
      for (let i = 0; i <= SIGN_IN_LIMIT.limit; i++) await expect(right()).resolves.toMatchObject({});
      // the failures still count: the limit's worth of them, then even the right password waits
      for (let i = 0; i < SIGN_IN_LIMIT.limit; i++) await expect(wrong()).rejects.toThrow(/do not match/);
      // per account, per account from this client, and per client, only the failures stand
      const counts = async () =>
        Object.fromEntries(
          (
            await queryRows<{ key: string; count: number }>(
              db,
              sql`select key, count from rate_limits where key in ('sign-in:often@lab.example', 'sign-in:often@lab.example:10.0.0.9', 'sign-in-ip:10.0.0.9')`,
            )
          ).map((r) => [r.key, Number(r.count)]),
        );
      expect(await counts()).toEqual({
        "sign-in:often@lab.example": 10,
        "sign-in:often@lab.example:10.0.0.9": 10,
        "sign-in-ip:10.0.0.9": 10,
      });
      await expect(right()).rejects.toMatchObject({ code: "rate_limited:session" });
      // …from that address: the account's owner signs in from another one (a stranger's guesses do not lock them out)
      const elsewhere = signIn(
        db,
        { email: "often@lab.example", password: PASSWORD, client: "10.0.0.10" },
        new Headers(),
      );
      await expect(elsewhere).resolves.toMatchObject({});
      // guesses spread over many addresses meet the account's own ceiling: a few real ones from new addresses count
      // for the account…
      const spread = 3;
      for (let i = 0; i < spread; i++) {
        await expect(
          signIn(db, { email: "often@lab.example", password: "wrong password!", client: `10.1.0.${i}` }, new Headers()),
        ).rejects.toThrow(/do not match/);
      }
      // (the ten failures, the refused attempt above — refused by its address's limit after the account's counted it —
      // and these; the sign-in from elsewhere succeeded, so it does not stand)
      expect((await counts())["sign-in:often@lab.example"]).toBe(11 + spread);
      // …and the rest of the ceiling's worth are written as the counter would hold them (each real guess costs a
      // password hash: the ceiling's worth of them made this test the suite's slowest)
      await db.execute(
        sql`update rate_limits set count = count + ${SIGN_IN_ACCOUNT_LIMIT.limit - 11 - spread} where key = 'sign-in:often@lab.example'`,
      );
      await expect(
        signIn(db, { email: "often@lab.example", password: PASSWORD, client: "10.0.0.11" }, new Headers()),
      ).rejects.toMatchObject({ code: "rate_limited:session" });
    } finally {
      vi.useRealTimers();
    }
  });
});
