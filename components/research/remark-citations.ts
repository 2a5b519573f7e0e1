import type { Parent, PhrasingContent, Root, Text } from "mdast";
import { claimRange, findMarkers, type MarkerCitation } from "./citation-markers";

/**
 * A remark plugin that turns the answer's `[PAPER_ID, page N]` markers into citation elements and wraps the claim
 * each belongs to, so the renderer can draw chips and mark unsupported claims. Both become `<span>`s carrying data
 * attributes (mdast → hast via `data.hName`); the renderer tells them apart:
 *
 * - `data-citation`: the marker's citations as `paperId|page;…`, `data-claim`: its claim's text
 * - `data-claim-cites`: on the claim, the citations that carry it (same format)
 *
 * Text in links and code is left alone.
 */

export const CITATION_ATTR = "data-citation";
export const CLAIM_TEXT_ATTR = "data-claim";
export const CLAIM_CITES_ATTR = "data-claim-cites";

export function encodeCites(cites: readonly MarkerCitation[]): string {
  return cites.map((c) => `${c.paperId}|${c.page}`).join(";");
}

export function decodeCites(value: unknown): MarkerCitation[] {
  if (typeof value !== "string" || !value) return [];
  return value.split(";").flatMap((part) => {
    const at = part.lastIndexOf("|");
    const page = Number(part.slice(at + 1));
    return at > 0 && Number.isInteger(page) ? [{ paperId: part.slice(0, at), page }] : [];
  });
}

interface HastData {
  hName: string;
  hProperties: Record<string, string>;
}

/** A phrasing node that mdast-util-to-hast renders as a `<span>` with the given data attributes. */
function span(properties: Record<string, string>, children: PhrasingContent[]): PhrasingContent {
  // `emphasis` is the closest phrasing type; hName/hProperties make it a plain span with our attributes
  return { type: "emphasis", children, data: { hName: "span", hProperties: properties } as HastData };
}

function text(value: string): Text {
  return { type: "text", value };
}

/** Splits one text node into text, claims and citations; null when it holds no citation. */
export function splitCitations(value: string): PhrasingContent[] | null {
  const markers = findMarkers(value);
  if (markers.length === 0) return null;
  const out: PhrasingContent[] = [];
  let pos = 0;
  let lastClaim: { node: PhrasingContent; cites: MarkerCitation[]; text: string } | null = null;
  for (const m of markers) {
    const before = value.slice(pos, m.start);
    const range = claimRange(before);
    let claimText: string;
    if (range.end > range.start) {
      if (range.start > 0) out.push(text(before.slice(0, range.start)));
      claimText = before.slice(range.start, range.end);
      const cites = [...m.citations];
      const node = span({ [CLAIM_CITES_ATTR]: "" }, [text(claimText)]);
      lastClaim = { node, cites, text: claimText };
      out.push(node);
      if (range.end < before.length) out.push(text(before.slice(range.end)));
    } else {
      // a marker right after another (`claim [a, page 1] [b, page 2]`) carries the same claim
      if (before) out.push(text(before));
      if (lastClaim) lastClaim.cites.push(...m.citations);
      claimText = lastClaim?.text ?? "";
    }
    out.push(span({ [CITATION_ATTR]: encodeCites(m.citations), [CLAIM_TEXT_ATTR]: claimText }, [text(m.marker)]));
    pos = m.end;
    if (lastClaim) (lastClaim.node.data as HastData).hProperties[CLAIM_CITES_ATTR] = encodeCites(lastClaim.cites);
  }
  if (pos < value.length) out.push(text(value.slice(pos)));
  return out;
}

const SKIP = new Set(["link", "linkReference", "inlineCode", "code", "html", "definition"]);

function visit(node: Parent): void {
  const next: Parent["children"] = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === "text") {
      const parts = splitCitations(child.value);
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

export function remarkCitations() {
  return (tree: Root) => visit(tree);
}
