import { ArrowLeftIcon, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

/** A centred notice with a way back to the library: features not built yet (no sample data), pages not found. */
export function NoticePage({
  icon: Icon,
  title,
  description,
  testId,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  testId: string;
}) {
  return (
    <section
      className="mx-auto mt-12 flex max-w-lg flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center"
      data-testid={testId}
    >
      <Icon className="size-10 text-muted-foreground" aria-hidden />
      <h1 className="font-semibold text-xl">{title}</h1>
      <p className="text-muted-foreground text-sm">{description}</p>
      <Button asChild variant="outline">
        <Link href="/">
          <ArrowLeftIcon />
          Back to the library
        </Link>
      </Button>
    </section>
  );
}
