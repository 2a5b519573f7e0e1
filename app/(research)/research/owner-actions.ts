import type { RunOwnerActions } from "@/components/research/types";
import { getEnv } from "@/lib/env";
import { deleteRunAction } from "./actions";
import { createShareLinkAction, listShareLinksAction, revokeShareLinkAction } from "./share-actions";

/** What the author of a run does with it from its page (passed from the server pages as props). */
export const runOwnerActions: RunOwnerActions = {
  listShareLinks: listShareLinksAction,
  createShareLink: createShareLinkAction,
  revokeShareLink: revokeShareLinkAction,
  deleteRun: deleteRunAction,
};

/** The research view's `owner` prop: the actions, and the app's public address for absolute share links. */
export function runOwner(): { actions: RunOwnerActions; origin: string | null } {
  return { actions: runOwnerActions, origin: getEnv().LECTERN_PUBLIC_URL ?? null };
}
