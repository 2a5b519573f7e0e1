import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { LecternError } from "@/lib/errors";
import { assertStorageFolder, assertStorageKey, missingObject } from "./keys";
import type { ByteRange, PdfStorage, StoredObject } from "./types";

/**
 * The default store: files under the data directory (`<dataDir>/pdfs/<sha256>.pdf`), with either database. A key is
 * a relative path in it; a path that would resolve outside it is refused (keys come from the database, but a bad row
 * must not read or delete another file).
 */
export function localPdfStorage(dataDir: string): PdfStorage {
  const root = path.resolve(dataDir);
  const resolve = (key: string): string => {
    assertStorageKey(key);
    return resolveStoredPath(root, key);
  };

  return {
    location: root,

    async put(key, bytes) {
      const full = resolve(key);
      await fs.mkdir(path.dirname(full), { recursive: true });
      // a temporary name beside it, then a rename (atomic within a directory): a crash leaves at most a `.tmp` file,
      // which the sweep removes once it is older than its grace period, never a truncated PDF under the final name
      const tmp = `${full}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await fs.writeFile(tmp, bytes);
        await fs.rename(tmp, full);
      } catch (e) {
        await fs.rm(tmp, { force: true }).catch(() => {});
        throw e;
      }
    },

    async head(key) {
      const stat = await fs.stat(resolve(key)).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT" || e.code === "ENOTDIR") return null;
        throw e;
      });
      return stat?.isFile() ? { key, size: stat.size, lastModified: stat.mtime } : null;
    },

    async read(key, opts = {}) {
      const full = resolve(key);
      // opened here, so a missing file is an error of this call rather than of the stream, mid-response
      const handle = await fs.open(full, "r").catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT" || e.code === "ENOTDIR" || e.code === "EISDIR") throw missingObject(key);
        throw e;
      });
      const stream = handle.createReadStream(rangeOptions(opts.range)); // closes the file when done or destroyed
      if (opts.signal) {
        if (opts.signal.aborted) stream.destroy();
        else opts.signal.addEventListener("abort", () => stream.destroy(), { once: true });
      }
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },

    async delete(key) {
      await fs.rm(resolve(key), { force: true });
    },

    async *list(folder) {
      assertStorageFolder(folder);
      const dir = resolveStoredPath(root, folder.slice(0, -1));
      const names = await fs.readdir(dir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return [] as string[];
        throw e;
      });
      for (const name of names) {
        const key = `${folder}${name.split(path.sep).join("/")}`;
        const stat = await fs.stat(path.join(dir, name)).catch(() => null); // gone meanwhile: skipped
        if (stat?.isFile()) yield { key, size: stat.size, lastModified: stat.mtime } satisfies StoredObject;
      }
    },
  };
}

/** Resolves a stored relative path inside the data directory; refuses anything that escapes it. */
export function resolveStoredPath(dataDir: string, relativePath: string): string {
  const root = path.resolve(dataDir);
  const full = path.resolve(root, relativePath);
  if (!full.startsWith(root + path.sep)) throw new LecternError("bad_request:file", "Invalid file path.");
  return full;
}

function rangeOptions(range: ByteRange | undefined): { start?: number; end?: number } {
  return range ? { start: range.start, end: range.end } : {};
}
