import { topicKeywords } from "@/lib/research/deep/phrases";
import {
  IMPORTANCE,
  type Importance,
  type KnowledgePoint,
  type Outline,
  outlineSchema,
} from "@/lib/research/deep/types";
import { LIMITS } from "@/lib/research/limits";

/**
 * The outline editor's state, as pure functions: a draft of the outline (years as typed), the history for undo and
 * redo, and validation with messages fit for a user. The editor component only renders this and dispatches actions.
 */

/** Most knowledge points an outline may have (`outlineSchema`), and keywords per point. */
export const MAX_POINTS = LIMITS.outlinePoints.max;
export const MAX_KEYWORDS = LIMITS.pointKeywords;
export const MAX_KEYWORD_CHARS = LIMITS.keywordChars;
/** Undo steps kept. */
const HISTORY_LIMIT = 100;

export type PointDraft = KnowledgePoint & {
  /**
   * Its keywords were taken from its topic (`topicKeywords`), not typed: they follow the topic as it is edited, until
   * the researcher adds or removes a keyword. (Not part of the outline: the schema drops it.)
   */
  keywordsFromTopic?: boolean;
};

export interface OutlineDraft {
  title: string;
  knowledge_points: PointDraft[];
  search_strategy: string;
  /** As typed; "" for no bound. */
  year_from: string;
  year_to: string;
}

interface HistoryEntry {
  draft: OutlineDraft;
  /** What the change did, for "Undone: …" (e.g. `removed “Dense retrieval”`). */
  label: string;
}

export interface EditorState {
  draft: OutlineDraft;
  past: HistoryEntry[];
  future: HistoryEntry[];
  /** Field the last change typed into: typing on in the same field stays one undo step. */
  lastKey: string | null;
  /** Every point id the outline has had, so a new point never takes a removed one's id (versions diff by id). */
  usedIds: string[];
  /** The last change in words, for the screen-reader live region. */
  announcement: string;
}

export type EditorAction =
  | { type: "set_title"; title: string }
  | { type: "set_strategy"; strategy: string }
  | { type: "set_year"; bound: "from" | "to"; value: string }
  | { type: "add_point" }
  | { type: "remove_point"; id: string }
  | { type: "move_point"; id: string; by: number }
  | { type: "update_point"; id: string; patch: Partial<Pick<PointDraft, "topic" | "category" | "importance">> }
  /** Adds one keyword, or several separated by commas. */
  | { type: "add_keyword"; id: string; keyword: string }
  /** Removes the keyword at `index`; -1 is the last one. */
  | { type: "remove_keyword"; id: string; index: number }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "reset"; outline: Outline };

export function draftFromOutline(outline: Outline): OutlineDraft {
  return {
    title: outline.title,
    knowledge_points: outline.knowledge_points.map((p) => ({ ...p, search_keywords: [...p.search_keywords] })),
    search_strategy: outline.search_strategy ?? "",
    year_from: outline.year_from !== undefined ? String(outline.year_from) : "",
    year_to: outline.year_to !== undefined ? String(outline.year_to) : "",
  };
}

export function initEditor(outline: Outline): EditorState {
  const draft = draftFromOutline(outline);
  return {
    draft,
    past: [],
    future: [],
    lastKey: null,
    usedIds: draft.knowledge_points.map((p) => p.id),
    announcement: "",
  };
}

/**
 * The editor as it was left (a kept draft, planner-draft.ts): the outline as edited and the ids it has used, without
 * its undo history. Ids of the draft's points count as used even if the kept list forgot them.
 */
export function resumeEditor(draft: OutlineDraft, usedIds: readonly string[]): EditorState {
  return {
    draft,
    past: [],
    future: [],
    lastKey: null,
    usedIds: [...new Set([...usedIds, ...draft.knowledge_points.map((p) => p.id)])],
    announcement: "",
  };
}

