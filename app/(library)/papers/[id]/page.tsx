import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PaperSummary } from "@/components/paper/paper-summary";
import { PaperView } from "@/components/paper/paper-view";
import type { PaperDetailView } from "@/components/paper/types";
import { getDb } from "@/db";
import { getPageText, getPaperDetail } from "@/db/queries/papers";
import { can } from "@/lib/auth/roles";
import { pageUser } from "../../../access";
import { updatePaperMetadataAction } from "../../actions";
import { firstValues, paperIdSchema, paperViewQuerySchema } from "../../schema";
import { paperOutline } from "./outline";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** Once per request, shared by the metadata and the page. */
const loadPaper = cache(async (rawId: string) => {
  const id = paperIdSchema.safeParse(decodeSegment(rawId));
  if (!id.success) return null;
  return getPaperDetail(await getDb(), { id: id.data });
});

/** Ids may hold characters that arrive percent-encoded in the segment (e.g. `/` in old arXiv ids). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const detail = await loadPaper((await params).id);
  return { title: detail?.paper.title ?? "Paper not found" };
}

export default async function PaperPage({ params, searchParams }: Props) {
  const user = await pageUser(`/papers/${(await params).id}`);
  const detail = await loadPaper((await params).id);
  if (!detail) notFound();
  const { paper, summary, chunkCount } = detail;
  const query = paperViewQuerySchema.parse(firstValues(await searchParams));
  const page = Math.min(query.page, Math.max(paper.pageCount, 1));

  // `?hl=` is the passage itself; `?start=&end=` point into the page's stored text.
  let passage = query.hl || null;
  if (!passage && query.start !== undefined && query.end !== undefined && query.end > query.start) {
    const text = await getPageText(await getDb(), { paperId: paper.id, pageNumber: page });
    passage = text?.slice(query.start, Math.min(query.end, query.start + 5_000)).trim() || null;
  }

  const outline = await paperOutline(await getDb(), paper);

  const view: PaperDetailView = {
    id: paper.id,
    title: paper.title,
    authors: paper.authors,
    abstract: paper.abstract,
    year: paper.year,
    publishedDate: paper.publishedDate,
    arxivId: paper.arxivId,
    categories: paper.categories,
    doi: paper.doi,
    editedFields: paper.editedFields,
    fileName: paper.fileName,
    fileSize: paper.fileSize,
    pageCount: paper.pageCount,
    status: paper.status,
    error: paper.error,
    createdAt: new Date(paper.createdAt).toISOString(),
    chunkCount,
    summary: summary
      ? {
          text: summary.text,
          method: summary.method,
          model: summary.model,
          createdAt: new Date(summary.createdAt).toISOString(),
        }
      : null,
    outline,
  };

  return (
    <PaperView
      key={paper.id}
      paper={view}
      initialPage={page}
      passage={passage}
      summary={<PaperSummary summary={view.summary} />}
      saveMetadata={can(user.role, "library:write") ? updatePaperMetadataAction : null}
    />
  );
}
