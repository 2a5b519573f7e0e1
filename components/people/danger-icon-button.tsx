import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/**
 * The small icon button that opens a destructive confirmation on the People page (remove a person, revoke an invite):
 * muted, red on hover when enabled, 40 px on a phone. Give it an `aria-label` that names whom it acts on.
 */
export function DangerIconButton({
  className,
  disabled,
  ...props
}: Omit<ComponentProps<typeof Button>, "variant" | "size">) {
  return (
    <Button
      variant="ghost"
      size="icon-sm"
      disabled={disabled}
      className={cn("text-muted-foreground max-sm:size-10", !disabled && "hover:text-destructive", className)}
      {...props}
    />
  );
}
