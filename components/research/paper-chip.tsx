"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** What a chip says of itself: its tooltip, its label, its data attributes. */
type ChipDetails = { title?: string; "aria-label"?: string } & {
  [data: `data-${string}`]: string | number | undefined;
};

/**
 * A chip that opens a paper where this view may open it (`href`), and a plain chip where it may not (a share link opens
 * only the papers its run cites): the step cards' source chips and graph-edge chips.
 */
export function PaperChip({
  href,
  className,
  children,
  ...details
}: { href: string | null; className: string; children: ReactNode } & ChipDetails) {
  return (
    <li>
      {href ? (
        <Link
          href={href}
          className={cn(className, "hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50")}
          {...details}
        >
          {children}
        </Link>
      ) : (
        <span className={className} data-link="none" {...details}>
          {children}
        </span>
      )}
    </li>
  );
}
