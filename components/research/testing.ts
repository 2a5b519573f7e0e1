/**
 * Fixtures for the research components' tests: a citation of a paper's page, and the props of a run view nobody acts
 * on (not followed, no feedback; its actions do nothing).
 */
import type { Citation } from "@/lib/research/types";

/** A supported citation of `paperId`'s page `page` whose quote is its claim. */
export function testCitation(paperId: string, page: number, claim: string, extra: Partial<Citation> = {}): Citation {
  return {
    index: page,
    marker: `[${paperId}, page ${page}]`,
    paperId,
    page,
    claim,
    chunkUid: `u${page}`,
    quote: claim,
    charStart: null,
    charEnd: null,
    supported: true,
    support: 0.9,
    ...extra,
  };
}

/** RunView's props besides the run, for a view that is only looked at. */
export const IDLE_RUN_VIEW = {
  following: false,
  cancelling: false,
  feedback: null,
  onCancel: () => {},
  onAskAgain: () => {},
  sendFeedback: async () => ({ ok: false as const, error: { code: "internal:run" as const, message: "x" } }),
};
