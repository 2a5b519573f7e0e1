"use server";

import type { z } from "zod";
import { getDb } from "@/db";
import { createShareLink, listRunShareLinks, revokeShareLink, type ShareLink } from "@/lib/auth/share";
import { LecternError, type Result, toErrorResult } from "@/lib/errors";
import { loadOwnRun } from "@/lib/research/access";
import { requireUser } from "../../access";
import { firstIssue, runInputSchema } from "./schema";
import { createShareInputSchema, revokeShareInputSchema } from "./share-schema";

/**
 * Share links of a run, for its author only: each action checks the role (`research:run`: members and owners), then
 * that the signed-in person wrote the run (`loadOwnRun`, again in lib/auth/share.ts for every call of the library).
 */

function parse<T extends z.ZodType>(schema: T, input: unknown, fallback: string): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new LecternError("bad_request:input", firstIssue(parsed.error, fallback));
  return parsed.data;
}

/**
 * The signed-in person if they may share (role) and wrote the run named in `input` (refusals: unauthorized:session,
 * forbidden:role, bad_request:input, not_found:run, forbidden:run — in that order).
 */
async function authorOf<T extends z.ZodType<{ runId: string }>>(
  schema: T,
  input: unknown,
  fallback: string,
): Promise<{ user: { id: string }; input: z.output<T> }> {
  const user = await requireUser("research:run");
  const parsed = parse(schema, input, fallback);
  await loadOwnRun(await getDb(), parsed.runId, user.id);
  return { user, input: parsed };
}

/** A new link; its token is in this answer and nowhere else (the page shows `/s/<token>` once). */
export async function createShareLinkAction(
  runId: string,
  expiresAt?: string | null,
): Promise<Result<{ token: string; link: ShareLink }>> {
  try {
    const { user, input } = await authorOf(
      createShareInputSchema,
      { runId, expiresAt },
      "That share link cannot be made.",
    );
    return { ok: true, data: await createShareLink(await getDb(), user, input) };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** The run's links, newest first, without their tokens. */
export async function listShareLinksAction(runId: string): Promise<Result<ShareLink[]>> {
  try {
    const { user, input } = await authorOf(runInputSchema, { runId }, "That is not a research run id.");
    return { ok: true, data: await listRunShareLinks(await getDb(), user, input.runId) };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Revokes a link of the run: the next request through it is a 404. */
export async function revokeShareLinkAction(runId: string, linkId: string): Promise<Result<ShareLink>> {
  try {
    const { user, input } = await authorOf(
      revokeShareInputSchema,
      { runId, linkId },
      "That share link cannot be revoked.",
    );
    return { ok: true, data: await revokeShareLink(await getDb(), user, input) };
  } catch (e) {
    return toErrorResult(e);
  }
}
