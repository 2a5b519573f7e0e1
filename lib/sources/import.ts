import { findPapersByArxivIds, findPapersByDois } from "@/db/queries/sources";
import { briefError, isLecternError } from "@/lib/errors";
import type { IngestContext } from "@/lib/ingest/pipeline";
import type { IngestInput } from "@/lib/ingest/progress";
import type { ArxivClient, ArxivEntry } from "./arxiv";
import { arxivPdfInput, trustedMetadataOf } from "./arxiv-add";
import { splitVersion } from "./arxiv-ids";
import { type BibRecord, type ParsedBibliography, tagsAsCategories, trustedMetadataOfRecord } from "./bibliography";
import { ingestPlanned, type PlannedPdf, type SourceJobs, type SourceRunOptions } from "./ingest-items";
import { emptyResult, type SourceItemResult } from "./types";

/**
 * Importing a reference manager's export: each entry's PDF (found through its `file` field, or named after its key)
 * is ingested with the entry's metadata; an entry without a PDF but with an arXiv id is offered for download from
 * arXiv (downloaded with `downloadArxiv`); the rest are reported as metadata only. Entries the library already has
 * (same arXiv id or DOI) are not ingested again. Each entry gets a result.
 */

/** Where an export's PDFs are: the CLI looks in the export's folder, the web upload among the files sent with it. */
export interface PdfResolver {
  /** The PDF a `file` path names, or null when it is not part of the export. */
  resolve(filePath: string): IngestInput | null;
  /** A PDF named after the entry (`<key>.pdf`), for exports that do not link files. */
  byKey(key: string): IngestInput | null;
}

export interface ImportDeps {
  ctx: IngestContext;
  /** null: arXiv is not asked (entries with an arXiv id are still reported as available there). */
  arxiv: ArxivClient | null;
  /** The job queue the PDFs are ingested through (downloads from arXiv included). */
  queue: SourceJobs["queue"];
}

export interface ImportOptions extends SourceRunOptions {
  /** Download from arXiv the entries that have no PDF but an arXiv id. */
  downloadArxiv?: boolean;
}

export interface ImportReport {
  format: ParsedBibliography["format"];
  results: SourceItemResult[];
  counts: Record<"ingested" | "queued" | "already_present" | "no_pdf" | "arxiv_available" | "failed", number>;
}

export function countResults(results: SourceItemResult[]): ImportReport["counts"] {
  const n = (...s: SourceItemResult["status"][]) => results.filter((r) => s.includes(r.status)).length;
  return {
    ingested: n("ingested", "replaced"),
    queued: n("queued"),
    already_present: n("already_in_library"),
    no_pdf: n("no_pdf"),
    arxiv_available: n("arxiv_available", "update_available"),
    failed: n("error"),
  };
}

