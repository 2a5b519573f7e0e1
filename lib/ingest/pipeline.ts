import { createHash } from "node:crypto";
import type { LanguageModel } from "ai";
import { type Database, type DbHandle, getDbHandle } from "@/db";
import { countPaperContent, savePaperContent } from "@/db/queries/ingest";
import { countPapersUsingFile, getPaper, getPaperByDocId } from "@/db/queries/papers";
import { getChatModel } from "@/lib/ai/providers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { ensureEmbeddingSignature } from "@/lib/embeddings/guard";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { isLecternError, LecternError } from "@/lib/errors";
import { chunkPage, chunkUid } from "./chunk";
import { cleanPages } from "./clean";
import { extractPdf } from "./extract";
import { extractMetadata, paperIdFor } from "./metadata";
import type { IngestFileResult, IngestInput, IngestProgressEvent, IngestStage } from "./progress";
import { removeStoredPdf, storePdf } from "./storage";
import { chunkSummary, summarizeExtractive, summarizeWithLlm } from "./summarize";
import type { PaperSummary } from "./types";
import { assertTextLayer, checkUploadSize, validatePdfBytes } from "./validate";

export interface IngestContext {
  db: Database;
  dataDir: string;
  maxUploadBytes: number;
  embedder: EmbeddingProvider;
  /** null = offline: extractive summaries. */
  chatModel: LanguageModel | null;
  llmTimeoutMs: number;
}

export function createIngestContext(
  handle: Pick<DbHandle, "db">,
  overrides: Partial<IngestContext> = {},
): IngestContext {
  const env = getEnv();
  return {
    db: handle.db,
    dataDir: env.dataDir,
    maxUploadBytes: env.maxUploadBytes,
    embedder: getEmbeddingProvider(env),
    chatModel: getChatModel(env),
    llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
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
  opts: { onProgress?: (e: IngestProgressEvent) => void; signal?: AbortSignal } = {},
): Promise<IngestFileResult[]> {
  const emit = opts.onProgress ?? (() => {});
  await ensureEmbeddingSignature(ctx.db, ctx.embedder);
  const results: IngestFileResult[] = [];
  for (const [index, input] of inputs.entries()) {
    opts.signal?.throwIfAborted();
    emit({ type: "file_start", index, total: inputs.length, file: input.name });
    const stage = (s: IngestStage, done?: number, of?: number) =>
      emit({ type: "file_stage", index, file: input.name, stage: s, done, of });
    let result: IngestFileResult;
    try {
      result = await ingestOne(input, ctx, stage, opts.signal);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      if (!isLecternError(e)) console.error(`[ingest] ${input.name}: ${briefError(e)}`);
      if (isLecternError(e) && e.code === "unavailable:database") throw e;
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
    }
    results.push(result);
    emit({ type: "file_done", index, result });
  }
  return results;
}

async function ingestOne(
  input: IngestInput,
  ctx: IngestContext,
  stage: (s: IngestStage, done?: number, of?: number) => void,
  signal?: AbortSignal,
): Promise<IngestFileResult> {
  stage("validating");
  if (input.size !== undefined) checkUploadSize(input.size, ctx.maxUploadBytes);
  const bytes = await input.read();
  validatePdfBytes(bytes, { maxBytes: ctx.maxUploadBytes });
  const docId = createHash("sha256").update(bytes).digest("hex");

  const existing = await getPaperByDocId(ctx.db, { docId });
  if (existing) {
    return {
      file: input.name,
      status: "unchanged",
      paper_id: existing.id,
      title: existing.title,
      pages: existing.pageCount,
      chunks: await countChunks(ctx, existing.id),
      error: null,
      error_code: null,
    };
  }

  stage("extracting", 0);
  const extracted = await extractPdf(bytes, { signal, onProgress: (done, total) => stage("extracting", done, total) });
  const pageTexts = cleanPages(extracted.pages);
  assertTextLayer(pageTexts);
  const meta = extractMetadata({ pages: pageTexts, info: extracted.info, fileName: input.name });
  const paperId = paperIdFor(meta, input.name);

  stage("chunking");
  const pageChunks = pageTexts.flatMap((text, i) =>
    chunkPage(text).map((c) => ({
      ...c,
      pageNumber: i + 1,
      chunkUid: chunkUid(docId, i + 1, c.chunkIndex, c.charStart, c.charEnd),
    })),
  );

  stage("summarizing");
  const summary = await summarize(ctx, pageTexts, meta, signal);
  const summaryPassages = chunkSummary(summary).map((c) => ({
    ...c,
    chunkUid: chunkUid(docId, 0, c.chunkIndex, c.charStart, c.charEnd),
  }));

  const texts = [...pageChunks.map((c) => c.text), ...summaryPassages.map((c) => c.text)];
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    stage("embedding", i, texts.length);
    vectors.push(...(await ctx.embedder.embed(texts.slice(i, i + EMBED_BATCH), { signal })));
  }
  stage("embedding", texts.length, texts.length);

  stage("saving");
  signal?.throwIfAborted();
  const previous = await getPaper(ctx.db, { id: paperId });
  const filePath = await storePdf(ctx.dataDir, docId, bytes);
  try {
    await savePaperContent(
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
          filePath,
          fileName: input.name,
          fileSize: bytes.byteLength,
          pageCount: extracted.pageCount,
        },
        pages: pageTexts.map((text, i) => ({ pageNumber: i + 1, text })),
        chunks: pageChunks.map((c, i) => ({
          chunkUid: c.chunkUid,
          pageNumber: c.pageNumber,
          chunkIndex: c.chunkIndex,
          text: c.text,
          charStart: c.charStart,
          charEnd: c.charEnd,
          tokenCount: c.tokenCount,
          embedding: vectors[i] as number[],
        })),
        summary: { text: summary.text, method: summary.method, model: summary.model ?? null },
        summaryChunks: summaryPassages.map((c, i) => ({
          chunkUid: c.chunkUid,
          chunkIndex: c.chunkIndex,
          text: c.text,
          charStart: c.charStart,
          charEnd: c.charEnd,
          pages: c.pages,
          embedding: vectors[pageChunks.length + i] as number[],
        })),
      },
      { replacePaperId: previous?.id },
    );
  } catch (e) {
    // nothing was written; drop the stored file unless another paper already used these bytes
    if ((await countPapersUsingFile(ctx.db, { filePath }).catch(() => 1)) === 0) {
      await removeStoredPdf(ctx.dataDir, filePath).catch(() => {});
    }
    throw wrapDatabaseError(e);
  }
  if (previous && previous.filePath !== filePath) {
    await removeStoredPdf(ctx.dataDir, previous.filePath).catch(() => {});
  }
  return {
    file: input.name,
    status: previous ? "replaced" : "ingested",
    paper_id: paperId,
    title: meta.title,
    pages: extracted.pageCount,
    chunks: pageChunks.length,
    error: null,
    error_code: null,
  };
}

