"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import type { SourceItemResult, SourceStage } from "@/lib/sources/types";
import type { SourceStreamEvent } from "./source-events";

export interface SourceItemView {
  index: number;
  label: string;
  stage: SourceStage | null;
  done?: number;
  of?: number;
  result: SourceItemResult | null;
}

export interface SourceRunState {
  items: SourceItemView[];
  running: boolean;
  /** Why nothing could be done (arXiv unreachable, a refused request…). */
  error: string | null;
}

/**
 * Runs one request of `/api/sources/*` and follows its NDJSON stream: the items as they are announced, each one's
 * stage and result. When it ends, the library list is refreshed.
 */
export function useSourceRun() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SourceRunState>({ items: [], running: false, error: null });
  const abortRef = useRef<AbortController | null>(null);

  const apply = useCallback((e: SourceStreamEvent) => {
    setState((s) => {
      switch (e.type) {
        case "items":
          return { ...s, items: e.items.map((it) => ({ ...it, stage: null, result: null })) };
        case "item_stage":
          return {
            ...s,
            items: s.items.map((it) =>
              it.index === e.index && !it.result ? { ...it, stage: e.stage, done: e.done, of: e.of } : it,
            ),
          };
        case "item_done":
          return { ...s, items: s.items.map((it) => (it.index === e.index ? { ...it, result: e.result } : it)) };
        case "done":
          return {
            ...s,
            items: s.items.map((it) => ({ ...it, result: e.results[it.index] ?? it.result })),
          };
        case "fatal":
          return { ...s, error: e.error.message };
        default:
          return s;
      }
    });
  }, []);

  const run = useCallback(
    async (start: (signal: AbortSignal) => Promise<Response>) => {
      abortRef.current?.abort();
      const abort = new AbortController();
      abortRef.current = abort;
      setState({ items: [], running: true, error: null });
      try {
        const res = await start(abort.signal);
        const type = res.headers.get("content-type") ?? "";
        if (!res.ok || !type.includes("ndjson") || !res.body) {
          const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
          throw new Error(body?.error?.message ?? `The request failed (HTTP ${res.status}).`);
        }
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += value;
          let nl = buffer.indexOf("\n");
          while (nl >= 0) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            if (line) apply(JSON.parse(line) as SourceStreamEvent);
            nl = buffer.indexOf("\n");
          }
        }
      } catch (e) {
        if (!abort.signal.aborted) {
          setState((s) => ({ ...s, error: (e as Error).message || "The request failed. Is the server running?" }));
        }
      } finally {
        if (abortRef.current === abort) {
          setState((s) => ({ ...s, running: false }));
          void queryClient.invalidateQueries({ queryKey: ["papers"] });
        }
      }
    },
    [apply, queryClient],
  );

  const cancel = useCallback(() => abortRef.current?.abort(), []);
  return { ...state, run, cancel };
}
