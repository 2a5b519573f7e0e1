import { z } from "zod";
import type { Database } from "@/db";
import { getMeta, noteContentChanged } from "@/db/queries/meta";
import {
  getPaperMetadataForUpdate,
  listPassageTexts,
  type MetadataFields,
  writePaperMetadata,
  writeSearchText,
} from "@/db/queries/papers";
import { lockVectorWrites, type VectorTable } from "@/db/queries/vectors";
import { EMBEDDING_META_KEY } from "@/lib/embeddings/guard";
import { reprojectLatentVectors } from "@/lib/embeddings/latent-index";
import { type LibraryVectorsRefresh, refreshLibraryVectors } from "@/lib/embeddings/library";
import type { EmbeddingProvider, EmbeddingSignature } from "@/lib/embeddings/types";
import { asDatabaseUnavailable, briefError, LecternError } from "@/lib/errors";
import { type JobQueue, QUEUES } from "@/lib/jobs/queue";
import { passageSearchText } from "@/lib/text/terms";

/** The metadata a user may correct. The paper's id never changes: answers and saved runs cite it. */
export const editableFields = ["title", "authors", "year", "publishedDate", "categories", "doi", "arxivId"] as const;
export type EditableField = (typeof editableFields)[number];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is rejected
const CONTROL = /[\u0000-\u001f\u007f]/;
const oneLine = (what: string, max: number) =>
  z
    .string()
    .transform((s) => s.replace(/\s+/g, " ").trim())
    .refine((s) => !CONTROL.test(s), `${what} contains invalid characters.`)
    .refine((s) => s.length <= max, `${what} is longer than ${max} characters.`);
/** An optional identifier: blank clears it. */
const optionalId = (what: string, pattern: RegExp, example: string) =>
  z
    .string()
    .trim()
    .max(200, `That ${what} is too long.`)
    .transform((s) => (s === "" ? null : s))
    .refine((s) => s === null || pattern.test(s), `That is not ${what} (for example ${example}).`)
    .nullable();

const maxYear = () => new Date().getUTCFullYear() + 1;

/**
 * A correction of a paper's metadata: the fields given replace the stored ones (null or blank clears an optional
 * one); fields left out are kept. Text is trimmed and its whitespace collapsed.
 */
export const paperMetadataEditSchema = z
  .object({
    title: oneLine("The title", 500).refine((s) => s.length > 0, "The title cannot be empty."),
    authors: z
      .array(oneLine("An author's name", 200))
      .max(500, "That is more than 500 authors.")
      .transform((list) => [...new Set(list.filter((a) => a.length > 0))]),
    year: z
      .number({ message: "The year must be a number." })
      .int("The year must be a whole number.")
      .min(1600, "The year must be 1600 or later.")
      .refine((y) => y <= maxYear(), `The year cannot be after ${maxYear()}.`)
      .nullable(),
    publishedDate: z
      .string()
      .trim()
      .transform((s) => (s === "" ? null : s))
      .refine(
        (s) => s === null || (/^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)),
        "The publication date must be a date written YYYY-MM-DD.",
      )
      .refine(
        (s) => s === null || (Number(s.slice(0, 4)) >= 1600 && Number(s.slice(0, 4)) <= maxYear()),
        `The publication date must be between 1600 and ${maxYear()}.`,
      )
      .nullable(),
    categories: z
      .array(
        z
          .string()
          .trim()
          .max(40, "A category is longer than 40 characters.")
          .refine((c) => c === "" || /^[\p{L}\p{N}._-]+$/u.test(c), "A category is one word, like cs.CL."),
      )
      .max(20, "That is more than 20 categories.")
      .transform((list) => [...new Set(list.filter((c) => c.length > 0))]),
    doi: optionalId("a DOI", /^10\.\d{4,9}\/\S+$/, "10.18653/v1/N19-1423"),
    arxivId: optionalId(
      "an arXiv id",
      /^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/,
      "1706.03762v5 or hep-th/9901001",
    ),
  })
  .partial()
  .strict()
  .refine((e) => Object.keys(e).length > 0, "Nothing to change: give at least one field.");

export type PaperMetadataEdit = z.input<typeof paperMetadataEditSchema>;

