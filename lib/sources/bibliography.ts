import { LecternError } from "@/lib/errors";
import type { TrustedMetadata } from "@/lib/ingest/progress";
import { formatArxivRef, parseArxivRef } from "./arxiv-ids";
import type { RawBibtex } from "./bibtex-read.mjs";
import { MAX_BIBTEX_ENTRY_CHARS, type ReadBibtexOptions, readBibtexInThread } from "./bibtex-reader";

/**
 * A reference manager's export read into records: BibTeX/BibLaTeX (Zotero, Better BibTeX, JabRef, Mendeley — with
 * their `file = {…}` fields) through @retorquere/bibtex-parser, the parser of Better BibTeX for Zotero, and CSL JSON
 * (Zotero's "CSL JSON" export). Zotero RDF is not read. Every entry of the file becomes a record or a failure with a
 * reason: nothing is dropped silently.
 */

export interface BibRecord {
  /** The citation key (BibTeX) or item id (CSL JSON). */
  key: string;
  title: string | null;
  authors: string[];
  year: number | null;
  /** `YYYY-MM-DD` when the export gives a full date. */
  date: string | null;
  doi: string | null;
  /** Journal, proceedings or publisher. */
  venue: string | null;
  /** Keywords and tags. */
  tags: string[];
  /** `1706.03762` or `1706.03762v5` when the entry names an arXiv preprint. */
  arxivId: string | null;
  /** PDF paths as the export writes them (relative to the export's folder, or absolute). */
  files: string[];
}

export interface BibFailure {
  key: string;
  error: string;
}

export interface ParsedBibliography {
  format: "bibtex" | "csl-json";
  records: BibRecord[];
  failures: BibFailure[];
}

/** Largest bibliography file read (a library of tens of thousands of entries is a few MB). */
export const MAX_BIBLIOGRAPHY_BYTES = 20 * 1024 * 1024;
export const MAX_BIBLIOGRAPHY_ENTRIES = 10_000;

const tooManyEntries = () =>
  new LecternError("bad_request:source", `That bibliography has more than ${MAX_BIBLIOGRAPHY_ENTRIES} entries.`);

/**
 * Reads a `.bib` or CSL `.json` export (told apart by its content). BibTeX is parsed in a thread of its own, within a
 * time limit (bibtex-reader.ts); `opts` changes that thread's limits (tests) or stops it (`signal`).
 */
export async function parseBibliography(
  text: string,
  opts: Omit<ReadBibtexOptions, "maxEntries"> = {},
): Promise<ParsedBibliography> {
  if (text.length > MAX_BIBLIOGRAPHY_BYTES) {
    throw new LecternError("bad_request:source", "That bibliography is larger than 20 MB.");
  }
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  const parsed =
    trimmed.startsWith("[") || trimmed.startsWith("{") ? parseCslJson(trimmed) : await parseBibtex(trimmed, opts);
  if (parsed.records.length + parsed.failures.length > MAX_BIBLIOGRAPHY_ENTRIES) throw tooManyEntries();
  return parsed;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL = /[\u0000-\u001f\u007f]/g;

const oneLine = (s: unknown): string | null => {
  if (typeof s !== "string" && typeof s !== "number") return null;
  const t = String(s).normalize("NFC").replace(CONTROL, " ").replace(/\s+/g, " ").trim();
  return t || null;
};

function cleanDoi(s: unknown): string | null {
  const t = oneLine(s);
  if (!t) return null;
  const m = /(10\.\d{4,9}\/\S+)/.exec(t.replace(/^https?:\/\/(dx\.)?doi\.org\//i, ""));
  return m ? (m[1] as string) : null;
}

function yearOf(s: unknown): number | null {
  const m = /\b(1[6-9]\d{2}|2\d{3})\b/.exec(String(s ?? ""));
  return m ? Number(m[1]) : null;
}

function fullDate(s: unknown): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(s ?? "").trim());
  if (!m) return null;
  const d = `${m[1]}-${m[2]}-${m[3]}`;
  return !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d)
    ? d
    : null;
}

