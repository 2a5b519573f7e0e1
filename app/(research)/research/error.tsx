"use client";

import { CircleAlertIcon, RotateCcwIcon } from "lucide-react";
import { Button } from "@/components/ui/button";

/** A research page that could not be rendered (e.g. the database is unavailable): say so, offer a retry. */
export default function ResearchError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section
      className="mx-auto mt-12 flex max-w-lg flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center"
      data-testid="research-page-error"
    >
      <CircleAlertIcon className="size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-xl">This research run could not be loaded</h1>
      <p className="text-muted-foreground text-sm">
        The library's database did not answer. If another Lectern process is using it, stop that process and try again.
      </p>
      <Button variant="outline" onClick={reset}>
        <RotateCcwIcon />
        Try again
      </Button>
    </section>
  );
}
