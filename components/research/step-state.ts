import type { ResearchRunState, ResearchStep, StepSource } from "@/lib/research/types";

/**
 * Which step cards are open: the one running and a failed one open by themselves, completed and pending ones closed;
 * a card the user toggled stays as they left it.
 */
export function isStepOpen(step: ResearchStep, overrides: ReadonlyMap<string, boolean>): boolean {
  const chosen = overrides.get(step.id);
  if (chosen !== undefined) return chosen;
  return step.status === "in_progress" || step.status === "failed";
}

/** `85 ms`, `1.2 s`, `1 min 5 s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const min = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s ? `${min} min ${s} s` : `${min} min`;
}

/** The step being worked on: the first in progress, else the first pending one after the last finished. */
export function currentStep(steps: readonly ResearchStep[]): { step: ResearchStep; position: number } | null {
  const running = steps.findIndex((s) => s.status === "in_progress");
  if (running >= 0) return { step: steps[running] as ResearchStep, position: running + 1 };
  const pending = steps.findIndex((s) => s.status === "pending");
  if (pending >= 0) return { step: steps[pending] as ResearchStep, position: pending + 1 };
  return null;
}

/**
 * The short line the live region announces: where the run is (`Step 3 of 7: Searching full text`) or how it ended.
 * Announced politely, so it changes once per step rather than with every token of the answer.
 */
export function statusLine(run: ResearchRunState, { live }: { live: boolean }): string {
  const total = run.steps.length;
  const steps = `${total} ${total === 1 ? "step" : "steps"}`;
  switch (run.status) {
    case "running": {
      if (!live) return "This run stopped before it finished (the server restarted or the connection was lost).";
      const cur = currentStep(run.steps);
      if (!cur) return "Finishing…";
      return `Step ${cur.position} of ${total}: ${cur.step.title}`;
    }
    case "completed": {
      const unsupported = run.citations.filter((c) => !c.supported).length;
      const checked = run.citations.length
        ? unsupported
          ? ` · ${unsupported} of ${run.citations.length} citations not supported`
          : ` · ${run.citations.length} citations checked`
        : "";
      return `Finished in ${formatDuration(run.durationMs) || "—"} · ${steps}${checked}`;
    }
    case "failed":
    case "cancelled":
    case "interrupted": {
      // the message itself is in the error panel; the status line says where the run stopped
      const verb = { failed: "Failed", cancelled: "Cancelled", interrupted: "Interrupted" }[run.status];
      const at = run.steps.findIndex((s) => s.status === "failed" || s.status === "in_progress");
      const step = run.steps[at];
      if (isDeclinedRun(run)) {
        return step
          ? `No answer in the library · stopped at step ${at + 1} of ${total}: ${step.title}`
          : "No answer in the library";
      }
      return step ? `${verb} at step ${at + 1} of ${total}: ${step.title}` : verb;
    }
  }
}

/** The codes a run ends with when the library holds no answer to the question: an outcome, not an error. */
const DECLINED_CODES: ReadonlySet<string> = new Set(["no_papers", "no_answer"]);

/** An error code that says the library does not answer the question. */
export function isDeclinedCode(code: string | null | undefined): boolean {
  return DECLINED_CODES.has(code ?? "");
}

/** The step at which the run found the library does not answer the question: shown as such, not as an error. */
export function isDeclinedStep(step: ResearchStep): boolean {
  return step.status === "failed" && isDeclinedCode(step.error?.code);
}

/** A run that ended because the library does not answer the question. */
export function isDeclinedRun(run: Pick<ResearchRunState, "status" | "error">): boolean {
  return run.status === "failed" && isDeclinedCode(run.error?.code);
}

/** A step the run's cancellation (or the server stopping) stopped: shown as stopped, not as an error. */
export function isStoppedStep(step: ResearchStep): boolean {
  return step.status === "failed" && (step.error?.code === "cancelled" || step.error?.code === "interrupted");
}

/** Similarity as a whole percentage. */
export function formatSimilarity(similarity: number): string {
  if (!Number.isFinite(similarity)) return "";
  return `${Math.round(Math.max(0, Math.min(1, similarity)) * 100)}%`;
}

/** Longest excerpt put in a viewer link's `?hl=` (the viewer highlights the longest run of it that it finds). */
const MAX_HIGHLIGHT_CHARS = 600;

/**
 * Query of the viewer link for a source chip: its page, and the passage to highlight — by offsets into the page's
 * stored text when known (exact), else by its excerpt.
 */
export function sourceViewerParams(source: StepSource): Record<string, string | number | undefined> {
  if (source.page === null) return {};
  if (source.charStart !== undefined && source.charEnd !== undefined && source.charEnd > source.charStart) {
    return { page: source.page, start: source.charStart, end: source.charEnd };
  }
  const excerpt = source.excerpt.trim();
  return { page: source.page, hl: excerpt ? excerpt.slice(0, MAX_HIGHLIGHT_CHARS) : undefined };
}

