import { isBibliography } from "@/lib/text/bibliography";
import { sectionsOf } from "@/lib/text/sections";
import { sentenceTermEnds } from "./chunk";

/** What is read off a page chunk besides its text, from its paper's pages. */
export interface ChunkAnnotation {
  /** The section most of its text is in ("4 Methodology › 4.2 Crawler"), or null (lib/text/sections.ts). */
  section: string | null;
  /** Part of the paper's list of references, not its content (lib/text/bibliography.ts). */
  bibliography: boolean;
  /** Where each of its sentences ends, in search terms (`sentenceTermEnds`, lib/ingest/chunk.ts). */
  sentenceEnds: number[];
}

/**
 * The annotations of a paper's page chunks, in their order. Ingestion stores them with the chunks; the sections
 * backfill (lib/library/upgrades/sections.ts `backfillSections`) writes them again for stored chunks when
 * SECTIONS_VERSION says this reading has changed — one function for both, so a library read before a change ends up
 * as one ingested after.
 */
export function annotateChunks(
  pages: { pageNumber: number; text: string }[],
  chunks: { pageNumber: number; charStart: number; charEnd: number; text: string }[],
): ChunkAnnotation[] {
  const sections = sectionsOf(pages, chunks);
  return chunks.map((c, i) => {
    const section = sections[i] ?? null;
    return { section, bibliography: isBibliography(section, c.text), sentenceEnds: sentenceTermEnds(c.text) };
  });
}
