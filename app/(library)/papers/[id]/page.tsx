import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PaperSummary } from "@/components/paper/paper-summary";
import { PaperView } from "@/components/paper/paper-view";
import { getDb } from "@/db";
import { getPaperDetail } from "@/db/queries/papers";
import { can } from "@/lib/auth/roles";
import { pageUser } from "../../../access";
import { updatePaperMetadataAction } from "../../actions";
import { firstValues, paperIdSchema, paperViewQuerySchema } from "../../schema";
import { loadPaperView } from "./view";

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
  const query = paperViewQuerySchema.parse(firstValues(await searchParams));
  const { view, page, passage } = await loadPaperView(await getDb(), detail, query);

  return (
    <PaperView
      key={view.id}
      paper={view}
      initialPage={page}
      passage={passage}
      summary={<PaperSummary summary={view.summary} />}
      saveMetadata={can(user.role, "library:write") ? updatePaperMetadataAction : null}
    />
  );
}
