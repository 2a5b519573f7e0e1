import type { Parent, PhrasingContent, Root, Text } from "mdast";
import { claimRange } from "./citation-markers";

/**
 * A remark plugin that turns the answer's `[W1]`… web citations into `<span data-web-citation="W1"
 * data-web-claim="…">` elements (mdast → hast via `data.hName`), for the renderer to draw web chips. It runs after
 * remarkCitations (paper markers) and leaves links and code alone.
 */

export const WEB_MARKER_RE = /\[(W\d{1,2})\]/g;

function span(properties: Record<string, string>, value: string): PhrasingContent {
  return {
    type: "emphasis",
    children: [{ type: "text", value }],
    data: { hName: "span", hProperties: properties } as unknown as Record<string, unknown>,
  } as PhrasingContent;
}

/** Splits a text into text and web citation spans; null when it has none. */
export function splitWebCitations(value: string): PhrasingContent[] | null {
  const matches = [...value.matchAll(WEB_MARKER_RE)];
  if (matches.length === 0) return null;
  const out: PhrasingContent[] = [];
  let pos = 0;
  let lastClaim = "";
  for (const m of matches) {
    const at = m.index ?? 0;
    const before = value.slice(pos, at);
    const range = claimRange(before);
    if (range.end > range.start) lastClaim = before.slice(range.start, range.end).replace(/\s+/g, " ").trim();
    if (before) out.push({ type: "text", value: before } as Text);
    out.push(span({ "data-web-citation": m[1] as string, "data-web-claim": lastClaim }, m[0]));
    pos = at + m[0].length;
  }
  if (pos < value.length) out.push({ type: "text", value: value.slice(pos) } as Text);
  return out;
}

const SKIP = new Set(["link", "linkReference", "inlineCode", "code", "html", "definition"]);

function visit(node: Parent): void {
  const next: Parent["children"] = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === "text") {
      const parts = splitWebCitations(child.value);
      if (parts) {
        next.push(...parts);
        changed = true;
        continue;
      }
    } else if (!SKIP.has(child.type) && "children" in child) {
      visit(child as Parent);
    }
    next.push(child);
  }
  if (changed) node.children = next as typeof node.children;
}

export function remarkWebCitations() {
  return (tree: Root) => visit(tree);
}
