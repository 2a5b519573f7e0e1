import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { Badge } from "@/components/ui/badge";
import type { PaperDetailView } from "./types";

/** The stored summary, as markdown, saying how it was made. Raw HTML in the markdown is not rendered. */
export function PaperSummary({ summary }: { summary: PaperDetailView["summary"] }) {
  if (!summary) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="paper-summary-missing">
        No summary has been made for this paper.
      </p>
    );
  }
  return (
    <div className="space-y-3" data-testid="paper-summary">
      <Badge variant="secondary" data-testid="summary-method">
        {summary.method === "llm"
          ? `Summarized by ${summary.model ?? "a language model"}`
          : "Extractive summary (offline)"}
      </Badge>
      <div className="prose-summary text-sm">
        <ReactMarkdown
          remarkPlugins={[remarkGfm]}
          components={{
            a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
          }}
        >
          {summary.text}
        </ReactMarkdown>
      </div>
    </div>
  );
}
