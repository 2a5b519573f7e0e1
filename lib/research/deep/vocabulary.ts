import type { Database } from "@/db";
import { getDocumentFrequencies, getQueryLexemes } from "@/db/queries/search";
import { type Genericity, genericityFrom, NO_LIBRARY } from "./phrases";

/** Stems looked up at most per outline (one index lookup each). */
const MAX_STEMS = 400;

/**
 * How common each stem is in the library's summaries (passages of the summary index containing it, of all of them):
 * the words every paper of this library uses ("model", "language", "training" in a library of language-model papers)
 * name no sub-topic of it. Without statistics (a failure, a tiny library) every word counts as specific.
 */
export async function libraryGenericity(db: Database, stems: Iterable<string>): Promise<Genericity> {
  const lexemes = [...new Set(stems)].slice(0, MAX_STEMS);
  if (lexemes.length === 0) return NO_LIBRARY;
  try {
    const [{ rows }, df] = await Promise.all([
      getQueryLexemes(db, { texts: [], table: "summary_chunks" }),
      getDocumentFrequencies(db, { table: "summary_chunks", lexemes }),
    ]);
    return genericityFrom(df, rows ?? 0);
  } catch {
    return NO_LIBRARY;
  }
}
