import "server-only";
import { exampleQuestions } from "@/components/research/examples";
import type { RecentRun, ResearchLibrary } from "@/components/research/types";
import { getDb } from "@/db";
import { listPapers } from "@/db/queries/papers";
import { listRuns } from "@/db/queries/research";
import { can, type Role } from "@/lib/auth/roles";
import type { SessionUser } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { isLecternError, userMessage } from "@/lib/errors";
import { WEB_SEARCH_HOW_TO_ENABLE, webSearchConfigOf } from "@/lib/web/config";

const RECENT_RUNS = 12;

export interface ResearchPageData {
  library: ResearchLibrary | null;
  recentRuns: RecentRun[];
  /** Why the library or the runs could not be read (e.g. another process holds the database). */
  loadError: string | null;
}

/** What both research pages show beside a run: the question box's examples and the person's own recent runs. */
export async function loadResearchPageData(user: SessionUser): Promise<ResearchPageData> {
  try {
    const db = await getDb();
    const [papers, runs] = await Promise.all([
      listPapers(db, { sort: "added" }),
      listRuns(db, { limit: RECENT_RUNS, ownerId: user.id }),
    ]);
    const ready = papers.filter((p) => p.status === "ready");
    return {
      // examples from the newest papers
      library: {
        ready: ready.length,
        processing: papers.length - ready.length,
        examples: exampleQuestions(ready),
        web: webSearchAvailability(user.role),
      },
      recentRuns: runs,
      loadError: null,
    };
  } catch (e) {
    if (!isLecternError(e)) console.error("[research]", e);
    return { library: null, recentRuns: [], loadError: userMessage(e) };
  }
}

/**
 * Whether the question box offers web search, with which provider, or how to enable it — told only to whoever may set
 * the instance up (the owner); to anyone else the box says nothing of a feature they cannot turn on.
 */
export function webSearchAvailability(role: Role): NonNullable<ResearchLibrary["web"]> {
  const env = getEnv();
  const provider = webSearchConfigOf(env).provider;
  if (provider) return { available: true, provider: provider.name, mode: env.LECTERN_WEB_SEARCH, howToEnable: null };
  const howToEnable = can(role, "instance:configure") ? WEB_SEARCH_HOW_TO_ENABLE : null;
  return { available: false, provider: null, mode: env.LECTERN_WEB_SEARCH, howToEnable };
}
