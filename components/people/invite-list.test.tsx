// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { Result } from "@/lib/errors";
import { InviteList } from "./invite-list";
import type { InviteItem, RoleOption } from "./types";

const ROLES: RoleOption[] = [
  { value: "member", label: "Member", description: "" },
  { value: "viewer", label: "Viewer", description: "" },
];
const INVITES: InviteItem[] = [
  {
    email: "wrong@lab.example",
    role: "member",
    expiresAt: "2026-01-08T00:00:00.000Z",
    createdAt: "2026-01-01T00:00:00.000Z",
  },
  {
    email: "right@lab.example",
    role: "viewer",
    expiresAt: "2026-01-08T00:00:00.000Z",
    createdAt: "2026-01-01T00:00:00.000Z",
  },
];

/** The list with a revoke action that answers `reply`, and what it was asked and told. */
function renderList(reply: Result<{ email: string; revoked: number }>) {
  const asked: { email: string }[] = [];
  const done: string[] = [];
  render(
    <InviteList
      invites={INVITES}
      roles={ROLES}
      revoke={async (input) => {
        asked.push(input);
        return reply;
      }}
      onDone={(m) => done.push(m)}
    />,
  );
  return { asked, done };
}

afterEach(cleanup);

describe("revoking an open invite", () => {
  it("asks first, by keyboard too; Cancel revokes nothing, Revoke revokes that invite and says so", async () => {
    const user = userEvent.setup();
    const { asked, done } = renderList({ ok: true, data: { email: "wrong@lab.example", revoked: 1 } });
    const button = screen.getByRole("button", { name: "Revoke the invite for wrong@lab.example" });
    button.focus();
    await user.keyboard("{Enter}");
    const dialog = await screen.findByTestId("revoke-invite-dialog");
    expect(dialog.textContent).toContain("wrong@lab.example");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByTestId("revoke-invite-dialog")).toBeNull());
    expect(asked).toEqual([]);

    await user.click(button);
    await user.click(await screen.findByTestId("revoke-invite-confirm"));
    await waitFor(() => expect(screen.queryByTestId("revoke-invite-dialog")).toBeNull());
    expect(asked).toEqual([{ email: "wrong@lab.example" }]);
    expect(done).toEqual(["Revoked the invite for wrong@lab.example; its link no longer works."]);
  });

  it("keeps the dialog open with the server's message when it is refused", async () => {
    const user = userEvent.setup();
    const message = "There is no open invite for right@lab.example.";
    const { done } = renderList({ ok: false, error: { code: "not_found:invite", message } });
    await user.click(screen.getByRole("button", { name: "Revoke the invite for right@lab.example" }));
    await user.click(await screen.findByTestId("revoke-invite-confirm"));
    expect((await screen.findByTestId("revoke-invite-error")).textContent).toBe(message);
    expect(screen.getByTestId("revoke-invite-dialog")).toBeTruthy();
    expect(done).toEqual([]);
  });
});
