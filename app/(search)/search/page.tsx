import type { Metadata } from "next";
import { SearchView } from "@/components/search/search-view";
import type { SearchLibrary } from "@/components/search/types";
import { getDb } from "@/db";
import { listPapers } from "@/db/queries/papers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { isLecternError, userMessage } from "@/lib/errors";
import { pageUser } from "../../access";
import { searchAction } from "./actions";
import { parseSearchUrl } from "./schema";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { q } = parseSearchUrl(await searchParams);
  return { title: q ? `${q.length > 60 ? `${q.slice(0, 60)}…` : q} – Search` : "Search" };
}

/** What the filters offer and the empty states need; an error message when the library cannot be read. */
async function loadLibrary(): Promise<{ library: SearchLibrary | null; error: string | null }> {
  try {
    const papers = await listPapers(await getDb(), { limit: 1000 });
    const years = papers.flatMap((p) => (p.year === null ? [] : [p.year]));
    const library: SearchLibrary = {
      ready: papers.filter((p) => p.status === "ready").length,
      processing: papers.filter((p) => p.status === "processing").length,
      // newest first: the idle state suggests the latest papers' titles
      papers: papers.filter((p) => p.status === "ready").map((p) => ({ id: p.id, title: p.title, year: p.year })),
      years: years.length > 0 ? { min: Math.min(...years), max: Math.max(...years) } : null,
      embedder: getEmbeddingProvider(getEnv()).kind,
    };
    return { library, error: null };
  } catch (e) {
    // Shown in the page instead of an error screen: e.g. another process holds the database.
    if (!isLecternError(e)) console.error("[search]", e);
    return { library: null, error: userMessage(e) };
  }
}

export default async function SearchPage({ searchParams }: Props) {
  await pageUser("/search");
  const state = parseSearchUrl(await searchParams);
  const [{ library, error }, result] = await Promise.all([loadLibrary(), state.q ? searchAction(state) : null]);
  return <SearchView state={state} result={result} library={library} libraryError={error} />;
}
