import { SearchXIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { EntityView } from "@/components/graph/entity-view";
import { getDb } from "@/db";
import { lookupEntity } from "@/lib/graph/query";
import { pageUser } from "../../../../access";
import { entityPageName } from "../../schema";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }> };

/** The segment as typed: percent-encoded characters decoded, control characters dropped, bounded. */
async function nameOf(params: Props["params"]): Promise<string> {
  return entityPageName((await params).name);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `${await nameOf(params)} – Knowledge graph` };
}

export default async function EntityPage({ params }: Props) {
  const name = await nameOf(params);
  await pageUser(`/graph/entity/${encodeURIComponent(name)}`);
  const r = await lookupEntity(await getDb(), name);
  if (!r.found) {
    return (
      <section
        className="mx-auto mt-12 max-w-lg space-y-3 rounded-xl border border-dashed px-6 py-10 text-center"
        data-testid="entity-not-found"
      >
        <SearchXIcon className="mx-auto size-10 text-muted-foreground" aria-hidden />
        <h1 className="font-semibold text-xl">No entity named “{name}”.</h1>
        {r.suggestions.length > 0 && (
          <p className="text-sm">
            <span className="text-muted-foreground">Close names: </span>
            {r.suggestions.map((s, i) => (
              <span key={s.id}>
                {i > 0 && ", "}
                <Link
                  href={`/graph/entity/${encodeURIComponent(s.name)}`}
                  className="text-primary underline-offset-4 hover:underline"
                >
                  {s.name}
                </Link>
              </span>
            ))}
          </p>
        )}
        <Link href="/graph" className="text-primary text-sm underline-offset-4 hover:underline">
          Search the graph
        </Link>
      </section>
    );
  }
  return <EntityView data={r} />;
}
