import { createHash } from "node:crypto";
import path from "node:path";
import type { LanguageModel } from "ai";
import { type Database, type DbHandle, getDbHandle } from "@/db";
import { countPaperContent } from "@/db/queries/ingest";
import { countPapersUsingFile, getPaper, getPaperByDocId } from "@/db/queries/papers";
import type { NewPaper, Paper } from "@/db/schema";
import { timeoutSignal } from "@/lib/abort";
import { getChatModel } from "@/lib/ai/providers";
import { recordAudit } from "@/lib/auth/audit";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { ensureEmbeddingSignature } from "@/lib/embeddings/guard";
import { refreshLibraryVectors } from "@/lib/embeddings/library";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { asDatabaseUnavailable, briefError, isLecternError } from "@/lib/errors";
import { buildPendingGraph } from "@/lib/graph/build";
import { type EditableField, editableFields } from "@/lib/library/metadata";
import { getPdfStorage, type PdfStorage, pdfKey } from "@/lib/storage";
import { annotateChunks } from "./annotate";
import { chunkPage, chunkUid } from "./chunk";
import { cleanPages } from "./clean";
import { type ExtractOptions, extractPdf } from "./extract";
import { applyTrustedMetadata, extractMetadata, paperIdFor } from "./metadata";
import type { IngestFileResult, IngestInput, IngestProgressEvent, IngestStage } from "./progress";
import { savePaperContent } from "./save";
import { chunkSummary, summarizeExtractive, summarizeWithLlm } from "./summarize";
import type { ExtractedPdf, PaperSummary } from "./types";
import { assertTextLayer, checkUploadSize, validatePdfBytes } from "./validate";

export interface IngestContext {
  db: Database;
  /** The data directory (uploads are spooled under it). */
  dataDir: string;
  /** Where the PDFs are stored: by default the configured store (the local one under `dataDir`, or S3). */
  storage: PdfStorage;
  maxUploadBytes: number;
  embedder: EmbeddingProvider;
  /** null = offline: extractive summaries. */
  chatModel: LanguageModel | null;
  llmTimeoutMs: number;
  /** Text extraction; in-process by default, a worker pool in the CLI (see extract-pool.ts). */
  extract: (bytes: Uint8Array, opts?: ExtractOptions) => Promise<ExtractedPdf>;
  /** How many files ahead to read and extract while the current one is processed (0 = one at a time). */
  lookahead: number;
}

export function createIngestContext(
  handle: Pick<DbHandle, "db">,
  overrides: Partial<IngestContext> = {},
): IngestContext {
  const env = getEnv();
  const dataDir = overrides.dataDir ?? env.dataDir;
  return {
    db: handle.db,
    dataDir,
    storage: getPdfStorage(env, dataDir),
    maxUploadBytes: env.maxUploadBytes,
    embedder: getEmbeddingProvider(env),
    chatModel: getChatModel(env),
    llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
    extract: extractPdf,
    lookahead: 0,
    ...overrides,
  };
}

/** The process-wide context (app server, CLI). */
export async function getIngestContext(): Promise<IngestContext> {
  return createIngestContext(await getDbHandle());
}

const EMBED_BATCH = 64;

/**
 * Ingests files one after another. Each file succeeds or fails on its own (a bad file never stops the batch and
 * never leaves anything half-written); the function itself throws only when nothing can be done at all — the
 * database is unreachable, or the configured embedder does not match the library's vectors.
 */
