import type { Metadata } from "next";
import { LibraryView } from "@/components/library/library-view";
import type { PaperRow } from "@/components/library/types";
import { getDb } from "@/db";
import { listPapers } from "@/db/queries/papers";
import { can } from "@/lib/auth/roles";
import { getEnv } from "@/lib/env";
import { isLecternError, userMessage } from "@/lib/errors";
import { pageUser } from "../access";
import { deletePaperAction } from "./actions";
import { toPaperRow } from "./rows";
import { firstValues, listPapersQuerySchema } from "./schema";
import { searchArxivAction } from "./sources-actions";

export const metadata: Metadata = { title: "Library" };
export const dynamic = "force-dynamic";

export default async function LibraryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await pageUser("/");
  const { q, sort } = listPapersQuerySchema.parse(firstValues(await searchParams));
  let papers: PaperRow[] = [];
  let loadError: string | null = null;
  try {
    papers = (await listPapers(await getDb(), { query: q || undefined, sort })).map(toPaperRow);
  } catch (e) {
    // Shown in the page (with a retry) instead of an error screen: e.g. another process holds the database.
    if (!isLecternError(e)) console.error("[library]", e);
    loadError = userMessage(e);
  }
  return (
    <LibraryView
      initialPapers={papers}
      initialQuery={{ q, sort }}
      loadError={loadError}
      maxUploadBytes={getEnv().maxUploadBytes}
      deletePaper={can(user.role, "library:delete") ? deletePaperAction : null}
      canUpload={can(user.role, "library:write")}
      searchArxiv={can(user.role, "library:write") ? searchArxivAction : null}
    />
  );
}
