"use client";

import { Progress as ProgressPrimitive } from "radix-ui";
import type * as React from "react";
import { cn } from "./cn";

/** A determinate bar when `value` is a number (0–100); an indeterminate, animated one when it is null. */
function Progress({
  className,
  value,
  ...props
}: Omit<React.ComponentProps<typeof ProgressPrimitive.Root>, "value"> & { value: number | null }) {
  return (
    <ProgressPrimitive.Root
      data-slot="progress"
      value={value}
      className={cn("relative h-1.5 w-full overflow-hidden rounded-full bg-primary/15", className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        data-slot="progress-indicator"
        className={cn(
          "h-full bg-primary transition-transform duration-300",
          value === null &&
            "w-1/3 animate-[progress-indeterminate_1.2s_ease-in-out_infinite] motion-reduce:w-full motion-reduce:opacity-40",
        )}
        style={value === null ? undefined : { transform: `translateX(-${100 - Math.max(0, Math.min(100, value))}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}

export { Progress };
