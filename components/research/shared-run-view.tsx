"use client";

import { EyeIcon } from "lucide-react";
import { useMemo } from "react";
import { sharePaperLinks } from "@/components/paper/paper-links";
import type { ResearchRunState } from "@/lib/research/types";
import { RunView } from "./run-view";

/**
 * A share link's page (`/s/<token>`), its one client root: the run read-only — no control that acts on it, no recent
 * runs, no library — whose citations and references open the cited papers inside the share.
 */
export function SharedRunView({
  token,
  run,
  paperIds,
}: {
  token: string;
  run: ResearchRunState;
  /** The papers the run cites (its citations' and references'): the only ones the share opens. */
  paperIds: string[];
}) {
  const links = useMemo(() => sharePaperLinks(token, paperIds), [token, paperIds]);
  return (
    <div className="mx-auto min-w-0 max-w-[52rem] space-y-6" data-testid="shared-run">
      <p
        className="flex items-center gap-2 rounded-md border bg-muted/40 px-3 py-2 text-muted-foreground text-sm"
        data-testid="share-banner"
      >
        <EyeIcon className="size-4 shrink-0" aria-hidden />A research run shared with you, read-only: every claim is
        cited to a page you can open.
      </p>
      <RunView run={run} readOnly links={links} />
    </div>
  );
}
