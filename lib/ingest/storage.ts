import fs from "node:fs/promises";
import path from "node:path";
import { LecternError } from "@/lib/errors";

/**
 * PDFs live under `<dataDir>/pdfs/<sha256>.pdf`: content-addressed, so writing the same bytes twice is harmless and a
 * stored path never comes from user input.
 */
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function storedPdfRelativePath(docId: string): string {
  if (!SHA256_HEX.test(docId)) throw new LecternError("bad_request:file", "Invalid document id.");
  return path.join("pdfs", `${docId}.pdf`);
}

/** Resolves a stored relative path inside the data directory; refuses anything that escapes it. */
export function resolveStoredPath(dataDir: string, relativePath: string): string {
  const root = path.resolve(dataDir);
  const full = path.resolve(root, relativePath);
  if (!full.startsWith(root + path.sep)) throw new LecternError("bad_request:file", "Invalid file path.");
  return full;
}

export async function storePdf(dataDir: string, docId: string, bytes: Uint8Array): Promise<string> {
  const rel = storedPdfRelativePath(docId);
  const full = resolveStoredPath(dataDir, rel);
  await fs.mkdir(path.dirname(full), { recursive: true });
  try {
    await fs.access(full);
    return rel; // same bytes already stored
  } catch {
    // write to a temp name then rename, so a crash never leaves a truncated PDF under the final name
    const tmp = `${full}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, full);
    return rel;
  }
}

export async function removeStoredPdf(dataDir: string, relativePath: string): Promise<void> {
  await fs.rm(resolveStoredPath(dataDir, relativePath), { force: true });
}
