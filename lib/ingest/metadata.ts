import type { PaperMetadata, PdfInfo } from "@/lib/ingest/types";
import type { TrustedMetadata } from "./progress";

/**
 * Bibliographic metadata from a paper's text: arXiv id, categories and date from the arXiv stamp (or the file name),
 * title and authors from the info dictionary when it is filled in, else from the first page's layout, the abstract,
 * the DOI. Works on cleaned pages (`cleanPages`); every heuristic prefers leaving a field empty to guessing garbage.
 */

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** Archives of old-style arXiv ids (`hep-th/9901001`). */
const OLD_ARCHIVES =
  "acc-phys|adap-org|alg-geom|ao-sci|astro-ph|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|comp-gas|cond-mat|cs|dg-ga|funct-an|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math|math-ph|mtrl-th|nlin|nucl-ex|nucl-th|patt-sol|physics|plasm-ph|q-alg|q-bio|quant-ph|solv-int|supr-con";

const NEW_ID = String.raw`\d{4}\.\d{4,5}`;
const OLD_ID = String.raw`(?:${OLD_ARCHIVES})(?:\.[A-Z]{2})?\/\d{7}`;

/** The stamp arXiv prints in the margin of page 1: `arXiv:1706.03762v5 [cs.CL] 6 Dec 2017`. */
const STAMP = new RegExp(
  String.raw`arXiv:\s*(${NEW_ID}|${OLD_ID})(v\d+)?\s*\[\s*([a-z-]+(?:\.[A-Za-z-]+)?)\s*\]\s*(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})`,
);

function validNewId(id: string): boolean {
  const m = /^(\d{2})(\d{2})\.(\d{4,5})$/.exec(id);
  if (!m) return false;
  const month = Number(m[2]);
  const yymm = Number(`${m[1]}${m[2]}`);
  if (month < 1 || month > 12 || yymm < 704) return false; // new-style ids began in April 2007
  return (m[3] as string).length === (yymm >= 1501 ? 5 : 4);
}

interface Stamp {
  id: string;
  version?: string;
  category: string;
  date: string;
}

export function findArxivStamp(text: string): Stamp | undefined {
  const m = STAMP.exec(text);
  if (!m) return undefined;
  const id = m[1] as string;
  if (/^\d/.test(id) && !validNewId(id)) return undefined;
  const month = MONTHS[(m[5] as string).toLowerCase()];
  const day = Number(m[4]);
  const year = Number(m[6]);
  const date =
    month && day >= 1 && day <= 31 ? `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}` : "";
  return { id, version: m[2], category: m[3] as string, date };
}

/** An arXiv id in a file name: `1706.03762.pdf`, `arXiv-1706.03762v2.pdf`, `hep-th_9901001v1.pdf`. */
export function arxivIdFromFileName(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const m = /(?:^|[^\d.])(\d{4}\.\d{4,5})(v\d+)?(?![\d])/.exec(base);
  if (m && validNewId(m[1] as string)) return `${m[1]}${m[2] ?? ""}`;
  const old = new RegExp(String.raw`(?:^|[^a-z])(${OLD_ARCHIVES})(?:\.([A-Z]{2}))?[_/-]?(\d{7})(v\d+)?(?!\d)`).exec(
    base,
  );
  if (old) return `${old[1]}${old[2] ? `.${old[2]}` : ""}/${old[3]}${old[4] ?? ""}`;
  return undefined;
}

/** Year of first submission encoded in an arXiv id (`1810.04805` → 2018, `hep-th/9901001` → 1999). */
function yearFromArxivId(id: string): number | undefined {
  const m = /^(\d{2})\d{2}\./.exec(id) ?? /\/(\d{2})\d{5}/.exec(id);
  if (!m) return undefined;
  const yy = Number(m[1]);
  return yy >= 91 ? 1900 + yy : 2000 + yy;
}

// ---------------------------------------------------------------------------------------------------------------
// Title