export async function ingestFiles(
  inputs: IngestInput[],
  ctx: IngestContext,
  opts: {
    onProgress?: (e: IngestProgressEvent) => void;
    signal?: AbortSignal;
    /** Who uploads (for the audit trail); null or absent: the command line. */
    actor?: { id: string; email: string } | null;
    /**
     * Run the library step after the files (default). A job that ingests one file of a batch leaves it to the batch's
     * library job (lib/jobs), which runs it once for every batch done meanwhile.
     */
    libraryStep?: boolean;
  } = {},
): Promise<IngestFileResult[]> {
  const emit = opts.onProgress ?? (() => {});
  try {
    await ensureEmbeddingSignature(ctx.db, ctx.embedder);
  } catch (e) {
    // a lost or refused connection says so; any other failure keeps its own message (the job: "Ingestion failed: …")
    throw asDatabaseUnavailable(e, `The database is not available: ${briefError(e)}`);
  }
  const results: IngestFileResult[] = [];
  // Reading and extracting run ahead of the rest (up to `lookahead` files), so with an extraction pool the next PDFs
  // are parsed on other cores while this one is chunked, embedded and saved.
  const prepared = new Map<number, Promise<Prepared>>();
  const prepareAhead = (upTo: number) => {
    for (let j = 0; j <= upTo && j < inputs.length; j++) {
      if (prepared.has(j) || j < results.length) continue;
      const input = inputs[j] as IngestInput;
      emit({ type: "file_start", index: j, total: inputs.length, file: input.name });
      const stage = stageEmitter(emit, j, input.name);
      const p = prepareOne(input, ctx, stage, opts.signal);
      p.catch(() => {}); // handled when its turn comes
      prepared.set(j, p);
    }
  };
  for (const [index, input] of inputs.entries()) {
    opts.signal?.throwIfAborted();
    prepareAhead(index + ctx.lookahead);
    let result: IngestFileResult;
    try {
      const ready = await (prepared.get(index) as Promise<Prepared>);
      result = await ingestPrepared(input, ready, ctx, stageEmitter(emit, index, input.name), opts.signal);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      if (!isLecternError(e)) console.error(`[ingest] ${input.name}: ${briefError(e)}`);
      const unavailable = asDatabaseUnavailable(e, "The database is unavailable.");
      if (isLecternError(unavailable) && unavailable.code === "unavailable:database") throw unavailable;
      result = {
        file: input.name,
        status: "error",
        paper_id: null,
        title: null,
        pages: 0,
        chunks: 0,
        error: isLecternError(e) ? e.message : `Ingestion failed: ${briefError(e)}`,
        error_code: isLecternError(e) ? e.code : "internal:pdf",
      };
    } finally {
      prepared.delete(index);
    }
    results.push(result);
    if ((result.status === "ingested" || result.status === "replaced") && result.paper_id) {
      await recordAudit(
        ctx.db,
        opts.actor ?? null,
        result.status === "ingested" ? "paper.uploaded" : "paper.replaced",
        result.paper_id,
        {
          file: input.name,
          pages: result.pages,
        },
      ).catch((e) => console.error(`[ingest] audit: ${briefError(e)}`));
    }
    emit({ type: "file_done", index, result });
  }
  if (opts.libraryStep !== false && results.some((r) => r.status === "ingested" || r.status === "replaced")) {
    await runLibraryStep(ctx, emit);
  }
  return results;
}

/**
 * The library step, after a batch of files: what is computed over the whole library rather than per paper. Reports
 * its progress and outcome as events; a failure is reported (`library_error`), never thrown — the papers are stored.
 */
export async function runLibraryStep(ctx: IngestContext, emit: (e: IngestProgressEvent) => void): Promise<void> {
  await updateLibraryVectors(ctx, emit);
  await updateGraph(ctx, emit);
}

/**
 * After the vectors: the knowledge graph of the papers that do not have one yet or were replaced — with the model
 * extractor when a model is configured (a paper the model answers nothing for gets the offline rules' edges), else the
 * offline rules. Never throws: a failure is reported and the next step retries.
 */
async function updateGraph(ctx: IngestContext, emit: (e: IngestProgressEvent) => void): Promise<void> {
  try {
    const r = await buildPendingGraph(ctx.db, {
      embedder: ctx.embedder,
      model: ctx.chatModel,
      callTimeoutMs: ctx.llmTimeoutMs,
      onProgress: (e) => {
        if (e.type === "paper" && e.stage === "writing") emit({ type: "graph_stage", done: e.done, of: e.of });
      },
    });
    if (!r) return;
    if (r.failed.length > 0)
      console.error(`[ingest] graph: ${r.failed.map((f) => `${f.paperId}: ${f.error}`).join("; ")}`);
    if (r.fellBackToRules > 0)
      console.warn(
        `[ingest] graph: the model answered nothing for ${r.fellBackToRules} paper(s); built with the offline rules`,
      );
    emit({
      type: "graph_done",
      papers: r.papers,
      accepted: r.accepted,
      review: r.review,
      rejected: Object.values(r.rejected).reduce((a, b) => a + (b ?? 0), 0),
      ms: r.durationMs,
    });
  } catch (e) {
    console.error(`[ingest] the knowledge graph was not updated: ${briefError(e)}`);
    emit({ type: "graph_error", error: `The knowledge graph was not updated: ${briefError(e)}` });
  }
}

/**
 * After a batch: gives its passages their latent vectors (the offline embedder; refitting the library's model when it
 * has grown enough), then computes the new vectors' hubness. The papers are already stored and found by full text; a
 * failure here is reported and retried by the next batch (or at the server's start).
 */
