import type { Database } from "@/db";
import { listPapers } from "@/db/queries/papers";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { searchContent, searchSummaries } from "@/lib/search/search";
import { runResearch } from "./orchestrator";

export interface WarmUpResult {
  /** What ran: a whole offline research run, the full-text searches only, or nothing (an empty library, an error). */
  ran: "research" | "full-text" | "nothing";
  /** How the warm-up question's run ended (research only): any ending warms the caches it reached. */
  status?: string;
  /** Why nothing ran, when it failed. */
  error?: string;
  ms: number;
}

/**
 * Runs one research question over the library, discarding the result, so the first user's question after a server
 * start does not pay for cold caches: on PGlite the first search of each kind takes several times longer than the
 * next (catalog and plan caches, the WebAssembly heap), and while it runs it holds the event loop, so even the first
 * streamed event waits for it (docs/benchmarks.md, "Research in the browser").
 *
 * Always offline: no model is called, and with a remote embedder only the full-text searches run (a warm-up should not
 * spend anyone's API budget). The question is built from a paper title, so every search stage finds rows. Nothing is
 * saved. Never throws: a failed warm-up only means a slower first question.
 */
export async function warmUpResearch(
  deps: { db: Database; embedder: EmbeddingProvider },
  opts: { timeoutMs?: number } = {},
): Promise<WarmUpResult> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  try {
    const [paper] = await listPapers(deps.db, { limit: 1 });
    if (!paper) return { ran: "nothing", ms: ms() };
    const question = `What does ${paper.title} propose, and how is it evaluated?`;
    if (deps.embedder.kind !== "openai") {
      const state = await runResearch(
        {
          db: deps.db,
          embedder: deps.embedder,
          chatModel: null,
          llmTimeoutMs: 1_000,
          runTimeoutMs: opts.timeoutMs ?? 10_000,
        },
        question,
        { runId: "warm-up", onEvent: () => {} },
      );
      return { ran: "research", status: state.status, ms: ms() };
    }
    const papers = await searchSummaries(deps.db, question, deps.embedder, { retriever: "fts", cutoff: 0 });
    await searchContent(deps.db, question, deps.embedder, {
      retriever: "fts",
      paperIds: papers.map((p) => p.paperId),
    });
    return { ran: "full-text", ms: ms() };
  } catch (e) {
    return { ran: "nothing", error: e instanceof Error ? e.message : String(e), ms: ms() };
  }
}
