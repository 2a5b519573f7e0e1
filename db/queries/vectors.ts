import { sql } from "drizzle-orm";
import type { Database } from "@/db";
import { chunks, summaryChunks } from "@/db/schema";

// The passage tables and what every writer of their vectors shares. A module of its own, below ./ingest, ./hubness
// and ./latent, which all need it (ingest.ts writes vectors and clears their hubness: hubness.ts importing these from
// there was an import cycle).

export type VectorTable = "chunks" | "summary_chunks";

/** The table of passages that carry vectors. */
export function vectorTable(table: VectorTable) {
  return table === "chunks" ? chunks : summaryChunks;
}

/**
 * pgvector stores float4; the full float64 text of a vector is twice as long for nothing and parsing it dominated
 * insert time on PGlite. Six decimals keep cosine similarities exact to about 1e-6.
 */
export function toStoredVector(v: number[]): number[] {
  return v.map((x) => Math.round(x * 1e6) / 1e6);
}

/**
 * Serialises the writers of passage vectors and of their hubness (a fill computes from the vectors it reads: a writer
 * changing them meanwhile would leave values computed from a mix), across processes, until the end of the calling
 * transaction. The latent refit and fold-in take it, and so does the hubness fill (./hubness.ts).
 */
export async function lockVectorWrites(tx: Pick<Database, "execute">): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('lectern:vector_writes'))`);
}