const FUNCTION_WORDS = new Set(
  "a an and as at by for from in into of on or over the to toward towards via with without is are can do does what how why when we our their its beyond through under using".split(
    " ",
  ),
);
const CONNECTOR_END =
  /(?:\b(?:a|an|and|as|at|by|for|from|in|into|of|on|or|the|to|toward|towards|via|with|without|through|using|beyond|over|under)|[:\-–—,])$/i;

/** A PDF info title that is clearly not the paper's title. */
function looksLikeRealTitle(t: string | undefined, fileName: string): t is string {
  if (!t) return false;
  const s = t.trim();
  if (s.length < 6 || s.length > 300) return false;
  if ((s.match(/\p{L}/gu)?.length ?? 0) < 5) return false;
  if (!/\s/.test(s)) return false; // a single token: a file or job name
  if (/^(microsoft (word|powerpoint)|untitled|title|document|paper|slide|layout|pii:|doi:|arxiv)/i.test(s))
    return false;
  if (/\.(docx?|pdf|tex|dvi|ps|rtf|odt|pages|indd)\b/i.test(s)) return false;
  if (/^[\w.-]+$/.test(s)) return false;
  const base = (fileName.split(/[\\/]/).pop() ?? fileName).replace(/\.pdf$/i, "");
  if (s.toLowerCase() === base.toLowerCase()) return false;
  return true;
}

/** Lines above the title that are not it: stamps, venue headers, dates, page numbers. */
function isFrontMatterNoise(line: string): boolean {
  const l = line.trim();
  if (l.length < 4) return true;
  if (/^\d+$/.test(l)) return true;
  if ((l.match(/\p{L}/gu)?.length ?? 0) < 4) return true;
  if (/arXiv:\s*\S+/i.test(l)) return true;
  if (
    /^(published|accepted|appeared|appearing|to appear|under review|preprint|draft|workshop|technical report|tech\.? report|proceedings|findings of|in proceedings|journal of|transactions on|volume \d|vol\.|copyright|research article|original article|letter|review article|article)\b/i.test(
      l,
    )
  )
    return true;
  if (/(©|c©|\(c\)\s*\d{4}|all rights reserved|licen[cs]e)/i.test(l)) return true;
  if (/\b(conference|symposium|proceedings|workshop)\b.*\b(19|20)\d{2}\b/i.test(l) && l.length < 140) return true;
  if (/^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(\s*[-–]\s*\d{1,2})?,?\s+\d{4}/i.test(l))
    return true;
  if (/^\d{1,2}\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}$/i.test(l)) return true;
  if (/^\(?version \d+\)?$/i.test(l)) return true;
  if (/https?:\/\/|www\.|@/.test(l)) return true;
  return false;
}

const AUTHOR_MARKERS = /[∗*†‡§¶♠♣♦♥⋆★✝✉]|\p{L}\d|\d,\d/u;
const AFFILIATION =
  /(\b(universit|institut|laborator|technolog|departm|polytechn)|\b(college|school|dept|lab|labs|research|google|microsoft|facebook|meta|openai|deepmind|anthropic|amazon|ibm|nvidia|baidu|alibaba|tencent|bytedance|huawei|inc|corp|corporation|ltd|gmbh|center|centre|foundation|academy|faculty|hospital|team|group|brain|company|usa|china|germany|france|japan|korea|canada|italy|india|uk)\b)/i;

