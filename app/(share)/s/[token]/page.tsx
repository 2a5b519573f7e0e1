import type { Metadata, ResolvingMetadata } from "next";
import { notFound } from "next/navigation";
import { SharedRunView } from "@/components/research/shared-run-view";
import { loadShare, shareMetadata } from "./data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

export async function generateMetadata({ params }: Props, parent: ResolvingMetadata): Promise<Metadata> {
  const shared = await loadShare((await params).token);
  if (!shared) return { ...shareMetadata, title: "Not found" };
  const q = shared.run.question;
  const title = q.length > 60 ? `${q.slice(0, 60)}…` : q;
  return { ...shareMetadata, title, openGraph: { ...(await parent).openGraph, title } };
}

/** A share link: the run read-only, for anyone with the link (unknown, revoked or expired: not found). */
export default async function SharedRunPage({ params }: Props) {
  const { token } = await params;
  const shared = await loadShare(token);
  if (!shared) notFound();
  return <SharedRunView token={token} run={shared.run} paperIds={shared.paperIds} />;
}
