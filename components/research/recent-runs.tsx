import { CircleCheckIcon, CircleSlashIcon, CircleXIcon, HistoryIcon, LoaderIcon } from "lucide-react";
import Link from "next/link";
import { withoutPrefix } from "@/components/deep/versions";
import { formatDate } from "@/components/library/format";
import { cn } from "@/components/ui/cn";
import type { RunStatus } from "@/lib/research/types";
import { isDeclinedCode } from "./step-state";
import type { RecentRun } from "./types";

const statusText: Record<RunStatus, string> = {
  running: "Running",
  completed: "Answered",
  failed: "Failed",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
};

function StatusIcon({ status, declined }: { status: RunStatus; declined: boolean }) {
  const cls = "size-3.5 shrink-0";
  if (declined) return <CircleSlashIcon className={cn(cls, "text-muted-foreground")} aria-hidden />;
  if (status === "running")
    return <LoaderIcon className={cn(cls, "animate-spin text-primary motion-reduce:animate-none")} aria-hidden />;
  if (status === "completed") return <CircleCheckIcon className={cn(cls, "text-success")} aria-hidden />;
  if (status === "failed") return <CircleXIcon className={cn(cls, "text-destructive")} aria-hidden />;
  return <CircleSlashIcon className={cn(cls, "text-muted-foreground")} aria-hidden />;
}

/**
 * What tells a later version (an improvement, a rerun of an edited outline) from the others of its question: its
 * number, as the run page's versions list has it, and the feedback it was improved with.
 */
function VersionNote({ version, feedback }: { version: number | undefined; feedback: string | null }) {
  const asked = feedback ? withoutPrefix(feedback).replace(/\s+/g, " ").trim() : "";
  return (
    <span className="min-w-0 truncate" data-testid="recent-run-improved">
      · {version !== undefined ? `v${version}` : "later version"}
      {asked && <span title={asked}>{` · “${asked}”`}</span>}
    </span>
  );
}

/** The latest questions asked, each a link to its saved run. */
export function RecentRuns({
  runs,
  currentId,
  canAsk = true,
}: {
  runs: readonly RecentRun[];
  currentId: string | null;
  /** False for a viewer: the empty list does not invite them to ask. */
  canAsk?: boolean;
}) {
  return (
    <nav aria-labelledby="recent-runs-heading" className="space-y-2" data-testid="recent-runs">
      <h2 id="recent-runs-heading" className="flex items-center gap-1.5 font-semibold text-sm">
        <HistoryIcon className="size-4 text-muted-foreground" aria-hidden />
        Recent questions
      </h2>
      {runs.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="recent-runs-empty">
          {canAsk
            ? "Questions you ask are saved here, each with a link to share."
            : "Research runs shared with you open from their links."}
        </p>
      ) : (
        <ul className="space-y-0.5">
          {runs.map((r) => {
            const current = r.id === currentId;
            const declined = r.status === "failed" && isDeclinedCode(r.errorCode);
            return (
              <li key={r.id}>
                <Link
                  href={`/research/${r.id}`}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "block rounded-md px-2 py-1.5 text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
                    current ? "bg-secondary" : "hover:bg-accent/60",
                  )}
                  data-testid="recent-run"
                  data-run-id={r.id}
                  data-status={r.status}
                >
                  <span className="line-clamp-2 leading-snug">{r.question}</span>
                  <span className="mt-0.5 flex items-center gap-1.5 text-muted-foreground text-xs">
                    <StatusIcon status={r.status} declined={declined} />
                    <span className="sr-only">{declined ? "Not in the library" : statusText[r.status]},</span>
                    <time dateTime={r.startedAt} suppressHydrationWarning>
                      {formatDate(r.startedAt, true)}
                    </time>
                    {r.parentId && <VersionNote version={r.version} feedback={r.feedback ?? null} />}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