export async function importBibliography(
  bib: ParsedBibliography,
  resolver: PdfResolver,
  deps: ImportDeps,
  opts: ImportOptions = {},
): Promise<ImportReport> {
  const emit = opts.onProgress ?? (() => {});
  const { records, failures } = bib;
  const labels = [...records.map((r) => r.key), ...failures.map((f) => f.key)];
  emit({ type: "items", items: labels.map((label, index) => ({ index, label })) });
  const results = new Map<number, SourceItemResult>();
  const done = (index: number, r: SourceItemResult) => {
    results.set(index, r);
    emit({ type: "item_done", index, result: r });
  };
  failures.forEach((f, i) => {
    done(records.length + i, emptyResult(f.key, "error", { error: f.error, error_code: "bad_request:source" }));
  });

  const arxivBases = [...new Set(records.flatMap((r) => (r.arxivId ? [splitVersion(r.arxivId).id] : [])))];
  const [byArxiv, byDoi] = await Promise.all([
    findPapersByArxivIds(deps.ctx.db, { ids: arxivBases }),
    findPapersByDois(deps.ctx.db, { dois: records.flatMap((r) => (r.doi ? [r.doi] : [])) }),
  ]);
  const heldBy = (r: BibRecord) =>
    (r.arxivId && byArxiv.find((p) => splitVersion(p.arxivId).id === splitVersion(r.arxivId as string).id)) ||
    (r.doi && byDoi.find((p) => p.doi.toLowerCase() === r.doi?.toLowerCase())) ||
    null;

  const planned: PlannedPdf[] = [];
  const toDownload: { index: number; record: BibRecord }[] = [];
  records.forEach((record, index) => {
    const base = { arxiv_id: record.arxivId, title: record.title };
    const held = heldBy(record);
    if (held) {
      done(
        index,
        emptyResult(record.key, "already_in_library", {
          ...base,
          paper_id: held.id,
          title: held.title,
          detail: `In the library as ${held.id} (same ${record.arxivId && "arxivId" in held ? "arXiv id" : "DOI"}).`,
        }),
      );
      return;
    }
    const linked = record.files.map((f) => ({ file: f, input: resolver.resolve(f) }));
    const pdf = linked.find((l) => l.input)?.input ?? resolver.byKey(record.key);
    if (pdf) {
      planned.push({
        index,
        label: record.key,
        arxivId: record.arxivId,
        input: { ...pdf, metadata: trustedMetadataOfRecord(record) },
      });
      return;
    }
    const missing = linked.length > 0 ? ` Its file ${linked[0]?.file} is not in the export.` : "";
    if (record.arxivId) {
      if (opts.downloadArxiv && deps.arxiv) toDownload.push({ index, record });
      else {
        done(
          index,
          emptyResult(record.key, "arxiv_available", {
            ...base,
            detail: `On arXiv as ${record.arxivId}.${missing}`,
          }),
        );
      }
      return;
    }
    done(index, emptyResult(record.key, "no_pdf", { ...base, detail: missing.trim() || null }));
  });

  if (toDownload.length > 0 && deps.arxiv) {
    for (const { index } of toDownload) emit({ type: "item_stage", index, stage: "looking_up" });
    let entries: Map<string, ArxivEntry> | null = null;
    try {
      entries = await deps.arxiv.getEntries(
        toDownload.map(({ record }) => splitVersion(record.arxivId as string)),
        opts.signal,
      );
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      for (const { index, record } of toDownload) {
        done(
          index,
          emptyResult(record.key, "error", {
            arxiv_id: record.arxivId,
            title: record.title,
            error: isLecternError(e) ? e.message : `arXiv could not be asked: ${briefError(e)}`,
            error_code: isLecternError(e) ? e.code : "unavailable:source",
          }),
        );
      }
    }
    for (const { index, record } of entries ? toDownload : []) {
      const entry = entries?.get(record.arxivId as string);
      if (!entry) {
        done(
          index,
          emptyResult(record.key, "error", {
            arxiv_id: record.arxivId,
            title: record.title,
            error: `arXiv has no paper ${record.arxivId}.`,
            error_code: "not_found:source",
          }),
        );
        continue;
      }
      // arXiv's metadata, with the entry's tags as well
      const metadata = trustedMetadataOf(entry);
      metadata.categories = [...(metadata.categories ?? []), ...tagsAsCategories(record.tags)];
      planned.push({
        index,
        label: record.key,
        arxivId: entry.versionedId,
        input: arxivPdfInput(entry, {}, metadata),
      });
    }
  }

  planned.sort((a, b) => a.index - b.index);
  const jobs = { queue: deps.queue, origin: "bibliography" };
  for (const [index, r] of await ingestPlanned(planned, deps.ctx, jobs, opts)) results.set(index, r);
  const all = labels.map(
    (label, index) =>
      results.get(index) ?? emptyResult(label, "error", { error: "Not processed.", error_code: "internal:source" }),
  );
  return { format: bib.format, results: all, counts: countResults(all) };
}