async function updateLibraryVectors(ctx: IngestContext, emit: (e: IngestProgressEvent) => void): Promise<void> {
  try {
    const r = await refreshLibraryVectors(ctx.db, ctx.embedder, {
      onProgress: (stage, done, of) => emit({ type: "library_stage", stage, done, of }),
    });
    emit({ type: "library_done", ...r });
  } catch (e) {
    console.error(`[ingest] the library's vectors were not updated: ${briefError(e)}`);
    emit({ type: "library_error", error: `The library's vectors were not updated: ${briefError(e)}` });
  }
}

type StageFn = (s: IngestStage, done?: number, of?: number) => void;

/** Lets the event loop run what waits (requests, timers) before the next step. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function stageEmitter(emit: (e: IngestProgressEvent) => void, index: number, file: string): StageFn {
  return (stage, done, of) => emit({ type: "file_stage", index, file, stage, done, of });
}

/** What can be done before the file's turn: read, validate, hash, and (unless already stored) extract the text. */
type Prepared =
  | { kind: "existing"; paper: StoredPaper }
  | { kind: "new"; bytes: Uint8Array; docId: string; extracted: ExtractedPdf };

async function prepareOne(
  input: IngestInput,
  ctx: IngestContext,
  stage: StageFn,
  signal?: AbortSignal,
): Promise<Prepared> {
  stage("validating");
  if (input.size !== undefined) checkUploadSize(input.size, ctx.maxUploadBytes);
  const bytes = await input.read();
  validatePdfBytes(bytes, { maxBytes: ctx.maxUploadBytes });
  const docId = createHash("sha256").update(bytes).digest("hex");
  const existing = await getPaperByDocId(ctx.db, { docId });
  if (existing) return { kind: "existing", paper: existing };
  stage("extracting", 0);
  const extracted = await ctx.extract(bytes, { signal, onProgress: (done, total) => stage("extracting", done, total) });
  return { kind: "new", bytes, docId, extracted };
}

