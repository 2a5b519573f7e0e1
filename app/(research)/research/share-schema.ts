import { z } from "zod";
import { runIdSchema } from "./schema";

/** Share link ids are 96 random bits in base64url (lib/auth/share.ts); anything else is not a link. */
export const shareLinkIdSchema = z
  .string("The link id must be text.")
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "That is not a share link of this run.");

/**
 * When a new link stops working: an ISO 8601 instant with its offset (the browser turns the chosen day into the end
 * of that day where the author is), or nothing for a link that does not expire. Whether it is in the future is the
 * library's check (lib/auth/share.ts), against the server's clock.
 */
export const shareExpirySchema = z
  .preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    z.iso.datetime({ offset: true, error: "The expiry must be a date." }).nullable(),
  )
  .transform((v) => (v ? new Date(v) : null));

export const createShareInputSchema = z.object({ runId: runIdSchema, expiresAt: shareExpirySchema });
export type CreateShareInput = z.input<typeof createShareInputSchema>;

export const revokeShareInputSchema = z.object({ runId: runIdSchema, linkId: shareLinkIdSchema });
export type RevokeShareInput = z.infer<typeof revokeShareInputSchema>;
