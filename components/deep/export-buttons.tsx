import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";

export function exportHref(runId: string, format: "md" | "bibtex"): string {
  return `/research/${encodeURIComponent(runId)}/export?format=${format}`;
}

/** Downloads of a finished run: the answer as Markdown (citations intact) and BibTeX of the cited papers. */
export function ExportButtons({ runId, hasReferences }: { runId: string; hasReferences: boolean }) {
  return (
    <div className="flex items-center gap-1.5" role="group" aria-label="Export" data-testid="deep-export">
      <Button asChild variant="outline" size="sm">
        <a
          href={exportHref(runId, "md")}
          download
          data-testid="export-markdown"
          title="Download the answer as Markdown"
        >
          <DownloadIcon />
          Markdown
        </a>
      </Button>
      {hasReferences && (
        <Button asChild variant="outline" size="sm">
          <a
            href={exportHref(runId, "bibtex")}
            download
            data-testid="export-bibtex"
            title="Download the cited papers as BibTeX"
          >
            <DownloadIcon />
            BibTeX
          </a>
        </Button>
      )}
    </div>
  );
}
