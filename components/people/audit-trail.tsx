import Link from "next/link";
import { formatDate } from "@/components/library/format";
import { paperHref } from "@/components/library/types";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { auditDetail, auditSubjectIsPaper, auditWhat } from "./audit-format";
import type { AuditItem } from "./types";

/** Who did what to which paper or person, and when: newest first. */
export function AuditTrail({ entries, limit }: { entries: AuditItem[]; limit: number }) {
  return (
    <Card className="gap-3 pb-2" data-testid="audit-trail">
      <CardHeader>
        <CardTitle>Audit trail</CardTitle>
        <CardDescription>
          Uploads, replacements, corrections and deletions of papers, and changes to people; newest first.
          {entries.length >= limit && (
            <>
              {" "}
              The latest {limit} are shown; <code className="text-xs">npm run cli -- audit --limit N</code> reads
              further back.
            </>
          )}
        </CardDescription>
      </CardHeader>
      {entries.length === 0 ? (
        <CardContent className="pb-3">
          <p className="text-muted-foreground text-sm" data-testid="audit-empty">
            Nothing recorded yet.
          </p>
        </CardContent>
      ) : (
        <div className="relative overflow-x-auto">
          {/* scrolls sideways on a narrow screen rather than squeezing the columns into words; on a phone each entry is
              a block of lines instead (when, what, its subject, by whom): four columns left a word per line there */}
          <table className="w-full min-w-[40rem] text-sm max-sm:block max-sm:min-w-0">
            <thead className="text-left text-muted-foreground text-xs max-sm:sr-only">
              <tr>
                <th scope="col" className="py-2 pr-3 pl-5 font-medium">
                  When
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Who
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  What
                </th>
                <th scope="col" className="py-2 pr-5 pl-3 font-medium">
                  Subject
                </th>
              </tr>
            </thead>
            <tbody className="max-sm:block">
              {entries.map((e) => {
                const detail = auditDetail(e);
                return (
                  <tr
                    key={e.id}
                    className="border-t align-top max-sm:flex max-sm:flex-col max-sm:gap-0.5 max-sm:px-5 max-sm:py-2.5"
                    data-testid="audit-row"
                    data-action={e.action}
                  >
                    <td
                      className="whitespace-nowrap py-2 pr-3 pl-5 text-muted-foreground max-sm:order-1 max-sm:p-0 max-sm:text-xs"
                      data-testid="audit-when"
                    >
                      <time dateTime={e.at}>{formatDate(e.at, true)}</time>
                    </td>
                    <td
                      className="max-w-56 truncate px-3 py-2 max-sm:order-4 max-sm:max-w-none max-sm:p-0 max-sm:text-muted-foreground max-sm:text-xs"
                      title={e.actor}
                      data-testid="audit-who"
                    >
                      <span className="sm:hidden">by </span>
                      {e.actor === "command line" ? <span className="italic">command line</span> : e.actor}
                    </td>
                    <td className="px-3 py-2 max-sm:order-2 max-sm:p-0" data-testid="audit-what">
                      {auditWhat(e.action)}
                      {detail && <span className="block text-muted-foreground text-xs">{detail}</span>}
                    </td>
                    <td
                      className="max-w-72 break-all py-2 pr-5 pl-3 max-sm:order-3 max-sm:max-w-none max-sm:p-0"
                      data-testid="audit-subject"
                    >
                      {auditSubjectIsPaper(e.action) ? (
                        <Link href={paperHref(e.subject)} className="text-primary underline-offset-4 hover:underline">
                          {e.subject}
                        </Link>
                      ) : (
                        e.subject
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