/** Readable label of a step-data key: `supportedCount` → `Supported count`. */
export function humanizeKey(key: string): string {
  const spaced = key
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export interface DataRow {
  key: string;
  label: string;
  value: string;
}

const row = (key: string, label: string, value: string | number | null | undefined): DataRow[] =>
  value === null || value === undefined || value === "" ? [] : [{ key, label, value: String(value) }];

/**
 * What a step's card lists of its data, per kind (the queries, papers and passages are shown as badges and chips,
 * the outline beside the run). A kind without rows of its own here (a step added later) gets `displayableData`.
 */
export function stepDataRows(step: ResearchStep): DataRow[] {
  const data: object | null = step.data;
  if (!step.data || !data) return [];
  switch (step.type) {
    case "analysis":
      return [
        ...row("intent", "Intent", step.data.intent),
        ...row("keywords", "Keywords", step.data.keywords.join(", ")),
        ...row("method", "Classified by", step.data.method === "llm" ? "the model" : "rules"),
        ...row("graphQuestion", "Asks the knowledge graph", step.data.graphQuestion),
      ];
    case "outline":
      return row("feedback", "Feedback", step.data.feedback);
    case "query_expansion":
      return row("feedbackTerms", "Feedback terms", step.data.feedbackTerms.join(", "));
    case "rag_search":
      switch (step.stage) {
        case "summaries":
          return [];
        case "content":
          return row("passages", "Passages", step.data?.passages);
        case "point":
          return [...row("candidates", "Candidates", step.data?.candidates), ...row("kept", "Kept", step.data?.kept)];
      }
      return [];
    case "synthesis":
      return [
        ...row("method", "Method", step.data.method === "llm" ? "written by the model" : "extractive (quoted)"),
        ...row("model", "Model", step.data.model),
        ...row("evidence", "Evidence passages", step.data.evidence),
        ...row("pageContext", "Other passages of their pages", step.data.pageContext),
        ...row("fallback", "Fallback", step.data.fallback ? "yes (the model failed)" : null),
        ...row("modelError", "Model error", step.data.modelError),
      ];
    case "framing":
      return row("topics", "Topics", step.data.topics);
    case "verification":
      return [
        ...row("total", "Total", step.data.total),
        ...row("supported", "Supported", step.data.supported),
        ...row("unsupported", "Unsupported", step.data.unsupported),
        // relevance counts: absent on runs made before relevance was judged
        ...row("relevant", "Relevant", step.data.relevant),
        ...row("partly", "Partly relevant", step.data.partly),
        ...row("offTopic", "Off-topic sentences dropped", step.data.offTopic),
        ...row("method", "Checked by", step.data.method === "llm" ? "the model" : "word overlap"),
      ];
    case "formatting":
      return [];
    case "web_search":
      return [
        ...row("provider", "Provider", step.data.provider),
        ...row("why", step.data.ran ? "Why it ran" : "Why it did not", step.data.why),
        ...row("results", "Results", step.data.ran ? step.data.results : null),
        ...row("pages", "Pages read", step.data.ran ? step.data.pages.length : null),
        ...step.data.skipped.map((s, i) => ({
          key: `skipped-${i}`,
          label: "Not read",
          value: `${s.url} — ${s.reason}`,
        })),
        ...row("error", "Error", step.data.error),
      ];
    case "web_citations":
      return [
        ...row("total", "Total", step.data.total),
        ...row("supported", "Supported", step.data.supported),
        ...row("unsupported", "Unsupported", step.data.unsupported),
        ...row("method", "Checked by", step.data.method === "llm" ? "the model" : "word overlap with the fetched page"),
      ];
    case "graph_search":
      return [
        ...row("asked", "Asked", step.data.asked),
        ...step.data.names.map((n, i) => ({
          key: `name-${i}`,
          label: `“${n.asked}”`,
          value: n.entity ? `${n.entity}${n.type ? ` (${n.type})` : ""}` : (n.message ?? "not in the graph"),
        })),
        ...row("graphEmpty", "Graph", step.data.graphEmpty ? "empty — built after ingestion" : null),
      ];
    case "graph_relations":
      return [
        ...row("papers", "Papers looked at", step.data.papers),
        ...row("graphEmpty", "Graph", step.data.graphEmpty ? "empty — built after ingestion" : null),
      ];
    default:
      return displayableData(data);
  }
}

/** Data worth showing as `label: value` (numbers, short strings, lists of short strings), for any kind of step. */
export function displayableData(data: object): DataRow[] {
  const out: DataRow[] = [];
  for (const [key, value] of Object.entries(data)) {
    let shown: string | null = null;
    if (typeof value === "number" && Number.isFinite(value))
      shown = Number.isInteger(value) ? String(value) : value.toFixed(2);
    else if (typeof value === "string" && value.length > 0 && value.length <= 160) shown = value;
    else if (typeof value === "boolean") shown = value ? "yes" : "no";
    else if (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((v) => typeof v === "string" || typeof v === "number")
    ) {
      const joined = value.join(", ");
      if (joined.length <= 240) shown = joined;
    }
    if (shown !== null) out.push({ key, label: humanizeKey(key), value: shown });
  }
  return out;
}