/** An arXiv id in any of the places exports put one. */
function arxivFrom(candidates: unknown[]): string | null {
  for (const c of candidates) {
    const t = oneLine(c);
    if (!t) continue;
    const direct = parseArxivRef(t);
    if (direct) return formatArxivRef(direct);
    // "arXiv preprint arXiv:1706.03762", "arXiv:1706.03762 [cs.CL]", a URL within a note
    for (const m of t.matchAll(
      /(?:arxiv[:.]\s*|arxiv\.org\/(?:abs|pdf)\/)([\w.-]+\/\d{7}(?:v\d+)?|\d{4}\.\d{4,5}(?:v\d+)?)/gi,
    )) {
      const ref = parseArxivRef(m[1] as string);
      if (ref) return formatArxivRef(ref);
    }
  }
  return null;
}

/** Tags as categories: one word each (`machine learning` → `machine-learning`), as the library's categories are. */
export function tagsAsCategories(tags: string[]): string[] {
  return [
    ...new Set(
      tags
        .map((t) =>
          t
            .trim()
            .replace(/\s+/g, "-")
            .replace(/[^\p{L}\p{N}._-]/gu, ""),
        )
        .filter((t) => t.length > 0 && t.length <= 40),
    ),
  ];
}

/** The metadata a record gives, trusted over the PDF's own (its unversioned arXiv id defers to the PDF's stamp). */
export function trustedMetadataOfRecord(r: BibRecord): TrustedMetadata {
  return {
    title: r.title ?? undefined,
    authors: r.authors,
    year: r.year ?? undefined,
    publishedDate: r.date ?? undefined,
    doi: r.doi ?? undefined,
    categories: tagsAsCategories(r.tags),
    arxivId: r.arxivId ?? undefined,
    venue: r.venue ?? undefined,
  };
}

// ---- BibTeX / BibLaTeX -----------------------------------------------------------------------------------------

interface Creator {
  name?: string;
  lastName?: string;
  firstName?: string;
  prefix?: string;
  suffix?: string;
}

function creatorName(c: Creator): string | null {
  if (c.name) return oneLine(c.name);
  return oneLine([c.firstName, c.prefix, c.lastName].filter(Boolean).join(" ") + (c.suffix ? `, ${c.suffix}` : ""));
}

/**
 * The PDFs of a `file` field. Zotero and JabRef write `description:path:mime` entries separated by `;` (with `\:`
 * and `\;` escaped), Better BibTeX and Mendeley often a bare path.
 */
export function filePaths(field: unknown): string[] {
  if (typeof field !== "string" || !field.trim()) return [];
  const unescapeTex = (s: string) => s.replace(/\\([:;\\])/g, "$1");
  const out: string[] = [];
  for (const part of field.split(/(?<!\\);/)) {
    const pieces = part.split(/(?<!\\):/);
    let file: string;
    let mime = "";
    if (pieces.length >= 3 && !/^[A-Za-z]$/.test(pieces[0] ?? "")) {
      mime = (pieces[pieces.length - 1] as string).trim().toLowerCase();
      file = pieces.slice(1, -1).join(":");
    } else {
      file = part;
    }
    file = unescapeTex(file.trim());
    if (!file) continue;
    if (mime === "application/pdf" || mime === "pdf" || /\.pdf$/i.test(file)) out.push(file);
  }
  return [...new Set(out)];
}

/** Reads BibTeX in its own thread (bibtex-reader.ts); a file of more than the entries allowed is not parsed. */
export async function parseBibtex(
  text: string,
  opts: Omit<ReadBibtexOptions, "maxEntries"> = {},
): Promise<ParsedBibliography> {
  const library = await readBibtexInThread(text, { ...opts, maxEntries: MAX_BIBLIOGRAPHY_ENTRIES });
  if (library.tooManyEntries !== undefined) throw tooManyEntries();
  return bibtexRecords(library, opts.maxEntryChars ?? MAX_BIBTEX_ENTRY_CHARS);
}

