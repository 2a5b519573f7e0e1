/**
 * The cosines tier B of entity resolution decides by (lib/graph/resolve.ts), apart from it so that the review queue's
 * page can weigh a proposal by them without importing the database.
 */

/** Cosine at or above which a shared-key pair is linked without review. */
export const TIER_B_LINK = 0.95;
/** Cosine at or above which a pair without a shared key is proposed for review. */
export const TIER_B_SUGGEST = 0.9;