async function countChunks(ctx: IngestContext, paperId: string): Promise<number> {
  return (await countPaperContent(ctx.db, { paperId })).chunks;
}

async function summarize(
  ctx: IngestContext,
  pages: string[],
  metadata: ReturnType<typeof extractMetadata>,
  signal?: AbortSignal,
): Promise<PaperSummary> {
  if (!ctx.chatModel) return summarizeExtractive({ pages, metadata });
  try {
    const timeout = AbortSignal.timeout(ctx.llmTimeoutMs);
    return await summarizeWithLlm({
      model: ctx.chatModel,
      pages,
      metadata,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    console.warn(`[ingest] LLM summary failed, using the extractive summary: ${(e as Error).message}`);
    return summarizeExtractive({ pages, metadata });
  }
}

function wrapDatabaseError(e: unknown): unknown {
  if (isLecternError(e)) return e;
  const code =
    (e as { code?: string; cause?: { code?: string } }).code ?? (e as { cause?: { code?: string } }).cause?.code;
  if (code && /^(ECONNREFUSED|ECONNRESET|57P0[1-3]|08\d\d\d)$/.test(code)) {
    return new LecternError("unavailable:database", "The database went away while saving; nothing was written.", {
      cause: e,
    });
  }
  return e;
}

/** One line about an unexpected error: the driver's own message rather than the whole failed SQL statement. */
function briefError(e: unknown): string {
  const err = e as { message?: string; cause?: { message?: string } };
  const msg = err.cause?.message ?? err.message ?? String(e);
  const line = msg.split("\n")[0] ?? msg;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
