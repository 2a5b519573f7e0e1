// BibTeX reading with @retorquere/bibtex-parser, in plain JavaScript so the same file runs as a worker thread's entry
// without a TypeScript loader (lib/sources/bibtex-reader.ts starts it; under `next start` the server's code is bundled
// and lib/*.ts do not exist at run time, while this file is read from disk). Types: bibtex-read.d.mts. The thread gets
// the file's text and posts back plain data: the entries' keys and fields, and the parse errors.

import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { parse } from "@retorquere/bibtex-parser";

/**
 * Where an entry starts: `@type{` or `@type(` at the beginning of a line (after spaces). Exports write every entry
 * so; an `@` elsewhere (an e-mail address, a line of an abstract) is no boundary. The pattern has no nested or
 * overlapping repetition, so finding every start is one pass over the text.
 */
const ENTRY_START = /^[ \t]*@[ \t]*([A-Za-z][\w-]*)[ \t\r\n]*[{(]/gm;

/** Directives that are no entry: they are neither counted nor capped (a JabRef `@comment` may be long). */
const DIRECTIVES = new Set(["comment", "string", "preamble"]);

const keyOf = (source) => /@[\w-]+\s*[{(]\s*([^,\s]+)/.exec(source)?.[1] ?? "(unnamed entry)";

/**
 * Splits a .bib file at its entries' starts, without parsing it, and takes out every entry longer than `maxEntryChars`
 * characters: the parser's time grows with an entry's text (≈45 ms per KB of `$x^{2}$ \emph{a}` in a title), so one
 * entry of a few hundred KB would hold the thread for seconds. Returns the text to parse (the file with those entries
 * taken out), the entries taken out, and how many entries the file has. An `@type{` at a line's start inside a field
 * splits that entry in two here; the text parsed is unchanged unless a part is over the limit, and an entry cut so is
 * reported by the parser.
 */
export function splitBibtex(text, maxEntryChars) {
  const starts = [];
  for (const m of text.matchAll(ENTRY_START)) starts.push({ at: m.index, type: (m[1] ?? "").toLowerCase() });
  if (starts.length === 0) return { text, oversized: [], entryCount: 0 };
  const kept = [text.slice(0, starts[0].at)];
  const oversized = [];
  let entryCount = 0;
  for (const [i, start] of starts.entries()) {
    const end = i + 1 < starts.length ? starts[i + 1].at : text.length;
    const isEntry = !DIRECTIVES.has(start.type);
    if (isEntry) entryCount++;
    if (end - start.at > maxEntryChars && start.type !== "comment") {
      oversized.push({ key: keyOf(text.slice(start.at, start.at + 1000)), chars: end - start.at });
      kept.push("\n");
    } else {
      kept.push(text.slice(start.at, end));
    }
  }
  return { text: kept.join(""), oversized, entryCount };
}

/**
 * Reads a .bib file's text: entries over `maxEntryChars` are set aside (splitBibtex), and a file of more than
 * `maxEntries` entries is not parsed at all (`tooManyEntries` says how many it has). Only plain data is returned:
 * it crosses a thread boundary.
 */
export function readBibtex(text, { maxEntryChars, maxEntries }) {
  const split = splitBibtex(text, maxEntryChars);
  if (split.entryCount > maxEntries)
    return { entries: [], errors: [], oversized: [], tooManyEntries: split.entryCount };
  const library = parse(split.text, { english: false, sentenceCase: false, unsupported: "ignore" });
  return {
    entries: library.entries.map((e) => ({ key: e.key, fields: e.fields })),
    // an error's input can be the rest of the file (an unclosed brace): its start names the entry
    errors: library.errors.map((e) => ({ error: String(e.error ?? ""), input: (e.input ?? "").slice(0, 1000) })),
    oversized: split.oversized,
  };
}

/** The role the reader gives its thread (bibtex-reader.ts); imported anywhere else, this file only exports. */
export const BIBTEX_READER_ROLE = "lectern-bibtex-reader";

if (!isMainThread && parentPort && workerData?.role === BIBTEX_READER_ROLE) {
  try {
    parentPort.postMessage({ ok: readBibtex(workerData.text, workerData.limits) });
  } catch (e) {
    parentPort.postMessage({
      error: { name: e instanceof Error ? e.name : "Error", message: e instanceof Error ? e.message : String(e) },
    });
  }
}
