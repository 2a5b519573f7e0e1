"use client";

import {
  ArrowDownIcon,
  ArrowUpIcon,
  LoaderIcon,
  PlayIcon,
  PlusIcon,
  Redo2Icon,
  Trash2Icon,
  TriangleAlertIcon,
  Undo2Icon,
} from "lucide-react";
import { useEffect, useId, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { IMPORTANCE, type Outline } from "@/lib/research/deep/types";
import { KeywordInput } from "./keyword-input";
import {
  type DraftIssue,
  type EditorAction,
  importanceLabels,
  initEditor,
  MAX_POINTS,
  type OutlineDraft,
  outlineReducer,
  type PointDraft,
  resumeEditor,
  validateDraft,
} from "./outline-state";

const importanceDot = {
  high: "bg-primary",
  medium: "bg-primary/50",
  low: "bg-muted-foreground/40",
} as const;

function FieldError({ id, issue }: { id: string; issue: DraftIssue | undefined }) {
  if (!issue) return null;
  return (
    <p id={id} className="text-destructive text-xs" data-testid="outline-field-error" data-field={issue.field}>
      {issue.message}
    </p>
  );
}

/** One bound of the outline's year range, as typed (checked with the rest of the draft). */
function YearInput({
  bound,
  value,
  dispatch,
  errorId,
  disabled,
}: {
  bound: "from" | "to";
  value: string;
  dispatch: (a: EditorAction) => void;
  /** The years' error message, when one shows: the input is marked invalid and described by it. */
  errorId: string | undefined;
  disabled: boolean;
}) {
  const label = bound === "from" ? "From" : "To";
  return (
    <Input
      value={value}
      onChange={(e) => dispatch({ type: "set_year", bound, value: e.target.value })}
      inputMode="numeric"
      placeholder={label}
      aria-label={`${label} year`}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      disabled={disabled}
      className="h-8 w-24 tabular-nums"
      data-testid={`outline-year-${bound}`}
      // Run focuses the field of the first problem: for the years, the range's first input
      data-field-key={bound === "from" ? "years" : undefined}
    />
  );
}

const selectClass =
  "h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs outline-none transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50 dark:bg-input/30 [&>option]:bg-popover [&>option]:text-popover-foreground";

function PointEditor({
  point,
  position,
  count,
  issues,
  categoryListId,
  disabled,
  dispatch,
  onTouched,
  onMove,
  onRemove,
}: {
  point: PointDraft;
  position: number;
  count: number;
  /** Problems of this point, by field (`topic`, `category`, `keywords`). */
  issues: Map<string, DraftIssue>;
  categoryListId: string;
  disabled: boolean;
  dispatch: (a: EditorAction) => void;
  onTouched: (field: string) => void;
  onMove: (id: string, by: number, focusKey: string | null) => void;
  onRemove: (id: string) => void;
}) {
  const id = useId();
  const name = point.topic.trim() ? `“${point.topic.trim()}”` : `point ${position}`;
  const errTopic = issues.get("topic");
  const errCategory = issues.get("category");
  const errKeywords = issues.get("keywords");
  return (
    <li
      className={cn(
        "group/point rounded-lg border bg-card p-3 transition-colors focus-within:border-ring/60",
        issues.size > 0 && "border-destructive/40",
      )}
      data-testid="outline-point"
      data-point-id={point.id}
      aria-label={`Knowledge point ${position} of ${count}: ${point.topic.trim() || "untitled"}`}
      onKeyDownCapture={(e) => {
        // Alt+↑/↓ moves the point, wherever the focus is inside it (before a field uses the arrow keys itself)
        if (!e.altKey || e.ctrlKey || e.metaKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
        e.preventDefault();
        e.stopPropagation();
        const key = (document.activeElement as HTMLElement | null)?.dataset.focusKey ?? null;
        onMove(point.id, e.key === "ArrowUp" ? -1 : 1, key);
      }}
    >
      <div className="flex items-start gap-3">
        <span
          className="mt-2 flex size-5 shrink-0 items-center justify-center rounded-full bg-muted font-medium text-muted-foreground text-xs tabular-nums"
          aria-hidden
        >
          {position}
        </span>
        <div className="min-w-0 flex-1 space-y-2.5">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
            <div className="min-w-0 flex-1 space-y-1">
              <Input
                value={point.topic}
                onChange={(e) => dispatch({ type: "update_point", id: point.id, patch: { topic: e.target.value } })}
                onBlur={(e) => e.currentTarget.value.trim() && onTouched(`${point.id}:topic`)}
                placeholder="Topic of this point"
                aria-label={`Topic of knowledge point ${position}`}
                aria-invalid={errTopic ? true : undefined}
                aria-describedby={errTopic ? `${id}-topic` : undefined}
                disabled={disabled}
                className="font-medium"
                data-testid="outline-point-topic"
                data-focus-key="topic"
              />
              <FieldError id={`${id}-topic`} issue={errTopic} />
            </div>
            <div className="flex items-center gap-1.5">
              <span className={cn("size-2 shrink-0 rounded-full", importanceDot[point.importance])} aria-hidden />
              <label htmlFor={`${id}-importance`} className="sr-only">
                Importance of {name}
              </label>
              <select
                id={`${id}-importance`}
                value={point.importance}
                onChange={(e) =>
                  dispatch({
                    type: "update_point",
                    id: point.id,
                    patch: { importance: e.target.value as PointDraft["importance"] },
                  })
                }
                disabled={disabled}
                className={cn(selectClass, "w-28")}
                data-testid="outline-point-importance"
                data-focus-key="importance"
              >
                {IMPORTANCE.map((v) => (
                  <option key={v} value={v}>
                    {importanceLabels[v]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="grid gap-2 sm:grid-cols-[13rem_minmax(0,1fr)]">
            <div className="space-y-1">
              <label htmlFor={`${id}-category`} className="text-muted-foreground text-xs">
                Category
              </label>
              <Input
                id={`${id}-category`}
                value={point.category}
                list={categoryListId}
                onChange={(e) => dispatch({ type: "update_point", id: point.id, patch: { category: e.target.value } })}
                onBlur={(e) => e.currentTarget.value.trim() && onTouched(`${point.id}:category`)}
                aria-invalid={errCategory ? true : undefined}
                aria-describedby={errCategory ? `${id}-category-error` : undefined}
                disabled={disabled}
                className="h-8"
                data-testid="outline-point-category"
                data-focus-key="category"
              />
              <FieldError id={`${id}-category-error`} issue={errCategory} />
            </div>
            <div className="min-w-0 space-y-1">
              <span className="text-muted-foreground text-xs" aria-hidden>
                Search keywords
              </span>
              <KeywordInput
                keywords={point.search_keywords}
                onAdd={(keyword) => dispatch({ type: "add_keyword", id: point.id, keyword })}
                onRemove={(index) => dispatch({ type: "remove_keyword", id: point.id, index })}
                invalid={Boolean(errKeywords)}
                describedBy={errKeywords ? `${id}-keywords` : undefined}
                label={`Search keywords of ${name}`}
                disabled={disabled}
                standIn={point.keywordsFromTopic === true}
              />
              <FieldError id={`${id}-keywords`} issue={errKeywords} />
              {point.keywordsFromTopic && point.search_keywords.length > 0 && !errKeywords && (
                <p className="text-muted-foreground text-xs" data-testid="outline-point-keywords-from-topic">
                  Taken from the topic: they follow it until you remove one, and the first keyword you add replaces
                  them.
                </p>
              )}
            </div>
          </div>
        </div>
        <div className="-mr-1 flex shrink-0 flex-col gap-0.5 sm:flex-row">
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={() => onMove(point.id, -1, "move-up")}
            disabled={disabled || position === 1}
            aria-label={`Move ${name} up`}
            title="Move up (Alt+↑)"
            data-testid="outline-point-up"
            data-focus-key="move-up"
          >
            <ArrowUpIcon />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={() => onMove(point.id, 1, "move-down")}
            disabled={disabled || position === count}
            aria-label={`Move ${name} down`}
            title="Move down (Alt+↓)"
            data-testid="outline-point-down"
            data-focus-key="move-down"
          >
            <ArrowDownIcon />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={() => onRemove(point.id)}
            disabled={disabled || count <= 1}
            aria-label={`Remove ${name}`}
            title={count <= 1 ? "An outline keeps at least one point" : "Remove this point"}
            className="text-muted-foreground hover:text-destructive"
            data-testid="outline-point-remove"
            data-focus-key="remove"
          >
            <Trash2Icon />
          </Button>
        </div>
      </div>
    </li>
  );
}

/**
 * The outline before it runs: title, optional year range, knowledge points (topic, category, keywords as chips,
 * importance) added, removed and reordered — with buttons or Alt+↑/↓ — and every change undoable (Ctrl+Z, and
 * Ctrl+Shift+Z or Ctrl+Y to redo). Checked with the server's own schema before `onRun`.
 */
export function OutlineEditor({
  initial,
  onRun,
  onCancel,
  runLabel = "Run deep research",
  cancelLabel = "Cancel",
  busy = false,
  serverError = null,
  note,
  resume,
  onDraftChange,
}: {
  initial: Outline;
  onRun: (outline: Outline) => void;
  onCancel?: () => void;
  runLabel?: string;
  cancelLabel?: string;
  /** The run is being started: the editor is read-only meanwhile. */
  busy?: boolean;
  /** Why the server refused the outline (or the run), shown above the Run button. */
  serverError?: string | null;
  /** How the outline was made (from the model, the library, a fallback), shown under the heading. */
  note?: React.ReactNode;
  /** The draft to go on editing (kept while the researcher was on another page) instead of `initial` as it came. */
  resume?: { draft: OutlineDraft; usedIds: string[] };
  /** Told the draft after every change (and once at the start), for the planner to keep it. */
  onDraftChange?: (snapshot: { draft: OutlineDraft; usedIds: string[] }) => void;
}) {
  const [state, dispatch] = useReducer(outlineReducer, initial, (outline) =>
    resume ? resumeEditor(resume.draft, resume.usedIds) : initEditor(outline),
  );
  // the latest callback, so that a parent's new function each render does not report the same draft again
  const reportDraft = useRef(onDraftChange);
  reportDraft.current = onDraftChange;
  useEffect(() => {
    reportDraft.current?.({ draft: state.draft, usedIds: state.usedIds });
  }, [state.draft, state.usedIds]);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [attempted, setAttempted] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<{ id: string; key: string } | { selector: string } | null>(null);
  /** An undo or redo may remove the focused field: the focus then stays in the editor (so Ctrl+Z goes on working). */
  const keepFocus = useRef(false);
  const id = useId();
  const { draft } = state;
  const points = draft.knowledge_points;

  const { outline, issues } = useMemo(() => validateDraft(draft), [draft]);
  const visible = useMemo(() => {
    // problems show after Run was pressed, or once a field was left with something wrong typed in it (an empty
    // field left behind says nothing yet: its message appearing on blur would move the button being clicked)
    const shown = new Map<string, DraftIssue>();
    for (const issue of issues) {
      if (attempted || touched.has(issue.field) || issue.field === "years" || issue.field === "points")
        shown.set(issue.field, issue);
    }
    return shown;
  }, [issues, touched, attempted]);
  const categories = useMemo(() => [...new Set(points.map((p) => p.category.trim()).filter(Boolean))].sort(), [points]);

  const touch = (field: string) => setTouched((prev) => (prev.has(field) ? prev : new Set(prev).add(field)));

  const move = (pointId: string, by: number, focusKey: string | null) => {
    pendingFocus.current = { id: pointId, key: focusKey ?? "topic" };
    dispatch({ type: "move_point", id: pointId, by });
  };

  const history = (type: "undo" | "redo") => {
    keepFocus.current = true;
    dispatch({ type });
  };

  const removePoint = (pointId: string) => {
    // the focus goes to the remove button of the point that takes its place (or the one before), so the keyboard
    // user stays in the list (and Ctrl+Z still reaches the editor)
    const i = points.findIndex((p) => p.id === pointId);
    const next = points[i + 1] ?? points[i - 1];
    if (next) pendingFocus.current = { id: next.id, key: "remove" };
    dispatch({ type: "remove_point", id: pointId });
  };

  const addPoint = () => {
    pendingFocus.current = { selector: '[data-testid="outline-point"]:last-of-type [data-focus-key="topic"]' };
    dispatch({ type: "add_point" });
  };

  // after the render of a change: focus follows a moved point (moving its DOM node blurs it), and lands in a new one
  useLayoutEffect(() => {
    if (keepFocus.current && root.current) {
      keepFocus.current = false;
      if (!root.current.contains(document.activeElement)) {
        const undo = root.current.querySelector<HTMLElement>('[data-testid="outline-undo"]:not(:disabled)');
        (undo ?? root.current).focus();
      }
    }
    const target = pendingFocus.current;
    if (!target || !root.current) return;
    pendingFocus.current = null;
    const el =
      "selector" in target
        ? root.current.querySelector<HTMLElement>(target.selector)
        : (root.current.querySelector<HTMLElement>(
            `[data-point-id="${CSS.escape(target.id)}"] [data-focus-key="${CSS.escape(target.key)}"]:not(:disabled)`,
          ) ??
          root.current.querySelector<HTMLElement>(
            `[data-point-id="${CSS.escape(target.id)}"] [data-focus-key="topic"]`,
          ));
    if (el && document.activeElement !== el) el.focus();
  });

  const run = () => {
    setAttempted(true);
    if (!outline) {
      const first = issues[0];
      if (first && root.current) {
        const [pid, field] = first.field.includes(":") ? first.field.split(":") : [null, first.field];
        const key = field === "keywords" ? "keyword-input" : field;
        const el = pid
          ? root.current.querySelector<HTMLElement>(
              `[data-point-id="${CSS.escape(pid)}"] [data-focus-key="${CSS.escape(key ?? "topic")}"]`,
            )
          : root.current.querySelector<HTMLElement>(`[data-field-key="${CSS.escape(field ?? "")}"]`);
        el?.focus();
      }
      return;
    }
    onRun(outline);
  };

  const canUndo = state.past.length > 0;
  const yearsErrorId = visible.has("years") ? `${id}-years-error` : undefined;
  const canRedo = state.future.length > 0;
  const blocking = attempted ? issues : [];

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+Z anywhere in the editor undoes its last change
    <div
      ref={root}
      tabIndex={-1}
      className="space-y-5 outline-none"
      data-testid="outline-editor"
      data-valid={outline ? "true" : "false"}
      onKeyDown={(e) => {
        const mod = e.ctrlKey || e.metaKey;
        if (!mod || e.altKey) return;
        const key = e.key.toLowerCase();
        if (key === "z" && !e.shiftKey) {
          e.preventDefault();
          history("undo");
        } else if ((key === "z" && e.shiftKey) || key === "y") {
          e.preventDefault();
          history("redo");
        }
      }}
    >
      <div className="space-y-1.5">
        <label htmlFor={`${id}-title`} className="font-medium text-sm">
          Title
        </label>
        <Input
          id={`${id}-title`}
          value={draft.title}
          onChange={(e) => dispatch({ type: "set_title", title: e.target.value })}
          onBlur={(e) => e.currentTarget.value.trim() && touch("title")}
          aria-invalid={visible.has("title") ? true : undefined}
          aria-describedby={visible.has("title") ? `${id}-title-error` : undefined}
          disabled={busy}
          className="h-10 font-semibold text-base"
          data-testid="outline-title"
          data-field-key="title"
        />
        <FieldError id={`${id}-title-error`} issue={visible.get("title")} />
        {note && <div className="text-muted-foreground text-xs">{note}</div>}
      </div>

      <fieldset className="space-y-1.5">
        <legend className="font-medium text-sm">
          Years <span className="font-normal text-muted-foreground">(optional; every search keeps to them)</span>
        </legend>
        <div className="flex items-center gap-2">
          <YearInput bound="from" value={draft.year_from} dispatch={dispatch} errorId={yearsErrorId} disabled={busy} />
          <span className="text-muted-foreground" aria-hidden>
            –
          </span>
          <YearInput bound="to" value={draft.year_to} dispatch={dispatch} errorId={yearsErrorId} disabled={busy} />
        </div>
        <FieldError id={`${id}-years-error`} issue={visible.get("years")} />
      </fieldset>

      <section aria-labelledby={`${id}-points`} className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={`${id}-points`} className="font-medium text-sm">
            Knowledge points{" "}
            <span className="font-normal text-muted-foreground" data-testid="outline-point-count">
              · {points.length} of at most {MAX_POINTS}
            </span>
          </h3>
          <div className="ml-auto flex items-center gap-1">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => history("undo")}
              disabled={busy || !canUndo}
              title="Undo (Ctrl+Z)"
              data-testid="outline-undo"
            >
              <Undo2Icon />
              Undo
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => history("redo")}
              disabled={busy || !canRedo}
              title="Redo (Ctrl+Shift+Z)"
              data-testid="outline-redo"
            >
              <Redo2Icon />
              Redo
            </Button>
          </div>
        </div>
        <ol className="space-y-2" data-testid="outline-points">
          {points.map((p, i) => {
            const own = new Map<string, DraftIssue>();
            for (const [field, issue] of visible) {
              if (field.startsWith(`${p.id}:`)) own.set(field.slice(p.id.length + 1), issue);
            }
            return (
              <PointEditor
                key={p.id}
                point={p}
                position={i + 1}
                count={points.length}
                issues={own}
                categoryListId={`${id}-categories`}
                disabled={busy}
                dispatch={dispatch}
                onTouched={touch}
                onMove={move}
                onRemove={removePoint}
              />
            );
          })}
        </ol>
        <datalist id={`${id}-categories`}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <FieldError id={`${id}-points-error`} issue={visible.get("points")} />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button
            variant="outline"
            size="sm"
            onClick={addPoint}
            disabled={busy || points.length >= MAX_POINTS}
            data-testid="outline-add-point"
          >
            <PlusIcon />
            Add a point
          </Button>
          <p className="text-muted-foreground text-xs">
            <kbd className="font-sans">Alt</kbd>+<kbd className="font-sans">↑</kbd>/<kbd className="font-sans">↓</kbd>{" "}
            moves the point you are in · <kbd className="font-sans">Ctrl</kbd>+<kbd className="font-sans">Z</kbd> undoes
          </p>
        </div>
      </section>

      <div className="space-y-1.5">
        <label htmlFor={`${id}-strategy`} className="font-medium text-sm">
          Search strategy <span className="font-normal text-muted-foreground">(notes, optional)</span>
        </label>
        <Textarea
          id={`${id}-strategy`}
          value={draft.search_strategy}
          onChange={(e) => dispatch({ type: "set_strategy", strategy: e.target.value })}
          onBlur={() => touch("strategy")}
          rows={2}
          disabled={busy}
          aria-invalid={visible.has("strategy") ? true : undefined}
          className="min-h-12 text-sm"
          data-testid="outline-strategy"
          data-field-key="strategy"
        />
        <FieldError id={`${id}-strategy-error`} issue={visible.get("strategy")} />
      </div>

      {(blocking.length > 0 || serverError) && (
        <Alert variant="destructive" data-testid="outline-issues">
          <TriangleAlertIcon />
          <AlertTitle>
            {serverError && blocking.length === 0
              ? "The outline could not be run"
              : `Fix ${blocking.length === 1 ? "this" : `these ${blocking.length}`} before running`}
          </AlertTitle>
          <AlertDescription>
            <ul className="list-disc space-y-0.5 pl-4">
              {serverError && <li data-testid="outline-server-error">{serverError}</li>}
              {blocking.map((issue) => {
                const [pid, field] = issue.field.split(":");
                const index = field ? points.findIndex((p) => p.id === pid) : -1;
                return (
                  <li key={issue.field}>
                    {index >= 0 ? `Point ${index + 1}: ` : ""}
                    {issue.message}
                  </li>
                );
              })}
            </ul>
          </AlertDescription>
        </Alert>
      )}

      <div className="flex flex-wrap items-center gap-2 border-t pt-4">
        <Button onClick={run} disabled={busy} data-testid="outline-run">
          {busy ? <LoaderIcon className="animate-spin motion-reduce:animate-none" /> : <PlayIcon />}
          {busy ? "Starting…" : runLabel}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={busy} data-testid="outline-cancel">
            {cancelLabel}
          </Button>
        )}
        <p className="text-muted-foreground text-xs">
          Each point is searched on its own, most important first, then written up as a section of the review.
        </p>
      </div>
      <p className="sr-only" role="status" aria-live="polite" data-testid="outline-announcement">
        {state.announcement}
      </p>
    </div>
  );
}
