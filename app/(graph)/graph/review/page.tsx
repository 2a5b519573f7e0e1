import type { Metadata } from "next";
import { ReviewQueue } from "@/components/graph/review-queue";
import { getDb } from "@/db";
import { can } from "@/lib/auth/roles";
import { loadReviewQueue, MAX_REJECT_REASON_CHARS } from "@/lib/graph/review";
import { pageUser } from "../../../access";
import { decideAliasSuggestionAction, reviewEdgeAction, splitAliasAction } from "../actions";

export const metadata: Metadata = { title: "Review queue – Knowledge graph" };
export const dynamic = "force-dynamic";

/** Everyone who reads the library sees the queue; owners and members decide (the actions check it again). */
export default async function GraphReviewPage() {
  const user = await pageUser("/graph/review");
  const queue = await loadReviewQueue(await getDb());
  const actions = can(user.role, "library:write")
    ? { reviewEdge: reviewEdgeAction, decideSuggestion: decideAliasSuggestionAction, splitAlias: splitAliasAction }
    : null;
  return <ReviewQueue {...queue} actions={actions} maxReasonChars={MAX_REJECT_REASON_CHARS} />;
}
