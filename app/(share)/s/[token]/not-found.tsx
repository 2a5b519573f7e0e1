import { LinkIcon } from "lucide-react";

/** An unknown, revoked or expired share link (and a paper the shared run does not cite): no way into the library. */
export default function ShareNotFound() {
  return (
    <section
      className="mx-auto mt-12 flex max-w-lg flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center"
      data-testid="share-not-found"
    >
      <LinkIcon className="size-10 text-muted-foreground" aria-hidden />
      <h1 className="font-semibold text-xl">This link does not work</h1>
      <p className="text-muted-foreground text-sm">
        It may have been revoked or have expired, or it was copied incompletely. Ask the person who shared it for a new
        one.
      </p>
    </section>
  );
}