/** Letters-only tokens of a line (markers, digits and punctuation dropped). */
function nameTokens(line: string): string[] {
  return line
    .replace(/[∗*†‡§¶♠♣♦♥⋆★✝✉?]/gu, " ")
    .replace(/\d+/g, " ")
    .split(/[\s,;]+/)
    .map((t) => t.replace(/^[^\p{L}]+|[^\p{L}.'’-]+$/gu, ""))
    .filter((t) => /\p{L}/u.test(t));
}

/**
 * A line of person names: every token capitalised (or an initial, or a particle such as "de", "van"), no function
 * words except "and", and most tokens unknown to the document's lower-case vocabulary (names are not words).
 */
function isNameLine(line: string, lowerWords: Set<string>): boolean {
  const tokens = nameTokens(line).filter((t) => t.toLowerCase() !== "and");
  if (tokens.length < 2) return false;
  const particles = /^(de|da|del|della|der|di|du|la|le|van|von|den|ter|bin|al|dos|das|y)$/;
  let wordy = 0;
  for (const t of tokens) {
    if (particles.test(t)) continue;
    if (!/^\p{Lu}/u.test(t)) return false;
    if (FUNCTION_WORDS.has(t.toLowerCase())) return false;
    if (/^\p{Lu}\.?$/u.test(t)) continue; // initial
    if (lowerWords.has(t.toLowerCase())) wordy++;
  }
  return wordy * 3 <= tokens.length;
}

function isAuthorLine(line: string, lowerWords: Set<string>): boolean {
  if (/@|https?:\/\//.test(line)) return true;
  if (/^[,;]/.test(line.trim())) return true; // a wrapped author list
  if (AUTHOR_MARKERS.test(line) && !/[:?]/.test(line)) {
    // markers alone are not enough for lines like "GPT-3 175B"; require name-like text
    const tokens = nameTokens(line);
    if (tokens.length >= 1 && tokens.every((t) => /^\p{Lu}/u.test(t) || /^(and|de|van|von|der|di|da|le|la)$/.test(t)))
      return true;
  }
  return isNameLine(line, lowerWords);
}

function isAllCaps(line: string): boolean {
  const letters = line.replace(/[^\p{L}]/gu, "");
  return letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/** Does `next` continue the title whose last line so far is `prev`? */
function continuesTitle(prev: string, next: string, lowerWords: Set<string>, titleLength: number): boolean {
  if (titleLength + next.length > 250) return false;
  if (/^abstract\b/i.test(next) || isFrontMatterNoise(next)) return false;
  if (AUTHOR_MARKERS.test(next) || /@|\{|https?:/.test(next) || /^[,;]/.test(next)) return false;
  if (AFFILIATION.test(next) && !isAllCaps(next)) return false;
  const firstWord = (next.split(/\s+/)[0] ?? "").toLowerCase();
  if (CONNECTOR_END.test(prev) || /^\p{Ll}/u.test(next) || FUNCTION_WORDS.has(firstWord)) return true;
  if (isAllCaps(prev) && isAllCaps(next)) return true;
  if (isNameLine(next, lowerWords)) return false;
  if (prev.length >= 40) return true; // a long first line wrapped
  return nameTokens(next).some((t) => FUNCTION_WORDS.has(t.toLowerCase()));
}

/** Words a title keeps lower-case (articles, conjunctions, short prepositions). */
const TITLE_LOWER = new Set(
  "a an the and or but nor for of on in at to by via with from as vs into over per".split(" "),
);

/** An all-caps title in the casing the paper uses elsewhere ("LORA" → "LoRA"), else title case. */
function recaseTitle(title: string, casing: Map<string, string>): string {
  if (!isAllCaps(title)) return title;
  let first = true;
  return title.replace(/[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*/gu, (word) => {
    const lower = word.toLowerCase();
    const seen = casing.get(lower);
    const isFirst = first;
    first = false;
    if (seen && seen !== lower && seen !== `${lower[0]?.toUpperCase()}${lower.slice(1)}`) return seen; // LoRA, RAPTOR
    if (!isFirst && TITLE_LOWER.has(lower)) return lower;
    return `${word[0]}${lower.slice(1)}`;
  });
}

/** For each lower-cased word, its most frequent spelling in the text. */
function wordCasing(text: string): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  // all-caps lines (headings, running titles) say nothing about a word's normal spelling
  const prose = text
    .split("\n")
    .filter((l) => !isAllCaps(l))
    .join("\n");
  for (const m of prose.matchAll(/[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*/gu)) {
    const w = m[0];
    if (w === w.toUpperCase() && w.length > 1 && w.length < 3) continue;
    const lower = w.toLowerCase();
    const byForm = counts.get(lower) ?? new Map<string, number>();
    counts.set(lower, byForm);
    byForm.set(w, (byForm.get(w) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const [lower, forms] of counts) {
    let best = lower;
    let bestCount = 0;
    for (const [form, c] of forms) {
      // a capitalised form is usually sentence-initial; prefer any other form seen as often
      const weight = form === `${lower[0]?.toUpperCase()}${lower.slice(1)}` ? c * 0.5 : c;
      if (weight > bestCount) {
        best = form;
        bestCount = weight;
      }
    }
    out.set(lower, best);
  }
  return out;
}

interface TitleBlock {
  title: string;
  /** Index of the line after the title. */
  next: number;
}

function titleFromFirstPage(lines: string[], lowerWords: Set<string>): TitleBlock | undefined {
  const limit = Math.min(lines.length, 20);
  for (let i = 0; i < limit; i++) {
    const line = lines[i] as string;
    if (/^abstract\b/i.test(line)) return undefined;
    if (isFrontMatterNoise(line)) continue;
    if (AUTHOR_MARKERS.test(line) && isAuthorLine(line, lowerWords)) return undefined;
    const words = line.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w));
    if (words.length < 2 && line.length < 12) continue;
    const parts = [line];
    let j = i + 1;
    while (j < lines.length && parts.length < 4) {
      const next = lines[j] as string;
      if (!continuesTitle(parts[parts.length - 1] as string, next, lowerWords, parts.join(" ").length)) break;
      // a collective author ("DeepSeek-AI") over a contact address ends the title, however long its last line
      if (groupAuthor(lines, j)) break;
      parts.push(next);
      j++;
    }
    return { title: parts.join(" ").replace(/\s+/g, " ").trim(), next: j };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Authors

const MAX_AUTHORS = 64;

function splitInfoAuthors(author: string): string[] {
  if (/^(author|user|admin|administrator|owner|unknown|anonymous|microsoft office user)$/i.test(author.trim()))
    return [];
  if (/@|\\|https?:/.test(author)) return [];
  const parts = author.includes(";") ? author.split(";") : author.split(/,|\band\b|&/);
  const names = parts.map((p) => p.replace(/\s+/g, " ").trim()).filter((p) => /\p{L}/u.test(p));
  // "Lastname, Firstname" pairs or user names would come out as single tokens: not trustworthy
  if (names.length === 0 || names.some((n) => !n.includes(" ") && names.length > 1)) {
    return names.length === 1 && names[0]?.includes(" ") ? names : [];
  }
  if (names.length === 1 && !names[0]?.includes(" ")) return [];
  return names.slice(0, MAX_AUTHORS);
}

function isInitial(t: string): boolean {
  return /^\p{Lu}\.?$/u.test(t) || /^\p{Lu}\.\p{Lu}\.?$/u.test(t);
}

/** Names from one author line: split on markers, commas, "and"; runs of bare names paired (first [initial] last). */
function namesFromLine(line: string): string[] {
  const segments = line
    .replace(/\([^)]*\)/g, " ")
    .split(/\s*(?:[∗*†‡§¶♠♣♦♥⋆★✝✉?]+|\d+(?:,\d+)*|,|;|\band\b|&)\s*/u)
    .map((s) => s.trim())
    .filter(Boolean);
  const names: string[] = [];
  for (const seg of segments) {
    const tokens = seg.split(/\s+/).filter((t) => /\p{L}/u.test(t));
    if (tokens.length === 0) continue;
    if (tokens.length <= 3) {
      names.push(tokens.join(" "));
      continue;
    }
    // several names without separators: "Kaiming He Xiangyu Zhang", "Ed H. Chi Quoc V Le"
    let k = 0;
    const group: string[] = [];
    while (k < tokens.length) {
      const name = [tokens[k] as string];
      k++;
      while (k < tokens.length && isInitial(tokens[k] as string)) name.push(tokens[k++] as string);
      if (k < tokens.length) name.push(tokens[k++] as string);
      group.push(name.join(" "));
    }
    // an odd leftover single token belongs to the previous name ("William Yang Wang")
    const last = group[group.length - 1];
    if (group.length > 1 && last && !last.includes(" ")) {
      group.pop();
      group[group.length - 1] = `${group[group.length - 1]} ${last}`;
    }
    names.push(...group);
  }
  return names
    .map((n) =>
      n
        .split(/\s+/)
        .filter((t) => !/^\p{Ll}$/u.test(t)) // stray marker letters ("Haofen Wang a")
        .join(" ")
        .replace(/^[^\p{L}]+|[^\p{L}.]+$/gu, "")
        .trim(),
    )
    .filter((n) => n.length >= 3 && /\p{L}{2}/u.test(n) && n.split(/\s+/).length <= 5);
}

function authorsFromFirstPage(lines: string[], from: number, lowerWords: Set<string>): string[] {
  const names: string[] = [];
  // Some fonts turn footnote symbols into letters: "Tri Daoy" with "yDepartment of …" (y = †). Collect such letters.
  const markerLetters = new Set<string>();
  let carry = "";
  const end = Math.min(lines.length, from + 40);
  for (let i = from; i < end; i++) {
    const line = lines[i] as string;
    if (/^abstract\b/i.test(line) || /^\d+\.?\s+introduction\b/i.test(line)) break;
    const marker = /^([a-z])\p{Lu}\p{Ll}{2,}/u.exec(line);
    if (marker && AFFILIATION.test(line)) markerLetters.add(marker[1] as string);
    if (/@|https?:\/\/|www\./.test(line)) continue;
    if (AFFILIATION.test(line)) continue;
    if (/^[∗*†‡§¶\d]/u.test(line) && !isNameLine(line, lowerWords)) continue; // footnotes, numbered affiliations
    const text = line.replace(/^[,;]\s*/, "");
    if (!isAuthorLine(text, lowerWords)) continue;
    const found = namesFromLine(`${carry} ${text}`.trim());
    carry = "";
    // a line ending in a bare first name continues on the next line ("…, Meng" / "Wangc, and …")
    const last = found[found.length - 1];
    if (last && !last.includes(" ") && /\p{L}$/u.test(text)) carry = found.pop() as string;
    for (const n of found) {
      if (AFFILIATION.test(n)) continue;
      if (!names.includes(n)) names.push(n);
    }
    if (names.length >= MAX_AUTHORS) break;
  }
  // a single-word "name" is usually an organisation (DeepSeek-AI) or a fragment: only keep multi-word names (a
  // collective author is taken below when no person is named)
  let out = names.filter((n) => n.includes(" "));
  if (markerLetters.size > 0) {
    const ends = (n: string) => markerLetters.has(n.slice(-1)) && /\p{L}{3}$/u.test(n);
    if (out.filter(ends).length >= 0.8 * out.length) out = out.map((n) => (ends(n) ? n.slice(0, -1) : n));
  }
  if (out.length === 0) {
    const group = groupAuthor(lines, from);
    if (group) out = [group];
  }
  return out.slice(0, MAX_AUTHORS);
}

/**
 * A collective author ("DeepSeek-AI", "Gemini Team, Google"): when no person is named, the line right under the title,
 * if it is short, has no sentence in it and is followed by a contact address (an e-mail or a URL). Anything else (a
 * subtitle, a venue, a first sentence) is not taken: no author beats a wrong one.
 */
function groupAuthor(lines: string[], from: number): string | undefined {
  const line = lines[from];
  if (!line || /^abstract\b/i.test(line) || /@|https?:\/\//.test(line)) return undefined;
  const tokens = line.split(/\s+/);
  if (tokens.length > 4 || line.length > 40 || /[.:;!?]$/.test(line) || !/^\p{Lu}/u.test(line)) return undefined;
  if (!/@|https?:\/\//.test(lines[from + 1] ?? "")) return undefined;
  return line.replace(/[∗*†‡§¶\d]+$/u, "").trim() || undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Abstract, DOI

const SECTION_HEADING =
  /^(?:(?:\d+|[IVX]+)\.?\s+)?(?:introduction|keywords?|index terms|ccs concepts|background|related work|acm reference format)\b/i;

function abstractFrom(lines: string[]): string | undefined {
  const at = lines.findIndex((l) => /^(abstract|a b s t r a c t)\b/i.test(l));
  if (at < 0) return undefined;
  const first = (lines[at] as string).replace(/^(abstract|a b s t r a c t)\s*[.:—–-]?\s*/i, "");
  const parts: string[] = first ? [first] : [];
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (SECTION_HEADING.test(line)) break;
    if (/^\d+(\.\d+)*\.?\s+\p{Lu}[\p{L}\s-]{2,50}$/u.test(line) && line.length < 60) break; // "1 Extended Introduction"
    if (/^[∗*†‡]/u.test(line) || /^\d+https?:/.test(line) || /arXiv:\s*\d/.test(line)) break; // footnotes, stamp
    if (/^(figure|fig\.|table)\s*\d/i.test(line)) break;
    // figure text: three short lines in a row, none of them a heading or a sentence end
    const run = [line, lines[i + 1] ?? "", lines[i + 2] ?? ""];
    if (parts.length > 0 && run.every((l) => l.length < 30 && !SECTION_HEADING.test(l) && !/[.!?]\s?\d?$/.test(l)))
      break;
    parts.push(line);
    if (parts.join(" ").length > 4000) break;
  }
  // a footnote mark after the last sentence ("benchmarks.1", "reasoning. 1") is not part of the abstract
  const text = parts
    .join(" ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/([.!?])\s?\d{1,2}$/, "$1");
  return text.length >= 50 ? text : undefined;
}

function doiFrom(text: string): string | undefined {
  const m = /\b(10\.\d{4,9}\/[^\s"<>]+)/.exec(text);
  if (!m) return undefined;
  const doi = (m[1] as string).replace(/[.,;:)\]]+$/, "");
  // a suffix this short is a DOI cut by extraction ("10.1162/tacl a 00660" printed with spaced underscores)
  return (doi.split("/")[1]?.length ?? 0) >= 6 ? doi : undefined;
}

// ---------------------------------------------------------------------------------------------------------------

export function extractMetadata(input: { pages: string[]; info: PdfInfo; fileName: string }): PaperMetadata {
  const first = input.pages[0] ?? "";
  const lines = first
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const body = input.pages.slice(0, 8).join("\n");
  const lowerWords = new Set<string>();
  // e-mail user names ("{alon_albalak, xinyi_wang}@ucsb.edu") are names, not words
  const prose = body.replace(/\{[^}]*\}\s*@\S+|\S+@\S+|https?:\/\/\S+/g, " ");
  for (const m of prose.matchAll(/(?<![\p{L}\p{N}])\p{Ll}[\p{Ll}'’-]*/gu)) lowerWords.add(m[0]);

  const stamp = findArxivStamp(first);
  const arxivId = stamp ? `${stamp.id}${stamp.version ?? ""}` : arxivIdFromFileName(input.fileName);

  const block = titleFromFirstPage(lines, lowerWords);
  let title: string;
  if (looksLikeRealTitle(input.info.title, input.fileName)) title = input.info.title.trim();
  else if (block)
    title = recaseTitle(block.title, wordCasing(input.pages.slice(0, 8).join("\n").replace(block.title, "")));
  else title = fallbackTitle(input.fileName);

  const infoAuthors = input.info.author ? splitInfoAuthors(input.info.author) : [];
  const authors =
    infoAuthors.length > 0 ? infoAuthors : block ? authorsFromFirstPage(lines, block.next, lowerWords) : [];

  const meta: PaperMetadata = { title, authors, categories: stamp ? [stamp.category] : [] };
  if (arxivId) meta.arxivId = arxivId;
  const abstract = abstractFrom(lines);
  if (abstract) meta.abstract = abstract;
  if (stamp?.date) meta.publishedDate = stamp.date;
  // the year of first submission (what citations use) when the id encodes it; else the stamp's, else the PDF's
  const year =
    (arxivId ? yearFromArxivId(arxivId) : undefined) ??
    (stamp?.date ? Number(stamp.date.slice(0, 4)) : undefined) ??
    input.info.creationDate?.getUTCFullYear();
  if (year) meta.year = year;
  const doi = doiFrom(first);
  if (doi) meta.doi = doi;
  return meta;
}

function fallbackTitle(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? fileName).replace(/\.pdf$/i, "");
  return base.replace(/[_]+/g, " ").replace(/\s+/g, " ").trim() || "Untitled";
}

/** Lower-case ASCII words joined by hyphens, at most `max` characters, cut at a word boundary. */
export function slugify(text: string, max = 60): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const at = cut.lastIndexOf("-");
  return (at > max / 2 ? cut.slice(0, at) : slug.slice(0, max)).replace(/-+$/, "");
}

/**
 * The paper's id: its arXiv id with version when known, else a slug of the title, else of the file name. Old-style
 * ids keep their archive but not the slash (`hep-th/9901001v1` → `hep-th_9901001v1`) so ids are safe in URLs and paths.
 */
export function paperIdFor(meta: PaperMetadata, fileName: string): string {
  if (meta.arxivId) return meta.arxivId.replace("/", "_");
  const fromTitle = slugify(meta.title);
  if (fromTitle) return fromTitle;
  const base = (fileName.split(/[\\/]/).pop() ?? fileName).replace(/\.pdf$/i, "");
  return slugify(base) || "paper";
}

// ---------------------------------------------------------------------------------------------------------------
// Metadata from a trusted source

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** One line of text from outside: control characters dropped, whitespace collapsed, capped; blank → undefined. */
function cleanField(s: string | undefined, max: number): string | undefined {
  if (typeof s !== "string") return undefined;
  const t = s.replace(CONTROL_CHARS, " ").replace(/\s+/g, " ").trim();
  return t ? t.slice(0, max) : undefined;
}

/**
 * The PDF's metadata with a trusted source's fields (the arXiv API, a reference manager's export) in place of what the
 * heuristics guessed. Only fields the source gives (non-blank) replace; their text is cleaned and capped, as a user's
 * correction would be. The year follows the source when it gives one (else its date, else its arXiv id).
 */
export function applyTrustedMetadata(meta: PaperMetadata, trusted: TrustedMetadata | undefined): PaperMetadata {
  if (!trusted) return meta;
  const out: PaperMetadata = { ...meta };
  const title = cleanField(trusted.title, 500);
  if (title) out.title = title;
  const authors = [
    ...new Set((trusted.authors ?? []).map((a) => cleanField(a, 200)).filter((a): a is string => Boolean(a))),
  ];
  if (authors.length > 0) out.authors = authors.slice(0, 500);
  const abstract = cleanField(trusted.abstract, 20_000);
  if (abstract) out.abstract = abstract;
  const categories = [
    ...new Set((trusted.categories ?? []).map((c) => cleanField(c, 40)).filter((c): c is string => Boolean(c))),
  ];
  if (categories.length > 0) out.categories = categories.slice(0, 50);
  const doi = cleanField(trusted.doi, 200);
  if (doi) out.doi = doi;
  const venue = cleanField(trusted.venue, 500);
  if (venue) out.venue = venue;
  const arxivId = cleanField(trusted.arxivId, 60);
  // an id without version defers to the PDF's stamp of the same paper, which names its version
  const sameWithVersion = arxivId && meta.arxivId?.replace(/v\d+$/, "") === arxivId && meta.arxivId !== arxivId;
  if (arxivId && /^[\w./-]+$/.test(arxivId) && !sameWithVersion) out.arxivId = arxivId;
  const date = cleanField(trusted.publishedDate, 10);
  const validDate =
    date && /^\d{4}-\d{2}-\d{2}$/.test(date) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date)
      ? date
      : undefined;
  if (validDate) out.publishedDate = validDate;
  const year =
    (Number.isInteger(trusted.year) && (trusted.year as number) >= 1600 && (trusted.year as number) <= 3000
      ? trusted.year
      : undefined) ??
    (validDate ? Number(validDate.slice(0, 4)) : undefined) ??
    (arxivId && arxivId === out.arxivId ? yearFromArxivId(arxivId) : undefined);
  if (year) out.year = year;
  return out;
}
