import { LockIcon } from "lucide-react";
import type { Metadata, ResolvingMetadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { NoticePage } from "@/components/layout/notice-page";
import { ResearchView } from "@/components/research/research-view";
import type { ResearchRunView } from "@/components/research/types";
import { getDb } from "@/db";
import { getRun } from "@/db/queries/research";
import { can } from "@/lib/auth/roles";
import { currentUser, pageUser } from "../../../access";
import { cancelRunAction, feedbackAction, startResearchAction, watchRunAction } from "../actions";
import { loadResearchPageData } from "../data";
import { loadDeepRunInfo } from "../deep/data";
import { deepActions } from "../deep/deep-actions";
import { runOwner } from "../owner-actions";
import { runIdSchema } from "../schema";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

type Loaded = { kind: "run"; view: ResearchRunView } | { kind: "private" } | null;

/**
 * Once per request, shared by the metadata and the page: the run if the signed-in person is its author, "private"
 * when it is someone else's, null for an id that is not a run's.
 */
const loadRun = cache(async (rawId: string): Promise<Loaded> => {
  const id = runIdSchema.safeParse(rawId);
  if (!id.success) return null;
  const stored = await getRun(await getDb(), id.data);
  if (!stored) return null;
  const user = await currentUser();
  if (!user || stored.ownerId !== user.id) return { kind: "private" };
  // what the page shows of the stored run: not the retrieval log kept for evaluation
  const { parentId: _parent, retrieved: _retrieved, ownerId: _owner, options: _options, feedback, ...run } = stored;
  // a run still running is followed live, here or from another instance (its lease ends it if that one died)
  return { kind: "run", view: { run, live: run.status === "running", feedback } };
});

export async function generateMetadata({ params }: Props, parent: ResolvingMetadata): Promise<Metadata> {
  const loaded = await loadRun((await params).id);
  if (!loaded) return { title: "Research run not found" };
  if (loaded.kind === "private") return { title: "Private research run" };
  const q = loaded.view.run.question;
  const title = q.length > 60 ? `${q.slice(0, 60)}…` : q;
  // the layout's card (its image) with the question as its title: a page's openGraph replaces the layout's whole
  return { title, openGraph: { ...(await parent).openGraph, title } };
}

export default async function ResearchRunPage({ params }: Props) {
  const { id } = await params;
  const user = await pageUser(`/research/${encodeURIComponent(id)}`, "research:read");
  const loaded = await loadRun(id);
  if (!loaded) notFound();
  if (loaded.kind === "private") {
    return (
      <NoticePage
        icon={LockIcon}
        title="This research run is private"
        description="Runs belong to the person who asked them. Ask them for a share link to read it."
        testId="run-private"
      />
    );
  }
  const { view } = loaded;
  const data = await loadResearchPageData(user);
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
      canResearch={can(user.role, "research:run")}
      actions={{ start: startResearchAction, watch: watchRunAction, cancel: cancelRunAction, feedback: feedbackAction }}
      owner={runOwner()}
      // the question box stays in the mode of the run shown
      deep={{
        actions: deepActions,
        info: deepInfo,
        initialMode: deepInfo?.deep ? "deep" : "quick",
        userId: user.id,
      }}
    />
  );
}
