"use client";

import { canImprove, type ResearchRunState } from "@/lib/research/types";
import { DeepRunPanel, isDeepRun } from "./deep-run-panel";
import { ExportButtons } from "./export-buttons";
import { ImproveForm } from "./improve-form";
import type { DeepRunController } from "./use-deep-run";

/**
 * What deep research adds to a run's view: export in its header, outline and versions above the steps, improve below
 * — export and improve once the run has ended with an answer (a run the library declined has none to improve).
 */
export function deepRunSlots(run: ResearchRunState, deep: DeepRunController) {
  const finished = run.status !== "running";
  const answered = run.answer.trim() !== "";
  return {
    actions:
      finished && answered ? <ExportButtons runId={run.runId} hasReferences={run.references.length > 0} /> : null,
    top: <DeepRunPanel key={run.runId} run={run} info={deep.info} notice={deep.notice} onRerun={deep.rerun} />,
    bottom: canImprove(run) ? <ImproveForm key={run.runId} onImprove={deep.improve} deep={isDeepRun(run)} /> : null,
  };
}
