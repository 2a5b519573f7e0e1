"use client";

import { createContext, type ReactNode, useContext } from "react";
import { paperHref, paperPdfUrl } from "@/components/library/types";

/** Where a view opens the papers it shows: the page of a paper (at a page, with a passage) and its PDF file. */
export interface PaperLinks {
  /** The page of a paper, or null when this view may not open it (a share link opens only the papers its run cites). */
  paperPage(paperId: string, params?: Record<string, string | number | undefined>): string | null;
  /** The paper's PDF file, for the viewer. */
  pdf(paperId: string): string;
}

/** The library's own pages (`/papers/<id>`, `/api/papers/<id>/pdf`): for someone signed in. */
export const libraryPaperLinks: PaperLinks = { paperPage: paperHref, pdf: paperPdfUrl };

/** The address of a share link (`/s/<token>`); the token is base64url, safe in a path as it is. */
export function sharePath(token: string): string {
  return `/s/${encodeURIComponent(token)}`;
}

/**
 * Inside a share link: the papers its run cites (and only those) open at `/s/<token>/papers/<id>`, their PDFs from
 * `/s/<token>/papers/<id>/pdf` (the server checks the same list). Other papers are not links.
 */
export function sharePaperLinks(token: string, paperIds: readonly string[]): PaperLinks {
  const open = new Set(paperIds);
  const base = (paperId: string) => `${sharePath(token)}/papers/${encodeURIComponent(paperId)}`;
  return {
    paperPage(paperId, params) {
      if (!open.has(paperId)) return null;
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== "") search.set(k, String(v));
      const qs = search.toString();
      return `${base(paperId)}${qs ? `?${qs}` : ""}`;
    },
    pdf: (paperId) => `${base(paperId)}/pdf`,
  };
}

const PaperLinksContext = createContext<PaperLinks | null>(null);

/** Gives the components below (step cards, references, the citation sheet, the paper view) their paper links. */
export function PaperLinksProvider({ links, children }: { links: PaperLinks; children: ReactNode }) {
  return <PaperLinksContext.Provider value={links}>{children}</PaperLinksContext.Provider>;
}

/** The paper links of the view this component is in; throws outside a `PaperLinksProvider`. */
export function usePaperLinks(): PaperLinks {
  const links = useContext(PaperLinksContext);
  if (!links)
    throw new Error("usePaperLinks must be used inside a PaperLinksProvider (RunView and PaperView give one).");
  return links;
}
