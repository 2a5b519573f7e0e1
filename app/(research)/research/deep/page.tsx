import type { Metadata } from "next";
import { ResearchView } from "@/components/research/research-view";
import { can } from "@/lib/auth/roles";
import { pageUser } from "../../../access";
import { cancelRunAction, feedbackAction, startResearchAction, watchRunAction } from "../actions";
import { loadResearchPageData } from "../data";
import { runOwner } from "../owner-actions";
import { deepActions } from "./deep-actions";

export const metadata: Metadata = { title: "Deep research" };
export const dynamic = "force-dynamic";

/** `/research/deep`: the research page opened on deep research (clarify, edit the outline, run). */
export default async function DeepResearchPage() {
  const user = await pageUser("/research/deep", "research:read");
  const { library, recentRuns, loadError } = await loadResearchPageData(user);
  return (
    <ResearchView
      initial={null}
      library={library}
      recentRuns={recentRuns}
      loadError={loadError}
      canResearch={can(user.role, "research:run")}
      actions={{ start: startResearchAction, watch: watchRunAction, cancel: cancelRunAction, feedback: feedbackAction }}
      deep={{ actions: deepActions, info: null, initialMode: "deep", userId: user.id }}
      owner={runOwner()}
    />
  );
}
