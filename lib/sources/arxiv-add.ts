import { findPapersByArxivIds, type PaperByArxivId } from "@/db/queries/sources";
import type { IngestContext } from "@/lib/ingest/pipeline";
import type { TrustedMetadata } from "@/lib/ingest/progress";
import type { QueuedDownload } from "@/lib/jobs/ingest";
import type { ArxivClient, ArxivEntry } from "./arxiv";
import { type ArxivRef, formatArxivRef, parseArxivList, splitVersion } from "./arxiv-ids";
import { ingestPlanned, type PlannedPdf, type SourceJobs, type SourceRunOptions } from "./ingest-items";
import { emptyResult, type SourceItemResult } from "./types";

export interface ArxivAddDeps {
  ctx: IngestContext;
  /** Looks the ids up (in the request); the PDFs are downloaded by download-file jobs. */
  arxiv: ArxivClient;
  queue: SourceJobs["queue"];
}

export interface ArxivAddOptions extends SourceRunOptions {
  /** Replace a paper the library has in an older version by the newer one (else: `update_available`). */
  replace?: boolean;
}

/** The arXiv API's fields, as the metadata the PDF's own heuristics give way to. */
export function trustedMetadataOf(entry: ArxivEntry): TrustedMetadata {
  const categories = entry.primaryCategory
    ? [entry.primaryCategory, ...entry.categories.filter((c) => c !== entry.primaryCategory)]
    : entry.categories;
  return {
    title: entry.title,
    authors: entry.authors,
    abstract: entry.abstract,
    categories,
    publishedDate: entry.published ?? undefined,
    doi: entry.doi ?? undefined,
    arxivId: entry.versionedId,
    venue: entry.journalRef ?? undefined,
  };
}

/** A PDF for a download-file job to fetch from arXiv (this version), then ingest with arXiv's metadata. */
export function arxivPdfInput(
  entry: ArxivEntry,
  opts: { replaces?: string } = {},
  metadata: TrustedMetadata = trustedMetadataOf(entry),
): QueuedDownload {
  return {
    name: `${entry.versionedId.replace("/", "_")}.pdf`,
    metadata,
    ...(opts.replaces ? { replaces: opts.replaces } : {}),
    download: { source: "arxiv", id: entry.versionedId },
  };
}

/** What the library has of an arXiv paper, compared with the version asked for. */
export function libraryVerdict(
  entry: ArxivEntry,
  asked: ArxivRef,
  held: PaperByArxivId[],
): { status: "new" } | { status: "same" | "older" | "newer"; paper: PaperByArxivId } {
  if (held.length === 0) return { status: "new" };
  const versions = held.map((p) => ({ paper: p, version: splitVersion(p.arxivId).version ?? 0 }));
  const same = versions.find((v) => v.version === entry.version || v.version === 0);
  if (same) return { status: "same", paper: same.paper };
  const newest = versions.reduce((a, b) => (b.version > a.version ? b : a));
  if (newest.version > entry.version) return { status: "newer", paper: newest.paper };
  // the library's is older: an explicit ask for this version, or the latest, is an update
  return {
    status: asked.version === undefined || asked.version > newest.version ? "older" : "same",
    paper: newest.paper,
  };
}

/**
 * Adds papers by arXiv id or URL: looks them up on arXiv (one request for up to 50 ids), compares with the library,
 * and queues those it lacks — a download job fetches each PDF, then it is ingested with arXiv's metadata — following
 * them to their end (`signal` stops the following; the jobs go on). Each item gets a result; an id that is
 * not one, or that arXiv does not know, is an error of its own. Throws (nothing written) when arXiv cannot be reached
 * for the lookup or the database is unavailable.
 */
export async function addFromArxiv(
  inputs: string[],
  deps: ArxivAddDeps,
  opts: ArxivAddOptions = {},
): Promise<SourceItemResult[]> {
  const emit = opts.onProgress ?? (() => {});
  const { refs, tokens, invalid } = parseArxivList(inputs);
  const labels = [...tokens, ...invalid];
  emit({ type: "items", items: labels.map((label, index) => ({ index, label })) });
  const results = new Map<number, SourceItemResult>();
  const done = (index: number, r: SourceItemResult) => {
    results.set(index, r);
    emit({ type: "item_done", index, result: r });
  };
  invalid.forEach((token, i) => {
    done(
      refs.length + i,
      emptyResult(token, "error", {
        error: `“${token}” is not an arXiv id or URL (for example 2106.09685, 2106.09685v2 or https://arxiv.org/abs/1706.03762).`,
        error_code: "bad_request:source",
      }),
    );
  });
  if (refs.length > 0) {
    for (const index of refs.keys()) emit({ type: "item_stage", index, stage: "looking_up" });
    const entries = await deps.arxiv.getEntries(refs, opts.signal);
    const held = await findPapersByArxivIds(deps.ctx.db, { ids: [...new Set(refs.map((r) => r.id))] });
    const planned: PlannedPdf[] = [];
    refs.forEach((ref, index) => {
      const label = tokens[index] as string;
      const entry = entries.get(formatArxivRef(ref));
      if (!entry) {
        done(
          index,
          emptyResult(label, "error", {
            arxiv_id: formatArxivRef(ref),
            error: ref.version
              ? `arXiv has no version ${ref.version} of ${ref.id} (or no paper ${ref.id}).`
              : `arXiv has no paper ${ref.id}.`,
            error_code: "not_found:source",
          }),
        );
        return;
      }
      const verdict = libraryVerdict(
        entry,
        ref,
        held.filter((p) => splitVersion(p.arxivId).id === entry.id),
      );
      const found = { arxiv_id: entry.versionedId, title: entry.title };
      if (verdict.status === "same" || verdict.status === "newer") {
        done(
          index,
          emptyResult(label, "already_in_library", {
            ...found,
            paper_id: verdict.paper.id,
            title: verdict.paper.title,
            detail:
              verdict.status === "newer"
                ? `The library has a newer version (${verdict.paper.arxivId}).`
                : `In the library as ${verdict.paper.id}.`,
          }),
        );
        return;
      }
      if (verdict.status === "older" && !opts.replace) {
        done(
          index,
          emptyResult(label, "update_available", {
            ...found,
            paper_id: verdict.paper.id,
            detail: `arXiv has ${entry.versionedId}; the library has ${verdict.paper.arxivId}. Replace it to update.`,
          }),
        );
        return;
      }
      planned.push({
        index,
        label,
        arxivId: entry.versionedId,
        input: arxivPdfInput(entry, { replaces: verdict.status === "older" ? verdict.paper.id : undefined }),
      });
    });
    const jobs = { queue: deps.queue, origin: "arxiv" };
    for (const [index, r] of await ingestPlanned(planned, deps.ctx, jobs, opts)) results.set(index, r);
  }
  return labels.map(
    (label, index) =>
      results.get(index) ?? emptyResult(label, "error", { error: "Not processed.", error_code: "internal:source" }),
  );
}
