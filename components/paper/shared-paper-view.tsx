"use client";

import type * as React from "react";
import { useMemo } from "react";
import { sharePaperLinks, sharePath } from "./paper-links";
import { PaperView } from "./paper-view";
import type { PaperDetailView } from "./types";

/** A paper a shared run cites, opened inside the share link (`/s/<token>/papers/<id>`): read-only, back to the run. */
export function SharedPaperView({
  token,
  paperIds,
  paper,
  initialPage,
  passage,
  summary,
}: {
  token: string;
  /** The papers the shared run cites (the contents' links stay inside the share). */
  paperIds: string[];
  paper: PaperDetailView;
  initialPage: number;
  passage: string | null;
  summary: React.ReactNode;
}) {
  const links = useMemo(() => sharePaperLinks(token, paperIds), [token, paperIds]);
  return (
    <PaperView
      paper={paper}
      initialPage={initialPage}
      passage={passage}
      summary={summary}
      saveMetadata={null}
      readOnly
      links={links}
      back={{ href: sharePath(token), label: "Back to the research run" }}
    />
  );
}