/** `kpN` with N above every numbered id used so far. */
export function nextPointId(used: readonly string[]): string {
  let max = 0;
  for (const id of used) {
    const m = /^kp(\d+)$/.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  let n = Math.max(max, used.length) + 1;
  while (used.includes(`kp${n}`)) n++;
  return `kp${n}`;
}

/** A keyword as stored: trimmed, inner whitespace collapsed. */
export function normalizeKeyword(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Why `text` cannot be added to `keywords` (null when it can). */
export function keywordProblem(keywords: readonly string[], text: string): string | null {
  const k = normalizeKeyword(text);
  if (!k) return null;
  if (k.length > MAX_KEYWORD_CHARS) return `A keyword is at most ${MAX_KEYWORD_CHARS} characters.`;
  if (keywords.some((w) => w.toLowerCase() === k.toLowerCase())) return `“${k}” is already a keyword.`;
  if (keywords.length >= MAX_KEYWORDS) return `A point has at most ${MAX_KEYWORDS} keywords.`;
  return null;
}

function quoted(topic: string): string {
  const t = topic.trim() || "the new point";
  return t === "the new point" ? t : `“${t.length > 60 ? `${t.slice(0, 59)}…` : t}”`;
}

function withPoint(draft: OutlineDraft, id: string, fn: (p: PointDraft) => PointDraft): OutlineDraft {
  return { ...draft, knowledge_points: draft.knowledge_points.map((p) => (p.id === id ? fn(p) : p)) };
}

/** The point with keywords the researcher chose (added or removed one): they no longer follow its topic. */
function withOwnKeywords({ keywordsFromTopic: _, ...point }: PointDraft, keywords: string[]): PointDraft {
  return { ...point, search_keywords: keywords };
}

/**
 * A change: the new draft becomes current, the old one goes on the undo stack (unless this change continues typing
 * in the same field as the last), and the redo stack is cleared.
 */
function change(
  state: EditorState,
  draft: OutlineDraft,
  label: string,
  opts: { key?: string | null; announce?: string; usedIds?: string[] } = {},
): EditorState {
  const key = opts.key ?? null;
  const coalesce = key !== null && key === state.lastKey && state.past.length > 0;
  const past = coalesce ? state.past : [...state.past, { draft: state.draft, label }].slice(-HISTORY_LIMIT);
  return {
    draft,
    past,
    future: [],
    lastKey: key,
    usedIds: opts.usedIds ?? state.usedIds,
    announcement: opts.announce ?? state.announcement,
  };
}

export function outlineReducer(state: EditorState, action: EditorAction): EditorState {
  const { draft } = state;
  const points = draft.knowledge_points;
  switch (action.type) {
    case "set_title":
      if (action.title === draft.title) return state;
      return change(state, { ...draft, title: action.title }, "edited the title", { key: "title" });
    case "set_strategy":
      if (action.strategy === draft.search_strategy) return state;
      return change(state, { ...draft, search_strategy: action.strategy }, "edited the search strategy", {
        key: "strategy",
      });
    case "set_year": {
      const field = action.bound === "from" ? "year_from" : "year_to";
      const value = action.value.replace(/\D/g, "").slice(0, 4);
      if (value === draft[field]) return state;
      return change(state, { ...draft, [field]: value }, `changed the year range`, { key: field });
    }
    case "add_point": {
      if (points.length >= MAX_POINTS) return state;
      const id = nextPointId(state.usedIds);
      const point: PointDraft = { id, category: "General", topic: "", search_keywords: [], importance: "medium" };
      return change(state, { ...draft, knowledge_points: [...points, point] }, "added a point", {
        usedIds: [...state.usedIds, id],
        announce: `Added a knowledge point at position ${points.length + 1}.`,
      });
    }
    case "remove_point": {
      const i = points.findIndex((p) => p.id === action.id);
      if (i < 0 || points.length <= 1) return state;
      const label = `removed ${quoted(points[i]?.topic ?? "")}`;
      return change(state, { ...draft, knowledge_points: points.filter((p) => p.id !== action.id) }, label, {
        announce: `Removed ${quoted(points[i]?.topic ?? "")}. Undo brings it back.`,
      });
    }
    case "move_point": {
      const from = points.findIndex((p) => p.id === action.id);
      if (from < 0) return state;
      const to = Math.max(0, Math.min(points.length - 1, from + action.by));
      if (to === from) return state;
      const next = [...points];
      const [moved] = next.splice(from, 1);
      next.splice(to, 0, moved as PointDraft);
      const topic = quoted(moved?.topic ?? "");
      return change(state, { ...draft, knowledge_points: next }, `moved ${topic}`, {
        announce: `Moved ${topic} to position ${to + 1} of ${points.length}.`,
      });
    }
    case "update_point": {
      const point = points.find((p) => p.id === action.id);
      if (!point) return state;
      const patch = { ...action.patch };
      if (patch.importance !== undefined && !IMPORTANCE.includes(patch.importance)) delete patch.importance;
      const changed = (Object.keys(patch) as (keyof typeof patch)[]).filter((k) => patch[k] !== point[k]);
      if (changed.length === 0) return state;
      const field = changed.length === 1 ? changed[0] : "point";
      // the importance is picked, not typed: every pick is its own undo step
      const key = field === "importance" ? null : `${action.id}:${field}`;
      // a point without keywords of its own (a new one) searches for its topic's words: Run needs one keyword at least
      const derive =
        patch.topic !== undefined && (point.search_keywords.length === 0 || point.keywordsFromTopic === true);
      const keywords = derive
        ? { search_keywords: topicKeywords(patch.topic ?? "").slice(0, MAX_KEYWORDS), keywordsFromTopic: true }
        : {};
      return change(
        state,
        withPoint(draft, action.id, (p) => ({ ...p, ...patch, ...keywords })),
        `changed the ${field}`,
        {
          key,
          announce:
            field === "importance"
              ? `Importance of ${quoted(point.topic)} set to ${patch.importance}.`
              : state.announcement,
        },
      );
    }
    case "add_keyword": {
      const point = points.find((p) => p.id === action.id);
      if (!point) return state;
      // keywords taken from the topic stood in for the researcher's own: the first one they add replaces them
      const keywords = point.keywordsFromTopic === true ? [] : [...point.search_keywords];
      const added: string[] = [];
      for (const part of action.keyword.split(",")) {
        const k = normalizeKeyword(part);
        if (!k || keywordProblem(keywords, k)) continue;
        keywords.push(k);
        added.push(k);
      }
      if (added.length === 0) return state;
      return change(
        state,
        withPoint(draft, action.id, (p) => withOwnKeywords(p, keywords)),
        `added the keyword ${added.map((k) => `“${k}”`).join(", ")}`,
        { announce: `Added ${added.map((k) => `“${k}”`).join(", ")}.` },
      );
    }
    case "remove_keyword": {
      const point = points.find((p) => p.id === action.id);
      if (!point || point.search_keywords.length === 0) return state;
      const index = action.index < 0 ? point.search_keywords.length + action.index : action.index;
      const removed = point.search_keywords[index];
      if (removed === undefined) return state;
      return change(
        state,
        withPoint(draft, action.id, (p) =>
          withOwnKeywords(
            p,
            p.search_keywords.filter((_, i) => i !== index),
          ),
        ),
        `removed the keyword “${removed}”`,
        { announce: `Removed the keyword “${removed}”.` },
      );
    }
    case "undo": {
      const last = state.past.at(-1);
      if (!last) return state;
      return {
        ...state,
        draft: last.draft,
        past: state.past.slice(0, -1),
        future: [...state.future, { draft: state.draft, label: last.label }],
        lastKey: null,
        announcement: `Undone: ${last.label}.`,
      };
    }
    case "redo": {
      const next = state.future.at(-1);
      if (!next) return state;
      return {
        ...state,
        draft: next.draft,
        past: [...state.past, { draft: state.draft, label: next.label }],
        future: state.future.slice(0, -1),
        lastKey: null,
        announcement: `Redone: ${next.label}.`,
      };
    }
    case "reset":
      return initEditor(action.outline);
  }
}

// ---- Validation -----------------------------------------------------------------------------------------------------

/** Where a problem shows: `title`, `years`, `points`, `strategy`, or `<point id>:<topic|category|keywords>`. */
export interface DraftIssue {
  field: string;
  message: string;
}

function parseYear(text: string): number | undefined | "bad" {
  if (text.trim() === "") return undefined;
  if (!/^\d{4}$/.test(text.trim())) return "bad";
  const n = Number(text);
  return n >= 1900 && n <= 2100 ? n : "bad";
}

const pointFieldMessages: Record<string, string> = {
  topic: "Give the point a topic (2–200 characters).",
  category: "Give the point a category (at most 60 characters).",
  search_keywords: "Add at least one keyword (at most 12).",
  id: "This point has no id.",
  importance: "Choose high, medium or low.",
};

/**
 * Why a point has no keyword: a new point's come from its topic (`topicKeywords`), so say whether there is no topic
 * yet or a topic of common words only — either way Run waits for a keyword.
 */
function noKeywordMessage(topic: string): string {
  if (!topic.trim()) return "Add at least one keyword, or write the topic to take them from.";
  if (topicKeywords(topic).length === 0)
    return `No keyword could be taken from ${quoted(topic)} (only common words): add at least one.`;
  return pointFieldMessages.search_keywords as string;
}

/**
 * The draft as an outline, or what is wrong with it, checked with the same schema the server uses (`outlineSchema`),
 * with one message per field in the editor's words.
 */
export function validateDraft(draft: OutlineDraft): { outline: Outline | null; issues: DraftIssue[] } {
  const issues: DraftIssue[] = [];
  const from = parseYear(draft.year_from);
  const to = parseYear(draft.year_to);
  if (from === "bad" || to === "bad") {
    issues.push({ field: "years", message: "Years are four digits between 1900 and 2100 (or empty for no bound)." });
  }
  const input = {
    title: draft.title,
    knowledge_points: draft.knowledge_points,
    search_strategy: draft.search_strategy,
    ...(typeof from === "number" ? { year_from: from } : {}),
    ...(typeof to === "number" ? { year_to: to } : {}),
  };
  const parsed = outlineSchema.safeParse(input);
  if (parsed.success && issues.length === 0) return { outline: parsed.data, issues };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, index, field] = issue.path;
      let entry: DraftIssue;
      if (head === "title") entry = { field: "title", message: "Give the outline a title (2–300 characters)." };
      else if (head === "search_strategy")
        entry = { field: "strategy", message: "Keep the search strategy under 1,000 characters." };
      else if (head === "year_from" || head === "year_to") entry = { field: "years", message: issue.message };
      else if (head === "knowledge_points" && typeof index === "number") {
        const id = draft.knowledge_points[index]?.id ?? String(index);
        const key = typeof field === "string" ? field : "point";
        const point = draft.knowledge_points[index];
        const message =
          key === "search_keywords" && issue.path.length > 3
            ? `Keywords are 1–${MAX_KEYWORD_CHARS} characters.`
            : key === "search_keywords" && point?.search_keywords.length === 0
              ? noKeywordMessage(point.topic)
              : (pointFieldMessages[key] ?? issue.message);
        entry = { field: `${id}:${key === "search_keywords" ? "keywords" : key}`, message };
      } else if (head === "knowledge_points") {
        entry = {
          field: "points",
          message:
            issue.code === "too_small"
              ? "Keep at least one knowledge point."
              : issue.code === "too_big"
                ? `An outline has at most ${MAX_POINTS} knowledge points.`
                : issue.message,
        };
      } else entry = { field: "outline", message: issue.message };
      if (!issues.some((i) => i.field === entry.field)) issues.push(entry);
    }
  }
  return { outline: null, issues };
}

export const importanceLabels: Record<Importance, string> = { high: "High", medium: "Medium", low: "Low" };
