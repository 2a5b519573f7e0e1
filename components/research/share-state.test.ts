import { describe, expect, it } from "vitest";
import type { ShareLink } from "@/lib/auth/share";
import { dateInputValue, describeShareLink, expiryFromDateInput, shareUrl } from "./share-state";

describe("a new link's expiry, from the date picked", () => {
  const now = new Date(2026, 10, 26, 15, 30); // 26 Nov 2026, 15:30 where the browser is

  it("is the end of that day where the author is; none when no date is picked", () => {
    expect(expiryFromDateInput("", now)).toEqual({ ok: true, expiresAt: null });
    const r = expiryFromDateInput("2026-12-01", now);
    expect(r).toEqual({ ok: true, expiresAt: new Date(2026, 11, 1, 23, 59, 59, 999).toISOString() });
    // today still has hours left
    expect(expiryFromDateInput(dateInputValue(now), now).ok).toBe(true);
  });

  it("refuses a day gone by, and what is not a date", () => {
    expect(expiryFromDateInput("2026-11-25", now)).toEqual({
      ok: false,
      message: "Pick a date in the future (or none).",
    });
    expect(expiryFromDateInput("2026-02-30", now)).toMatchObject({ ok: false, message: "That is not a date." });
    expect(expiryFromDateInput("tomorrow", now).ok).toBe(false);
  });
});

describe("a link as listed", () => {
  const link: ShareLink = {
    id: "l1",
    label: "ab12cd",
    createdAt: "2026-11-26T10:00:00.000Z",
    expiresAt: null,
    revokedAt: null,
    state: "active",
  };

  it("says when it was made and when it ends or ended", () => {
    expect(describeShareLink(link)).toMatch(/^Created 26 Nov 2026, \d\d:\d\d · no expiry$/);
    expect(describeShareLink({ ...link, expiresAt: "2026-12-01T10:00:00.000Z" })).toMatch(/expires 1 Dec 2026/);
    expect(describeShareLink({ ...link, state: "revoked", revokedAt: "2026-11-27T10:00:00.000Z" })).toMatch(
      /revoked 27 Nov 2026/,
    );
    expect(describeShareLink({ ...link, state: "expired", expiresAt: "2026-11-27T10:00:00.000Z" })).toMatch(
      /expired 27 Nov 2026/,
    );
  });

  it("is an absolute address on the configured origin, or the page's", () => {
    expect(shareUrl("https://lectern.lab.example/", "/s/abc")).toBe("https://lectern.lab.example/s/abc");
    expect(shareUrl("http://127.0.0.1:3000", "/s/abc")).toBe("http://127.0.0.1:3000/s/abc");
  });
});
