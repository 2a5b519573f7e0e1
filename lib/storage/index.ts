import { type Env, getEnv } from "@/lib/env";
import { localPdfStorage } from "./local";
import { type S3PdfStorage, s3PdfStorage } from "./s3";
import type { StorageSettings } from "./settings";
import type { PdfStorage } from "./types";

export { PDF_FOLDER, pdfKey } from "./keys";
export { localPdfStorage, resolveStoredPath } from "./local";
export { type S3PdfStorage, s3PdfStorage } from "./s3";
export type { ByteRange, PdfStorage, StoredObject } from "./types";

/** One client per S3 configuration per process (it keeps its connections). */
let s3Cached: { signature: string; storage: S3PdfStorage } | undefined;

/** The store the settings name: the directory `dataDir` (default: the data directory), or the S3 bucket. */
export function createPdfStorage(settings: StorageSettings, dataDir: string): PdfStorage {
  if (settings.kind === "local") return localPdfStorage(dataDir);
  const signature = JSON.stringify(settings);
  if (s3Cached?.signature !== signature) s3Cached = { signature, storage: s3PdfStorage(settings) };
  return s3Cached.storage;
}

/**
 * The configured PDF store (`LECTERN_STORAGE_URL`). `dataDir` overrides the data directory of the local store (tests
 * and benchmarks give each run a directory of its own).
 */
export function getPdfStorage(env: Env = getEnv(), dataDir: string = env.dataDir): PdfStorage {
  return createPdfStorage(env.storage, dataDir);
}
