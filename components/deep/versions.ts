import type { OutlineDiff } from "@/lib/research/deep/versions";
import type { DeepVersion } from "./types";

/** What made a version, in a few words. */
export function versionLabel(v: DeepVersion): string {
  if (v.kind === "quick") return "Quick answer";
  if (v.feedback) return `Improved: “${clip(withoutPrefix(v.feedback), 48)}”`;
  if (v.parentId === null) return "Deep research";
  if (!v.diff) return "Deep research of the quick answer";
  return isEmpty(v.diff) ? "Rerun, same outline" : "Edited outline";
}

/** "improve: add more on x" → "add more on x" (the box suggests the prefix; it says nothing). */
export function withoutPrefix(feedback: string): string {
  return feedback.replace(/^\s*improve\s*:\s*/i, "");
}

/** The diff's `2020–…` as words: `from 2020` (and `until 2024`, `2019–2024`, `all years`). */
function yearsWords(range: string): string {
  const m = /^(\d{4}|…)–(\d{4}|…)$/.exec(range);
  if (!m) return range;
  if (m[1] === "…") return `until ${m[2]}`;
  if (m[2] === "…") return `from ${m[1]}`;
  return range;
}

function clip(s: string, n: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
}

function isEmpty(d: OutlineDiff): boolean {
  return (
    !d.titleChanged && !d.yearsChanged && !d.reordered && d.added.length + d.removed.length + d.changed.length === 0
  );
}

export type ChangeKind =
  | "added"
  | "removed"
  | "changed"
  | "title"
  | "years"
  | "reordered"
  | "feedback"
  | "same"
  | "origin";

export interface ChangeLine {
  kind: ChangeKind;
  text: string;
}

const fieldNames: Record<string, string> = {
  topic: "topic",
  category: "category",
  importance: "importance",
  search_keywords: "keywords",
};

/** What changed in a version from its parent, a line per change (the run page's "What changed"). */
export function changeLines(v: DeepVersion): ChangeLine[] {
  const lines: ChangeLine[] = [];
  if (v.feedback)
    lines.push({ kind: "feedback", text: `Improved with the feedback “${clip(withoutPrefix(v.feedback), 200)}”` });
  if (v.parentNumber === null) return lines;
  if (v.kind === "deep" && !v.diff) {
    lines.push({ kind: "origin", text: `Outline made for the quick answer of v${v.parentNumber}` });
    return lines;
  }
  const d = v.diff;
  if (!d) return lines;
  if (d.titleChanged) lines.push({ kind: "title", text: `Title “${d.titleChanged.from}” → “${d.titleChanged.to}”` });
  if (d.yearsChanged) {
    lines.push({ kind: "years", text: `Years: ${yearsWords(d.yearsChanged.from)} → ${yearsWords(d.yearsChanged.to)}` });
  }
  for (const p of d.added) {
    lines.push({
      kind: "added",
      text: `Added “${p.topic}” (${p.importance}; ${p.search_keywords.join(", ")})`,
    });
  }
  for (const p of d.removed) lines.push({ kind: "removed", text: `Removed “${p.topic}”` });
  for (const c of d.changed) {
    lines.push({
      kind: "changed",
      text: `Changed “${c.topic}”: ${c.fields.map((f) => fieldNames[f] ?? f).join(", ")}`,
    });
  }
  if (d.reordered) lines.push({ kind: "reordered", text: "Points reordered" });
  if (lines.length === 0) lines.push({ kind: "same", text: `Same outline as v${v.parentNumber}` });
  return lines;
}

/** `+1 −1 ~2`: the size of a version's outline change at a glance (empty when there is nothing to count). */
export function changeSummary(d: OutlineDiff | null): string {
  if (!d) return "";
  const parts: string[] = [];
  if (d.added.length) parts.push(`+${d.added.length}`);
  if (d.removed.length) parts.push(`−${d.removed.length}`);
  const changed = d.changed.length + (d.titleChanged ? 1 : 0) + (d.yearsChanged ? 1 : 0);
  if (changed) parts.push(`~${changed}`);
  return parts.join(" ");
}
