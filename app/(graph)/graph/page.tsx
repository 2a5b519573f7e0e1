import type { Metadata } from "next";
import { GraphExplorer } from "@/components/graph/graph-explorer";
import { getDb } from "@/db";
import { pageUser } from "../../access";
import { loadGraphOverview, searchEntity } from "./data";
import { graphQuery } from "./schema";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const q = graphQuery(await searchParams);
  return { title: q ? `${q.length > 60 ? `${q.slice(0, 60)}…` : q} – Knowledge graph` : "Knowledge graph" };
}

export default async function GraphPage({ searchParams }: Props) {
  await pageUser("/graph");
  const q = graphQuery(await searchParams);
  const db = await getDb();
  const [overview, search] = await Promise.all([loadGraphOverview(db), q ? searchEntity(db, q) : null]);
  return <GraphExplorer key={q} query={q} search={search} {...overview} />;
}
