"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { Outline } from "@/lib/research/deep/types";
import type { ImprovePlanEvent, ResearchRunState, ResearchStreamEvent } from "@/lib/research/types";
import { openRun } from "./streams";
import type { DeepActions, DeepRunInfo, StartRun } from "./types";

export interface DeepRunController {
  /** The shown run's outline and versions, once known. */
  info: DeepRunInfo | null;
  /** Said about the shown run when it started (the knowledge point an improvement added). */
  notice: string | null;
  /** Start a new version; resolve with why it could not start, or null once it streams into the page. */
  rerun: (outline: Outline) => Promise<string | null>;
  improve: (feedback: string) => Promise<string | null>;
}

const UNREACHABLE = "Could not reach the server. Is Lectern still running?";
const UNAVAILABLE = "Deep research is not available here.";

/**
 * The deep research side of the run shown on the page: its outline and versions (from the server's render, then
 * reloaded when another run is shown or this one finishes), and new versions — rerun with an edited outline, or
 * improved with feedback — started into the page's one run view.
 */
export function useDeepRun({
  run,
  actions,
  initialInfo,
  onStart,
}: {
  run: ResearchRunState | null;
  /** Null where deep research is not offered: the controller then does nothing. */
  actions: DeepActions | null;
  /** What the server rendered the page with (for the run of `/research/<id>`). */
  initialInfo: DeepRunInfo | null;
  onStart: StartRun;
}): DeepRunController {
  const [fetched, setFetched] = useState<DeepRunInfo | null>(null);
  const [notices, setNotices] = useState<ReadonlyMap<string, string>>(() => new Map());
  const runId = run?.runId ?? null;
  const status = run?.status ?? null;
  const info = [fetched, initialInfo].find((i) => i && i.runId === runId) ?? null;
  const infoRef = useRef(info);
  infoRef.current = info;
  const latest = useRef({ actions, onStart });
  latest.current = { actions, onStart };

  // (re)load when another run is shown, or when the shown run's status differs from the loaded one's (it finished)
  useEffect(() => {
    if (!runId || !status || !latest.current.actions) return;
    const known = infoRef.current?.versions.find((v) => v.id === runId);
    if (known && known.status === status) return;
    let alive = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = (attempt: number) => {
      latest.current.actions
        ?.info(runId)
        .then((r) => {
          if (!alive) return;
          if (r.ok && r.data) setFetched(r.data);
          // a run that has just started may not be saved yet
          else if (r.ok && attempt < 3) retry = setTimeout(() => load(attempt + 1), 400 * (attempt + 1));
        })
        .catch(() => {});
    };
    load(0);
    return () => {
      alive = false;
      clearTimeout(retry);
    };
  }, [runId, status]);

  const start = useCallback(
    async (stream: () => AsyncIterable<ResearchStreamEvent> | Promise<AsyncIterable<ResearchStreamEvent>>) => {
      let opened: Awaited<ReturnType<typeof openRun>>;
      try {
        opened = await openRun(stream());
      } catch {
        return UNREACHABLE;
      }
      if (!opened.ok) return opened.error.message;
      const plan = opened.plan;
      if (plan) setNotices((prev) => new Map(prev).set(opened.runId, improveNotice(plan)));
      latest.current.onStart(opened.question, opened.events);
      return null;
    },
    [],
  );

  const rerun = useCallback(
    (outline: Outline) => {
      const a = latest.current.actions;
      return runId && a ? start(() => a.rerun(runId, outline)) : Promise.resolve(UNAVAILABLE);
    },
    [runId, start],
  );
  const improve = useCallback(
    (feedback: string) => {
      const a = latest.current.actions;
      return runId && a ? start(() => a.improve(runId, feedback)) : Promise.resolve(UNAVAILABLE);
    },
    [runId, start],
  );

  return { info, notice: runId ? (notices.get(runId) ?? null) : null, rerun, improve };
}

/** What an improve request did to the outline, said plainly: points added, points that now search for it, or neither. */
export function improveNotice(plan: Pick<ImprovePlanEvent, "addedPoint" | "addedPoints" | "reshapedPoints">): string {
  const added = plan.addedPoints ?? (plan.addedPoint ? [plan.addedPoint] : []);
  const reshaped = plan.reshapedPoints ?? [];
  const quoted = (topics: string[]) => topics.map((t) => `“${t}”`).join(", ");
  const parts: string[] = [];
  if (added.length > 0)
    parts.push(
      `Added ${added.length === 1 ? "a knowledge point" : `${added.length} knowledge points`} for your feedback: ${quoted(added)}.`,
    );
  if (reshaped.length > 0)
    parts.push(
      `${added.length > 0 ? "Also already" : "Already"} in the outline: ${quoted(reshaped)}, which now ${reshaped.length === 1 ? "searches" : "search"} for it too.`,
    );
  if (parts.length === 0)
    parts.push(
      "Your feedback names no topic the outline lacks: no point was added; it steers the writing of every section.",
    );
  return parts.join(" ");
}