export interface MetadataEditResult {
  paperId: string;
  /** Fields whose value changed, in `editableFields` order (empty: the edit matched what was stored). */
  changed: EditableField[];
  /** The paper's metadata after the edit. */
  metadata: MetadataFields & { editedFields: string[] };
  /** Passages whose search terms were rewritten (a new title heads every passage's terms). */
  reindexed: number;
  /**
   * The library step after a title change (the rewritten passages' neighbours), in the background; null when there
   * was none to run, or when it was queued as a job (`queue` given). Never rejects.
   */
  vectors: Promise<LibraryVectorsRefresh | null> | null;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/**
 * Corrects a paper's metadata, in one transaction. A new title also rewrites the search terms of the paper's
 * passages (the title heads them) and, when the library's vectors are the offline latent embedder's (projections of
 * those terms), their vectors — so the paper is found by its new title at once and never without vectors. Other
 * embedders' vectors are of the passage text alone and stay. The fields changed are recorded: a re-reading of the
 * stored pages never overwrites them, and a new version of the PDF replacing the paper keeps them. Null when there
 * is no such paper; a LecternError (`bad_request:input`) for an invalid edit, naming the field.
 */
export async function editPaperMetadata(
  ctx: {
    db: Database;
    embedder: EmbeddingProvider | null;
    /** The job queue the library refresh is sent to (the app); absent: it runs here, in the background. */
    queue?: JobQueue;
  },
  id: string,
  edit: unknown,
): Promise<MetadataEditResult | null> {
  const parsed = paperMetadataEditSchema.safeParse(edit);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = typeof issue?.path[0] === "string" ? issue.path[0] : undefined;
    throw new LecternError("bad_request:input", issue?.message ?? "That metadata is not valid.", { field });
  }
  const patch = parsed.data;
  const outcome = await applyEdit(ctx.db, id, patch).catch((e) => {
    throw asDatabaseUnavailable(e, "The database is not reachable; nothing was changed. Try again once it is back.");
  });
  if (!outcome) return null;
  if (outcome.reindexed > 0) noteContentChanged();
  const queued =
    outcome.reindexed > 0 && ctx.queue
      ? await ctx.queue.boss
          .send(QUEUES.libraryRefresh, {})
          .then(() => true)
          .catch((e) => {
            console.error(`[library] the library refresh after editing ${id} was not queued: ${briefError(e)}`);
            return false;
          })
      : false;
  const vectors =
    outcome.reindexed > 0 && !queued
      ? refreshLibraryVectors(ctx.db, ctx.embedder).catch((e) => {
          console.error(`[library] the library's vectors were not updated after editing ${id}: ${briefError(e)}`);
          return null;
        })
      : null;
  return {
    paperId: id,
    changed: outcome.changed,
    metadata: outcome.metadata,
    reindexed: outcome.reindexed,
    vectors,
  };
}

/** The edit in one transaction: null when there is no such paper. */
async function applyEdit(
  db: Database,
  id: string,
  patch: z.output<typeof paperMetadataEditSchema>,
): Promise<{ changed: EditableField[]; metadata: MetadataEditResult["metadata"]; reindexed: number } | null> {
  const signature = await getMeta<EmbeddingSignature>(db, { key: EMBEDDING_META_KEY });
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const stored = await getPaperMetadataForUpdate(t, { id });
    if (!stored) return null;
    const next: MetadataFields = { ...stored, ...patch };
    // a date given without a year sets the year; a year and a date that disagree are refused, not reconciled
    if (patch.publishedDate && patch.year === undefined) next.year = Number(patch.publishedDate.slice(0, 4));
    if (next.publishedDate && next.year !== null && Number(next.publishedDate.slice(0, 4)) !== next.year) {
      throw new LecternError(
        "bad_request:input",
        `The year ${next.year} does not match the publication date ${next.publishedDate}: change one of them, or clear the date.`,
        { field: patch.year !== undefined ? "year" : "publishedDate" },
      );
    }
    const changed = editableFields.filter((f) => !sameValue(next[f], stored[f]));
    const editedFields = [...new Set([...stored.editedFields, ...changed])];
    if (changed.length === 0) return { changed, metadata: { ...stored }, reindexed: 0 };
    await writePaperMetadata(t, { id, fields: next, editedFields });
    let reindexed = 0;
    if (changed.includes("title")) {
      // the vector writers' lock before the passages' rows: a refit takes it and then rewrites every row, so taking
      // them the other way round could deadlock with one on PostgreSQL
      if (signature?.kind === "latent") await lockVectorWrites(t);
      const rows = await rewritePassageTerms(t, { paperId: id, title: next.title });
      reindexed = rows.length;
      // the latent vectors are projections of those terms (other embedders embed the passage's text alone)
      if (signature?.kind === "latent") await reprojectLatentVectors(t, rows);
    }
    return { changed, metadata: { ...next, editedFields }, reindexed };
  });
}

/**
 * Rewrites the search terms of a paper's passages (page chunks and summary passages) for a new title, which heads
 * them (`passageSearchText`); their text-search vectors follow (a generated column). Returns the rewritten rows. The
 * caller calls noteContentChanged once its transaction has committed.
 */
async function rewritePassageTerms(
  tx: Database,
  { paperId, title }: { paperId: string; title: string },
): Promise<{ table: VectorTable; chunkUid: string; searchText: string }[]> {
  const out: { table: VectorTable; chunkUid: string; searchText: string }[] = [];
  for (const table of ["chunks", "summary_chunks"] as const) {
    const passages = await listPassageTexts(tx, { table, paperId });
    const rows = passages.map((p) => ({ chunkUid: p.chunkUid, searchText: passageSearchText(title, p.text) }));
    await writeSearchText(tx, { table, rows });
    for (const r of rows) out.push({ table, ...r });
  }
  return out;
}
