import { describe, expect, it } from "vitest";
import { inviteDescription, ROLE_DESCRIPTIONS_FOR_INVITEE, ROLES } from "./roles";

describe("the invite page's description of a role", () => {
  it("speaks to the person invited, not of them", () => {
    for (const role of ROLES) {
      const line = inviteDescription(role);
      expect(line).toContain(ROLE_DESCRIPTIONS_FOR_INVITEE[role]);
      expect(line).not.toMatch(/\b(their|them|they)\b/i);
    }
    expect(inviteDescription("member")).toBe(
      "You are invited as a member. You may upload and edit papers, research, and share and delete your own runs.",
    );
    expect(inviteDescription("viewer")).toContain("the runs shared with you.");
  });

  it("says an owner, not a owner", () => {
    expect(inviteDescription("owner")).toMatch(/^You are invited as an owner\. /);
  });
});
