// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { PeopleTable } from "./people-table";
import type { PeopleActions, PersonItem, RoleOption } from "./types";

const ROLES: RoleOption[] = [
  { value: "owner", label: "Owner", description: "" },
  { value: "member", label: "Member", description: "" },
  { value: "viewer", label: "Viewer", description: "" },
];
const refuse = async () => ({ ok: false as const, error: { code: "forbidden:role" as const, message: "no" } });
const ACTIONS = {
  add: refuse,
  changeRole: refuse,
  resetPassword: refuse,
  remove: refuse,
  revokeInvite: refuse,
} as unknown as PeopleActions;

function person(id: string, role: PersonItem["role"]): PersonItem {
  return { id, name: `Person ${id}`, email: `${id}@lab.example`, role, createdAt: "2026-01-01T00:00:00.000Z" };
}

function removeButtons(people: PersonItem[]) {
  render(<PeopleTable people={people} me="a" roles={ROLES} passwordHint="" actions={ACTIONS} onDone={() => {}} />);
  return screen.getAllByTestId("person-remove") as HTMLButtonElement[];
}

afterEach(cleanup);

describe("the accounts table", () => {
  it("disables Remove for the only owner up front, and says why", () => {
    const [owner, member] = removeButtons([person("a", "owner"), person("b", "member")]);
    expect(owner?.disabled).toBe(true);
    expect(owner?.getAttribute("aria-label")).toMatch(/only owner cannot be removed/);
    expect(member?.disabled).toBe(false);
  });

  it("lets either of two owners be removed", () => {
    const buttons = removeButtons([person("a", "owner"), person("b", "owner")]);
    expect(buttons.map((b) => b.disabled)).toEqual([false, false]);
  });
});
