import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs } from "@/app/testing";
import type { DbHandle } from "@/db";
import { insertRun } from "@/db/queries/research";
import { listShareLinks } from "@/db/queries/shares";
import { createAppTestDatabase } from "@/db/testing";
import { resolveShareToken } from "@/lib/auth/share";
import { createShareLinkAction, listShareLinksAction, revokeShareLinkAction } from "./share-actions";

// The actions as the app runs them, on a test database, signed in as real accounts.
let handle: DbHandle;

const DAY = 24 * 3600 * 1000;
let runId = "";

beforeAll(async () => {
  handle = await createAppTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

describe("share link actions", () => {
  it("let the author create, list and revoke links", async () => {
    const author = await signInAs(handle.db, "member");
    runId = "shareActionRun01";
    await insertRun(handle.db, {
      id: runId,
      question: "What is tidal sensing?",
      mode: "offline",
      model: "extractive",
      startedAt: new Date().toISOString(),
      steps: [],
      ownerId: author?.id,
    });

    const open = await createShareLinkAction(runId);
    if (!open.ok) throw new Error(open.error.message);
    expect(open.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(open.data.link).toMatchObject({ state: "active", expiresAt: null });
    expect(await resolveShareToken(handle.db, open.data.token)).toBe(runId);

    const expiresAt = new Date(Date.now() + 7 * DAY).toISOString();
    const expiring = await createShareLinkAction(runId, expiresAt);
    expect(expiring).toMatchObject({ ok: true, data: { link: { state: "active", expiresAt } } });

    const listed = await listShareLinksAction(runId);
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.data).toHaveLength(2);
    // the list never carries a token
    expect(JSON.stringify(listed.data)).not.toContain(open.data.token);

    const revoked = await revokeShareLinkAction(runId, open.data.link.id);
    expect(revoked).toMatchObject({ ok: true, data: { id: open.data.link.id, state: "revoked" } });
    expect(await resolveShareToken(handle.db, open.data.token)).toBeNull();
    const after = await listShareLinksAction(runId);
    expect(after.ok && after.data.map((l) => l.state).sort()).toEqual(["active", "revoked"]);
  });

  it("refuse an expiry that is not a future date, and malformed input", async () => {
    // still the author from the test above
    const past = await createShareLinkAction(runId, new Date(Date.now() - DAY).toISOString());
    expect(past).toEqual({
      ok: false,
      error: { code: "bad_request:share", message: "The expiry date must be in the future.", field: "expiresAt" },
    });
    expect(await createShareLinkAction(runId, "next tuesday")).toMatchObject({
      ok: false,
      error: { code: "bad_request:input", message: "The expiry must be a date." },
    });
    expect(await createShareLinkAction("../x")).toMatchObject({
      ok: false,
      error: { code: "bad_request:input", message: "That is not a research run id." },
    });
    expect(await revokeShareLinkAction(runId, "no such link!")).toMatchObject({
      ok: false,
      error: { code: "bad_request:input" },
    });
    expect(await revokeShareLinkAction(runId, "unknownLink00001")).toMatchObject({
      ok: false,
      error: { code: "not_found:share" },
    });
  });

  it("refuse another member (forbidden:run), a viewer (forbidden:role) and a visitor without a session", async () => {
    const listed = await listShareLinksAction(runId);
    const linkId = listed.ok ? (listed.data[0]?.id ?? "") : "";
    expect(linkId).not.toBe("");

    await signInAs(handle.db, "member");
    const notYours = { ok: false, error: { code: "forbidden:run", message: expect.stringMatching(/private/) } };
    expect(await createShareLinkAction(runId)).toEqual(notYours);
    expect(await listShareLinksAction(runId)).toEqual(notYours);
    expect(await revokeShareLinkAction(runId, linkId)).toEqual(notYours);

    await signInAs(handle.db, "viewer");
    const role = { ok: false, error: { code: "forbidden:role", message: expect.stringMatching(/viewer/) } };
    expect(await createShareLinkAction(runId)).toEqual(role);
    expect(await listShareLinksAction(runId)).toEqual(role);
    expect(await revokeShareLinkAction(runId, linkId)).toEqual(role);

    await signInAs(handle.db, null);
    expect(await createShareLinkAction(runId)).toMatchObject({ ok: false, error: { code: "unauthorized:session" } });
    expect(await revokeShareLinkAction(runId, linkId)).toMatchObject({
      ok: false,
      error: { code: "unauthorized:session" },
    });

    // an owner is not the author either: runs are private to their author, whatever the role
    await signInAs(handle.db, "owner");
    expect(await listShareLinksAction(runId)).toEqual(notYours);

    // nothing changed: the two links are as they were
    const links = await listShareLinks(handle.db, { runId });
    expect(links.map((l) => (l.revokedAt ? "revoked" : "active")).sort()).toEqual(["active", "revoked"]);
  });
});
