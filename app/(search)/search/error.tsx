"use client";

import { CircleAlertIcon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

/** A safety net: the page reports search failures itself, so this shows only for the unexpected. */
export default function SearchError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section
      className="mx-auto mt-12 flex max-w-lg flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center"
      data-testid="search-crash"
    >
      <CircleAlertIcon className="size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-xl">The search page could not be shown</h1>
      <p className="text-muted-foreground text-sm">Something went wrong on our side. The details were logged.</p>
      <div className="flex gap-2">
        <Button onClick={reset}>Try again</Button>
        <Button asChild variant="outline">
          <Link href="/search">New search</Link>
        </Button>
      </div>
    </section>
  );
}
