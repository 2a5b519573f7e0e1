import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { loadPaperView } from "@/app/(library)/papers/[id]/view";
import { firstValues, paperIdSchema, paperViewQuerySchema } from "@/app/(library)/schema";
import { decodeSegment } from "@/app/route-params";
import { PaperSummary } from "@/components/paper/paper-summary";
import { SharedPaperView } from "@/components/paper/shared-paper-view";
import { getDb } from "@/db";
import { getPaperDetail } from "@/db/queries/papers";
import { loadShare, shareMetadata } from "../../data";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ token: string; paperId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The paper if the share link is live and its run cites it; null otherwise (the same 404 either way). */
const loadSharedPaper = cache(async (token: string, segment: string) => {
  const shared = await loadShare(token);
  if (!shared) return null;
  const id = paperIdSchema.safeParse(decodeSegment(segment));
  if (!id.success || !shared.paperIds.includes(id.data)) return null;
  const detail = await getPaperDetail(await getDb(), { id: id.data });
  return detail ? { shared, detail } : null;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { token, paperId } = await params;
  const loaded = await loadSharedPaper(token, paperId);
  return { ...shareMetadata, title: loaded?.detail.paper.title ?? "Not found" };
}

/** A paper the shared run cites, at the cited page: the PDF viewer and the paper's details, read-only. */
export default async function SharedPaperPage({ params, searchParams }: Props) {
  const { token, paperId } = await params;
  const loaded = await loadSharedPaper(token, paperId);
  if (!loaded) notFound();
  const query = paperViewQuerySchema.parse(firstValues(await searchParams));
  const { view, page, passage } = await loadPaperView(await getDb(), loaded.detail, query);
  // the library's records of the file (its name as uploaded, when, corrections) are not the share's to show
  const shared = { ...view, fileName: "", fileSize: 0, editedFields: [], createdAt: "" };
  return (
    <SharedPaperView
      key={view.id}
      token={token}
      paperIds={loaded.shared.paperIds}
      paper={shared}
      initialPage={page}
      passage={passage}
      summary={<PaperSummary summary={view.summary} />}
    />
  );
}
