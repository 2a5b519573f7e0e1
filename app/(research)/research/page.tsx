import type { Metadata } from "next";
import { ResearchView } from "@/components/research/research-view";
import { can } from "@/lib/auth/roles";
import { pageUser } from "../../access";
import { cancelRunAction, feedbackAction, startResearchAction, watchRunAction } from "./actions";
import { loadResearchPageData } from "./data";
import { deepActions } from "./deep/deep-actions";
import { runOwner } from "./owner-actions";

export const metadata: Metadata = { title: "Research" };
export const dynamic = "force-dynamic";

export default async function ResearchPage() {
  const user = await pageUser("/research", "research:read");
  const { library, recentRuns, loadError } = await loadResearchPageData(user);
  return (
    <ResearchView
      initial={null}
      library={library}
      recentRuns={recentRuns}
      loadError={loadError}
      canResearch={can(user.role, "research:run")}
      actions={{ start: startResearchAction, watch: watchRunAction, cancel: cancelRunAction, feedback: feedbackAction }}
      deep={{ actions: deepActions, info: null, userId: user.id }}
      owner={runOwner()}
    />
  );
}
