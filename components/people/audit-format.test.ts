import { describe, expect, it } from "vitest";
import { auditDetail, auditSubjectIsPaper, auditWhat } from "./audit-format";

describe("the audit trail's wording", () => {
  it("names each action and falls back to the stored name for one it does not know", () => {
    expect(auditWhat("person.role_changed")).toBe("Changed a role");
    expect(auditWhat("paper.uploaded")).toBe("Uploaded a paper");
    expect(auditWhat("person.invite_revoked")).toBe("Revoked an invite");
    expect(auditWhat("share.created")).toBe("share.created");
  });

  it("writes the details in a line", () => {
    expect(auditDetail({ action: "person.role_changed", detail: { from: "member", to: "viewer" } })).toBe(
      "member → viewer",
    );
    expect(auditDetail({ action: "person.added", detail: { role: "owner", runsAdopted: 0 } })).toBe("as owner");
    expect(auditDetail({ action: "person.added", detail: { role: "owner", runsAdopted: 3 } })).toBe(
      "as owner · 3 earlier runs became theirs",
    );
    expect(auditDetail({ action: "paper.uploaded", detail: { file: "a.pdf", pages: 12 } })).toBe("a.pdf · 12 pages");
    expect(auditDetail({ action: "paper.edited", detail: { fields: "title, year" } })).toBe("title, year");
    expect(auditDetail({ action: "person.password_reset", detail: {} })).toBe("");
    expect(auditDetail({ action: "person.invited", detail: { role: "member", invites_replaced: 1 } })).toBe(
      "as member · its earlier link stopped working",
    );
    expect(auditDetail({ action: "person.invited", detail: { role: "viewer", invites_replaced: 2 } })).toBe(
      "as viewer · 2 earlier links stopped working",
    );
    expect(auditDetail({ action: "person.invite_revoked", detail: { role: "member", invites_revoked: 2 } })).toBe(
      "as member · 2 links",
    );
    expect(auditDetail({ action: "x.y", detail: { why: "because", n: null } })).toBe("why: because · n: null");
  });

  it("links the papers still in the library", () => {
    expect(auditSubjectIsPaper("paper.edited")).toBe(true);
    expect(auditSubjectIsPaper("paper.deleted")).toBe(false);
    expect(auditSubjectIsPaper("person.added")).toBe(false);
  });
});
