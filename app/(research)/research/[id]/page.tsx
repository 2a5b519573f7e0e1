import type { Metadata, ResolvingMetadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ResearchView } from "@/components/research/research-view";
import type { ResearchRunView } from "@/components/research/types";
import { getDb } from "@/db";
import { getRun } from "@/db/queries/research";
import { isRunLive } from "@/lib/research/runs";
import { cancelRunAction, feedbackAction, startResearchAction, watchRunAction } from "../actions";
import { loadResearchPageData } from "../data";
import { loadDeepRunInfo } from "../deep/data";
import { deepActions } from "../deep/deep-actions";
import { runIdSchema } from "../schema";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

/** Once per request, shared by the metadata and the page. Null for an id that is not a run's. */
const loadRun = cache(async (rawId: string): Promise<ResearchRunView | null> => {
  const id = runIdSchema.safeParse(rawId);
  if (!id.success) return null;
  const stored = await getRun(await getDb(), id.data);
  if (!stored) return null;
  // what the page shows of the stored run: not the retrieval log kept for evaluation
  const { parentId: _parent, retrieved: _retrieved, feedback, ...run } = stored;
  return { run, live: run.status === "running" && isRunLive(run.runId), feedback };
});

export async function generateMetadata({ params }: Props, parent: ResolvingMetadata): Promise<Metadata> {
  const view = await loadRun((await params).id);
  if (!view) return { title: "Research run not found" };
  const q = view.run.question;
  const title = q.length > 60 ? `${q.slice(0, 60)}…` : q;
  // the layout's card (its image) with the question as its title: a page's openGraph replaces the layout's whole
  return { title, openGraph: { ...(await parent).openGraph, title } };
}

export default async function ResearchRunPage({ params }: Props) {
  const [view, data] = await Promise.all([(async () => loadRun((await params).id))(), loadResearchPageData()]);
  if (!view) notFound();
  // the outline and versions beside the answer; the answer still shows when they cannot be read
  const deepInfo = await loadDeepRunInfo(await getDb(), view.run.runId).catch((e) => {
    console.error("[research] versions", e);
    return null;
  });
  return (
    <ResearchView
      initial={view}
      library={data.library}
      recentRuns={data.recentRuns}
      loadError={data.loadError}
      actions={{ start: startResearchAction, watch: watchRunAction, cancel: cancelRunAction, feedback: feedbackAction }}
      // the question box stays in the mode of the run shown
      deep={{ actions: deepActions, info: deepInfo, initialMode: deepInfo?.deep ? "deep" : "quick" }}
    />
  );
}