/** The records of a parsed .bib file, with a failure for each entry the parser could not read or did not take. */
export function bibtexRecords(library: RawBibtex, maxEntryChars: number): ParsedBibliography {
  const failures: BibFailure[] = library.errors.map((err) => ({
    key: /@\w+\s*\{\s*([^,\s]+)/.exec(err.input ?? "")?.[1] ?? "(unnamed entry)",
    error: `Could not be read: ${oneLine(err.error) ?? "syntax error"}`,
  }));
  for (const o of library.oversized) {
    failures.push({
      key: o.key,
      error: `Not read: the entry is ${Math.ceil(o.chars / 1024)} KB long, more than the ${Math.round(maxEntryChars / 1024)} KB allowed.`,
    });
  }
  const failed = new Set(failures.map((f) => f.key));
  const records: BibRecord[] = [];
  for (const entry of library.entries) {
    const f = entry.fields as Record<string, unknown>;
    if (Object.keys(f).length === 0 && failed.has(entry.key)) continue; // reported with its parse error
    const authors = ((f.author as Creator[] | undefined) ?? (f.editor as Creator[] | undefined) ?? [])
      .map(creatorName)
      .filter((a): a is string => Boolean(a));
    const eprintIsArxiv =
      /arxiv/i.test(String(f.archiveprefix ?? f.eprinttype ?? "")) || (!f.archiveprefix && !f.eprinttype);
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === "string" ? v.split(/[,;]/) : []);
    records.push({
      key: entry.key,
      title: oneLine(f.title),
      authors,
      year: yearOf(f.year) ?? yearOf(f.date),
      date: fullDate(f.date),
      doi: cleanDoi(f.doi),
      venue: oneLine(f.journal ?? f.journaltitle ?? f.booktitle ?? f.eventtitle ?? list(f.publisher)[0]),
      tags: [...list(f.keywords), ...list(f["mendeley-tags"])].map((t) => t.trim()).filter(Boolean),
      arxivId: arxivFrom([
        eprintIsArxiv ? f.eprint : null,
        f.arxivid,
        f.arxiv,
        f.doi,
        f.url,
        f.journal,
        f.note,
        f.howpublished,
      ]),
      files: filePaths(f.file),
    });
  }
  return { format: "bibtex", records, failures };
}

// ---- CSL JSON ----------------------------------------------------------------------------------------------------

interface CslName {
  family?: unknown;
  given?: unknown;
  literal?: unknown;
  "non-dropping-particle"?: unknown;
}

export function parseCslJson(text: string): ParsedBibliography {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new LecternError("bad_request:source", `The CSL JSON file could not be read: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const items = Array.isArray(data) ? data : data && typeof data === "object" && "items" in data ? data.items : null;
  if (!Array.isArray(items)) {
    throw new LecternError("bad_request:source", "That JSON file is not a CSL JSON export (a list of items).");
  }
  const records: BibRecord[] = [];
  const failures: BibFailure[] = [];
  items.forEach((raw: unknown, i: number) => {
    if (!raw || typeof raw !== "object") {
      failures.push({ key: `item ${i + 1}`, error: "Not an item (expected an object)." });
      return;
    }
    const it = raw as Record<string, unknown>;
    const key = oneLine(it.id) ?? oneLine(it["citation-key"]) ?? `item ${i + 1}`;
    const names = Array.isArray(it.author) ? (it.author as CslName[]) : [];
    const authors = names
      .map(
        (n) =>
          oneLine(n?.literal) ??
          oneLine([n?.given, n?.["non-dropping-particle"], n?.family].filter((x) => typeof x === "string").join(" ")),
      )
      .filter((a): a is string => Boolean(a));
    const issued = it.issued as { "date-parts"?: unknown; raw?: unknown } | undefined;
    const dateParts = issued?.["date-parts"];
    const parts = Array.isArray(dateParts) ? (dateParts as unknown[][])[0] : undefined;
    const [y, m, d] = Array.isArray(parts) ? parts.map((p) => Number(p)) : [];
    const year = y && Number.isInteger(y) ? y : yearOf(issued?.raw);
    const date =
      y && m && d
        ? fullDate(`${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`)
        : fullDate(issued?.raw);
    const keywords = typeof it.keyword === "string" ? it.keyword.split(/[,;]/) : [];
    records.push({
      key,
      title: oneLine(it.title),
      authors,
      year: year ?? null,
      date,
      doi: cleanDoi(it.DOI),
      venue: oneLine(it["container-title"] ?? it["collection-title"] ?? it.publisher),
      tags: keywords.map((k) => k.trim()).filter(Boolean),
      arxivId: arxivFrom([it.DOI, it.URL, it.number, it.note, it["container-title"]]),
      files: [],
    });
  });
  return { format: "csl-json", records, failures };
}
