// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
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

/** The table of `people` as person "a" sees it. */
function renderTable(people: PersonItem[]) {
  render(<PeopleTable people={people} me="a" roles={ROLES} passwordHint="" actions={ACTIONS} onDone={() => {}} />);
}

function removeButtons(people: PersonItem[]) {
  renderTable(people);
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

describe("each person's controls (a row of the table, or a card of its own on a phone)", () => {
  it("are named for the person they act on, and reached in order by Tab", async () => {
    const user = userEvent.setup();
    renderTable([person("a", "owner"), person("b", "member")]);
    const expected = [
      screen.getByRole("combobox", { name: "Role of Person a" }),
      screen.getByRole("button", { name: "Reset the password of Person a" }),
      // (the only owner's Remove is disabled, so Tab passes it by)
      screen.getByRole("combobox", { name: "Role of Person b" }),
      screen.getByRole("button", { name: "Reset the password of Person b" }),
      screen.getByRole("button", { name: "Remove Person b" }),
    ];
    const reached: Element[] = [];
    for (const _ of expected) {
      await user.tab();
      if (document.activeElement) reached.push(document.activeElement);
    }
    expect(reached).toEqual(expected);
  });

  it("keep the email in the name's cell, where a phone shows it (the email column is hidden there)", () => {
    renderTable([person("b", "member")]);
    const [nameCell] = screen.getByTestId("person-row").querySelectorAll("td");
    expect(nameCell?.textContent).toContain("b@lab.example");
  });
});
