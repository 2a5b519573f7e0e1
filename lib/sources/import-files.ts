import fs from "node:fs";
import path from "node:path";
import { LecternError } from "@/lib/errors";
import type { IngestInput } from "@/lib/ingest/progress";
import type { PdfResolver } from "./import";

/** How far the export's folder is searched for PDFs (Zotero: `files/<n>/<name>.pdf`). */
const MAX_DEPTH = 6;
const MAX_FILES = 50_000;

function fileInput(full: string, name = full): IngestInput {
  const size = fs.statSync(full).size;
  return {
    name,
    size,
    read: async () => {
      const bytes = await fs.promises.readFile(full);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Every PDF under `dir`, by lower-cased file name (the first found wins). */
function indexPdfs(dir: string): Map<string, string> {
  const byName = new Map<string, string>();
  let seen = 0;
  const walk = (d: string, depth: number) => {
    if (depth > MAX_DEPTH || seen > MAX_FILES) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      seen++;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full, depth + 1);
      else if (e.isFile() && /\.pdf$/i.test(e.name) && !byName.has(e.name.toLowerCase())) {
        byName.set(e.name.toLowerCase(), full);
      }
    }
  };
  walk(dir, 0);
  return byName;
}

/**
 * PDFs of an export on this machine (the CLI): a `file` path as written (absolute, or relative to the export's
 * folder — Zotero writes `files/12/Name.pdf`), else a PDF of the same name anywhere in the export's folder (an
 * export made on another machine keeps its absolute paths).
 */
export function folderResolver(baseDir: string): PdfResolver {
  const byName = indexPdfs(baseDir);
  return {
    resolve(filePath) {
      const direct = path.isAbsolute(filePath) ? filePath : path.resolve(baseDir, filePath);
      if (/\.pdf$/i.test(direct) && isFile(direct)) return fileInput(direct);
      const found = byName.get(path.basename(filePath.replace(/\\/g, "/")).toLowerCase());
      return found ? fileInput(found) : null;
    },
    byKey(key) {
      const found = byName.get(`${key}.pdf`.toLowerCase());
      return found ? fileInput(found) : null;
    },
  };
}

/**
 * The bibliography to import from a path: a `.bib` or `.json` file, or a folder holding exactly one (a Zotero export
 * folder: `<name>.bib` beside `files/`).
 */
export function findBibliographyFile(target: string): { file: string; baseDir: string } {
  let st: fs.Stats;
  try {
    st = fs.statSync(target);
  } catch {
    throw new LecternError("not_found:file", `No such file or folder: ${target}`);
  }
  if (st.isFile()) return { file: target, baseDir: path.dirname(path.resolve(target)) };
  const candidates = fs
    .readdirSync(target)
    .filter((n) => /\.(bib|json)$/i.test(n))
    .sort();
  const bibs = candidates.filter((n) => /\.bib$/i.test(n));
  const pick = bibs.length === 1 ? bibs : candidates;
  if (pick.length !== 1) {
    throw new LecternError(
      "bad_request:source",
      pick.length === 0
        ? `No .bib or .json file in ${target}.`
        : `Several bibliographies in ${target} (${pick.join(", ")}): name the one to import.`,
    );
  }
  return { file: path.join(target, pick[0] as string), baseDir: path.resolve(target) };
}

/** Uploaded PDFs (the web import), matched by file name only: a path in the export never reaches the disk. */
export function uploadedResolver(files: { name: string; path: string; size: number }[]): PdfResolver {
  const byName = new Map<string, { name: string; path: string; size: number }>();
  for (const f of files) {
    const key = path.basename(f.name.replace(/\\/g, "/")).toLowerCase();
    if (!byName.has(key)) byName.set(key, f);
  }
  const input = (f: { name: string; path: string; size: number }): IngestInput => ({
    name: f.name,
    size: f.size,
    read: async () => {
      const bytes = await fs.promises.readFile(f.path);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  });
  return {
    resolve(filePath) {
      const f = byName.get(path.basename(filePath.replace(/\\/g, "/")).toLowerCase());
      return f ? input(f) : null;
    },
    byKey(key) {
      const f = byName.get(`${key}.pdf`.toLowerCase());
      return f ? input(f) : null;
    },
  };
}
