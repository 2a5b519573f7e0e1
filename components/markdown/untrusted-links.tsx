import type { Nodes, Parent, PhrasingContent, Root } from "mdast";
import type * as React from "react";
import type { Components } from "react-markdown";
import type { VFile } from "vfile";

/**
 * Links and images in markdown whose text Lectern did not write — a paper's (a summary quoting it, an offline answer)
 * or a model's (which read the papers, so a paper can put words in its mouth). Raw HTML is never rendered (react-
 * markdown shows it as text without rehype-raw); `remarkUntrustedLinks` decides what links and images become:
 *
 * - an image is never loaded: it shows as its markdown, as text (a beacon would tell a remote host who reads what);
 * - policy `text`: no link at all — paper text reads as written, `[login](https://evil.example)` included;
 * - policy `https`: a link the model wrote (`[text](https://…)`, `[text][ref]`, `<https://…>`) is kept when it is
 *   https, and `untrustedLinkComponents` renders it opening a new tab without the opener or a referrer, nofollow,
 *   with its host after its text; any other link is its text, and so is a bare URL GFM would link by itself (it may
 *   be paper text, quoted).
 *
 * `internal(url)` keeps the links the app wrote itself (a summary's page links).
 */
export type LinkPolicy = "https" | "text";

export interface UntrustedLinkOptions {
  policy: LinkPolicy;
  internal?: (url: string) => boolean;
}

/** The host of an https URL, or null for anything else. */
export function httpsHost(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === "https:" && url.host ? url.host : null;
  } catch {
    return null;
  }
}

/** The markdown a node came from; null for nodes a transform made (GFM's bare-URL links have no position). */
function sourceOf(node: Nodes, markdown: string): string | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? null : markdown.slice(start, end);
}

function plainText(node: Nodes): string {
  if ("value" in node && typeof node.value === "string") return node.value;
  if ("alt" in node && typeof node.alt === "string") return node.alt;
  return "children" in node ? (node.children as Nodes[]).map(plainText).join("") : "";
}

/** What a link or an image becomes; null keeps it as it is. */
function replacement(node: Nodes, markdown: string, options: UntrustedLinkOptions): PhrasingContent[] | null {
  if (node.type === "image" || node.type === "imageReference") {
    return [{ type: "text", value: sourceOf(node, markdown) ?? `[image: ${node.alt ?? ""}]` }];
  }
  if (node.type !== "link" && node.type !== "linkReference") return null;
  if (node.type === "link" && options.internal?.(node.url)) return null;
  const source = sourceOf(node, markdown);
  if (options.policy === "text") return [{ type: "text", value: source ?? plainText(node) }];
  const written = source !== null && (source.startsWith("[") || source.startsWith("<"));
  // a reference link's URL is its definition's, checked when it is rendered (untrustedLinkComponents)
  if (written && (node.type === "linkReference" || httpsHost(node.url))) return null;
  return node.children;
}

function rewrite(parent: Parent, markdown: string, options: UntrustedLinkOptions): void {
  const next: Nodes[] = [];
  for (const child of parent.children as Nodes[]) {
    const replaced = replacement(child, markdown, options);
    if (replaced) {
      next.push(...replaced);
      continue;
    }
    if ("children" in child) rewrite(child as Parent, markdown, options);
    next.push(child);
  }
  parent.children = next as Parent["children"];
}

/** A remark plugin (after remark-gfm) applying `options` to the links and images of the document. */
export function remarkUntrustedLinks(options: UntrustedLinkOptions) {
  return (tree: Root, file: VFile) => rewrite(tree, String(file.value ?? ""), options);
}

/**
 * `a` and `img` for what `remarkUntrustedLinks` kept: an https link opens in a new tab without the opener or a
 * referrer, nofollow, its host shown after its text; anything else (a reference link's non-https definition) is its
 * text. An image never reaches here; if one did, it would be its alt text, not loaded.
 */
export function ExternalLink({ href, children }: { href?: string; children?: React.ReactNode }) {
  const host = httpsHost(href);
  if (!host) return <>{children}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" data-testid="external-link">
      {children}
      <span className="text-[0.85em] text-muted-foreground"> ({host})</span>
    </a>
  );
}

export const untrustedLinkComponents: Pick<Components, "a" | "img"> = {
  a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
  img: ({ alt }) => <>{`[image: ${alt ?? ""}]`}</>,
};