async function ingestPrepared(
  input: IngestInput,
  ready: Prepared,
  ctx: IngestContext,
  stage: StageFn,
  signal?: AbortSignal,
): Promise<IngestFileResult> {
  if (ready.kind === "existing") return unchangedResult(ctx, input, ready.paper);
  // Re-checked at the file's turn: an earlier file of the same batch may have been these very bytes.
  const storedMeanwhile = await getPaperByDocId(ctx.db, { docId: ready.docId });
  if (storedMeanwhile) return unchangedResult(ctx, input, storedMeanwhile);
  const { bytes, docId, extracted } = ready;
  // The steps below are synchronous CPU work of 20–300 ms each for a paper. With the embedded database the app's own
  // worker runs them, on the server's event loop: it gets a turn between them (extraction itself runs in a worker
  // thread, extract-pool.ts).
  const pageTexts = cleanPages(extracted.pages);
  assertTextLayer(pageTexts, extracted.pages);
  await turn();
  // a trusted source's fields (arXiv, a reference manager's export) replace what the heuristics read off the PDF
  const meta = applyTrustedMetadata(
    extractMetadata({ pages: pageTexts, info: extracted.info, fileName: input.name }),
    input.metadata,
  );
  const paperId = paperIdFor(meta, input.name);
  await turn();

  stage("chunking");
  const pageRows = pageTexts.map((text, i) => ({ pageNumber: i + 1, text }));
  const pageChunks: (ReturnType<typeof chunkPage>[number] & { pageNumber: number; chunkUid: string })[] = [];
  for (const [i, text] of pageTexts.entries()) {
    for (const c of chunkPage(text)) {
      pageChunks.push({
        ...c,
        pageNumber: i + 1,
        chunkUid: chunkUid(docId, i + 1, c.chunkIndex, c.charStart, c.charEnd),
      });
    }
    if (i % 8 === 7) await turn();
  }
  await turn();
  const annotations = annotateChunks(pageRows, pageChunks);
  await turn();

  stage("summarizing");
  const summary = await summarize(ctx, pageTexts, meta, signal);
  await turn();
  const summaryPassages = chunkSummary(summary).map((c) => ({
    ...c,
    chunkUid: chunkUid(docId, 0, c.chunkIndex, c.charStart, c.charEnd),
  }));

  const texts = [...pageChunks.map((c) => c.text), ...summaryPassages.map((c) => c.text)];
  const vectors: (number[] | null)[] = [];
  if (ctx.embedder.kind === "latent") {
    // the latent model is the library's own: the batch's passages get their vectors once they are all stored
    // (refreshLatentVectors, at the end of ingestFiles)
    vectors.push(...texts.map(() => null));
  } else {
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      stage("embedding", i, texts.length);
      vectors.push(...(await ctx.embedder.embed(texts.slice(i, i + EMBED_BATCH), { signal, db: ctx.db })));
    }
    stage("embedding", texts.length, texts.length);
  }

  stage("saving");
  signal?.throwIfAborted();
  // a new version under a new id (`…v2` for `…v1`) replaces the paper it names, as a same-id one does
  const previous =
    (input.replaces && input.replaces !== paperId ? await getPaper(ctx.db, { id: input.replaces }) : undefined) ??
    (await getPaper(ctx.db, { id: paperId }));
  // the object first, then the row: a paper row never names a PDF that is not stored (a crash between the two leaves
  // an object no row names, which the sweep removes: lib/storage/sweep.ts)
  const filePath = pdfKey(docId);
  await ctx.storage.put(filePath, bytes);
  let saved: { title: string };
  try {
    saved = await savePaperContent(
      ctx.db,
      {
        paper: {
          id: paperId,
          docId,
          arxivId: meta.arxivId ?? null,
          title: meta.title,
          authors: meta.authors,
          abstract: meta.abstract ?? null,
          publishedDate: meta.publishedDate ?? null,
          year: meta.year ?? null,
          categories: meta.categories,
          doi: meta.doi ?? null,
          venue: meta.venue ?? null,
          filePath,
          fileName: path.basename(input.name), // the CLI reports full paths; the library keeps the name
          fileSize: bytes.byteLength,
          pageCount: extracted.pageCount,
        },
        pages: pageRows,
        chunks: pageChunks.map((c, i) => ({
          chunkUid: c.chunkUid,
          pageNumber: c.pageNumber,
          chunkIndex: c.chunkIndex,
          text: c.text,
          charStart: c.charStart,
          charEnd: c.charEnd,
          tokenCount: c.tokenCount,
          ...annotations[i],
          embedding: vectors[i] ?? null,
        })),
        summary: { text: summary.text, method: summary.method, model: summary.model ?? null },
        summaryChunks: summaryPassages.map((c, i) => ({
          chunkUid: c.chunkUid,
          chunkIndex: c.chunkIndex,
          text: c.text,
          charStart: c.charStart,
          charEnd: c.charEnd,
          pages: c.pages,
          embedding: vectors[pageChunks.length + i] ?? null,
        })),
      },
      // what the user corrected on the version this one replaces stays corrected
      { replacePaperId: previous?.id, keep: keptEdits },
    );
  } catch (e) {
    // nothing was written; drop the stored file unless another paper already used these bytes
    if ((await countPapersUsingFile(ctx.db, { filePath }).catch(() => 1)) === 0) {
      await ctx.storage.delete(filePath).catch(() => {});
    }
    throw wrapDatabaseError(e);
  }
  if (previous && previous.filePath !== filePath) {
    await ctx.storage.delete(previous.filePath).catch(() => {});
  }
  return {
    file: input.name,
    status: previous ? "replaced" : "ingested",
    paper_id: paperId,
    title: saved.title,
    pages: extracted.pageCount,
    chunks: pageChunks.length,
    error: null,
    error_code: null,
  };
}

/** The fields of a stored paper its user corrected, with their values, and the record of them. */
function keptEdits(previous: Paper): Partial<NewPaper> {
  const kept: Partial<NewPaper> = { editedFields: previous.editedFields };
  for (const field of previous.editedFields) {
    if ((editableFields as readonly string[]).includes(field)) {
      const f = field as EditableField;
      Object.assign(kept, { [f]: previous[f] });
    }
  }
  return kept;
}

type StoredPaper = Pick<Paper, "id" | "title" | "pageCount">;

async function unchangedResult(ctx: IngestContext, input: IngestInput, paper: StoredPaper): Promise<IngestFileResult> {
  return {
    file: input.name,
    status: "unchanged",
    paper_id: paper.id,
    title: paper.title,
    pages: paper.pageCount,
    chunks: (await countPaperContent(ctx.db, { paperId: paper.id })).chunks,
    error: null,
    error_code: null,
  };
}

async function summarize(
  ctx: IngestContext,
  pages: string[],
  metadata: ReturnType<typeof extractMetadata>,
  signal?: AbortSignal,
): Promise<PaperSummary> {
  if (!ctx.chatModel) return summarizeExtractive({ pages, metadata });
  try {
    return await summarizeWithLlm({
      model: ctx.chatModel,
      pages,
      metadata,
      signal: timeoutSignal(ctx.llmTimeoutMs, signal),
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    console.warn(`[ingest] LLM summary failed, using the extractive summary: ${(e as Error).message}`);
    return summarizeExtractive({ pages, metadata });
  }
}

function wrapDatabaseError(e: unknown): unknown {
  return asDatabaseUnavailable(e, "The database went away while saving; nothing was written.");
}
