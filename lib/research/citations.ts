import { generateText, type LanguageModel } from "ai";
import { z } from "zod";
import { type SentenceSpan, splitSentences } from "@/lib/ingest/chunk";
import { NUMBERED_HEADING, NUMBERED_HEADING_START } from "@/lib/text/footnotes";
import { tokenize } from "@/lib/text/terms";
import { BRACKET, type CitationMarker, parseCitations, sameId } from "./citation-format";
import { parseModelJson } from "./json";
import type { Citation } from "./types";

export { type CitationMarker, malformedCitations, parseCitations, sameId } from "./citation-format";

/** A retrieved passage an answer may cite. */
export interface EvidencePassage {
  chunkUid: string;
  paperId: string;
  title: string;
  page: number;
  /** Offsets of the passage on its page. */
  charStart: number;
  charEnd: number;
  text: string;
  /** The passage starts inside a footnote of its page: its first this many characters are the footnote's
   *  (lib/text/footnotes.ts). */
  footnoteChars?: number;
  /** The numbers of its page's numbered footnotes ("4" for "4To illustrate …"), whose markers in the body a quote
   *  leaves out (lib/text/footnotes.ts). */
  footnoteNumbers?: string[];
  /** Words its page runs a footnote number into, once ("code15": `{ word: "code", number: "15" }`), whose numbers a
   *  quote leaves out (lib/text/footnotes.ts). */
  footnoteGlued?: { word: string; number: string }[];
  /** Its retrieval rank when it is not its place in the evidence: a passage of a top passage's page ranks with that
   *  passage (lib/research/page-context.ts). */
  rank?: number;
  /** Not retrieved: another passage of a top passage's page, there for the offline answer to quote from. */
  pageContext?: boolean;
}

/** A citation marker closing a sentence and a capital opening the next: "… the rank r. [A, page 6] Prefix tuning …". */
const AFTER_MARKER = /(?<=\[[^[\]\n]{3,400}\])\s+(?=["“(]?\p{Lu})/gu;

/**
 * An answer line's sentences: the splitter's, and within one, a break after a citation marker that a capital follows —
 * the splitter cannot end a sentence on a one-letter word ("… divided by the rank r. [A, page 6] Prefix tuning …"), which
 * a quote may end with.
 */
export function claimSpans(line: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  for (const s of splitSentences(line)) {
    const whole = line.slice(s.start, s.end);
    let from = 0;
    for (const m of whole.matchAll(AFTER_MARKER)) {
      const at = m.index ?? 0;
      if (parseCitations(whole.slice(whole.lastIndexOf("[", at), at)).length === 0) continue;
      out.push({ text: whole.slice(from, at).replace(/\s+/g, " "), start: s.start + from, end: s.start + at });
      from = at + m[0].length;
    }
    out.push({ text: whole.slice(from).replace(/\s+/g, " "), start: s.start + from, end: s.end });
  }
  return out;
}

/** The answer's sentences with the citations each carries (a citation in a list item belongs to that item). */
export function citedClaims(
  markdown: string,
): { claim: string; citations: CitationMarker[]; heading: string | null; line: number }[] {
  const out: { claim: string; citations: CitationMarker[]; heading: string | null; line: number }[] = [];
  let heading: string | null = null;
  for (const [lineNo, rawLine] of markdown.split("\n").entries()) {
    const line = rawLine.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").replace(/^>\s?/, "");
    const h = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (h) heading = (h[1] as string).trim();
    if (h || line.trim() === "") continue;
    for (const s of claimSpans(line)) {
      // citations that open a span follow the previous sentence's full stop: "… tuning. [A, page 2] Next …"
      const lead = /^(?:\s*\[[^[\]\n]{3,400}\])+/.exec(s.text)?.[0] ?? "";
      const leading = lead ? parseCitations(lead) : [];
      const prevClaim = out[out.length - 1];
      if (leading.length > 0 && prevClaim) {
        prevClaim.citations.push(...leading);
        s.text = s.text.slice(lead.length);
      }
      const citations = parseCitations(s.text);
      const claim = claimOf(s.text);
      if (claim.length === 0) {
        // a citation standing after its sentence's full stop belongs to the sentence before
        const prev = out[out.length - 1];
        if (prev && citations.length > 0) prev.citations.push(...citations);
        continue;
      }
      out.push({ claim, citations, heading, line: lineNo });
    }
  }
  return out;
}

/**
 * A sentence as a claim: its citation markers removed, markdown's backslash escapes undone (the answer escapes the
 * paper's "[3]" as "\[3\]"; the claim is what a reader sees), spacing normalised.
 */
export function claimOf(sentence: string): string {
  // (a run of spaces before punctuation is matched from its start only: from each of its spaces it would be rescanned)
  return sentence
    .replace(BRACKET, (b) => (parseCitations(b).length > 0 ? "" : b))
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/(?<!\s)\s+([.,;:!?])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The answer without the claims `drop` picks (as `citedClaims` reads them: a claim's citations standing after its
 * full stop go with it). List items and paragraphs left empty are removed, and so are headings left without content.
 */
export function dropClaims(markdown: string, drop: (claim: string) => boolean): string {
  const lines: string[] = [];
  for (const rawLine of markdown.split("\n")) {
    const prefix = /^\s*(?:(?:[-*+]|\d+\.)\s+|>\s?)?/.exec(rawLine)?.[0] ?? "";
    const body = rawLine.slice(prefix.length);
    // a table row goes whole when a claim in it goes (cutting a cell would break the table)
    if (/^\s*\|/.test(rawLine)) {
      const claims = claimSpans(body).map((s) => claimOf(body.slice(s.start, s.end)));
      if (!claims.some((c) => c.length > 0 && drop(c))) lines.push(rawLine);
      continue;
    }
    if (/^\s*#/.test(body) || body.trim() === "") {
      lines.push(rawLine);
      continue;
    }
    let out = "";
    let dropping = false;
    for (const s of claimSpans(body)) {
      const piece = body.slice(s.start, s.end);
      const lead = /^(?:\s*\[[^[\]\n]{3,400}\])+/.exec(piece)?.[0] ?? "";
      const rest = piece.slice(lead.length);
      // citations opening this span belong to the sentence before: they go where it went
      if (lead && parseCitations(lead).length > 0 && !dropping) out += `${out ? " " : ""}${lead.trim()}`;
      const claim = claimOf(rest);
      if (claim.length === 0) continue;
      dropping = drop(claim);
      if (!dropping) out += `${out ? " " : ""}${rest.trim()}`;
    }
    if (claimOf(out).length > 0) lines.push(`${prefix}${out}`);
  }
  return pruneEmptySections(lines.join("\n").replace(/\n{3,}/g, "\n\n"));
}

/** Removes headings with nothing under them before the next heading of the same or a higher level. */
function pruneEmptySections(markdown: string): string {
  const lines = markdown.split("\n");
  const keep = lines.map(() => true);
  for (let i = lines.length - 1; i >= 0; i--) {
    const h = /^(#{1,6})\s/.exec(lines[i] as string);
    if (!h) continue;
    const level = (h[1] as string).length;
    let content = false;
    for (let j = i + 1; j < lines.length; j++) {
      if (!keep[j]) continue;
      const next = /^(#{1,6})\s/.exec(lines[j] as string);
      if (next && (next[1] as string).length <= level) break;
      if ((lines[j] as string).trim() !== "") {
        content = true;
        break;
      }
    }
    if (!content) keep[i] = false;
  }
  return lines
    .filter((_, i) => keep[i])
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Content-word stems (the same tokenizer as the offline embedder). */
function stems(text: string): Set<string> {
  return new Set(tokenize(text));
}

/** Share of the claim's content words found in the text. */
export function lexicalSupport(claim: string, text: string): number {
  return supportIn(stems(claim), textStems(text));
}

/** The value kept for `key`, made and kept on the first ask (the cache emptied when it holds 256). */
function remembered<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= 256) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** A text's stems, kept for the texts asked about again (a passage is checked once per citation of its page). */
const stemCache = new Map<string, Set<string>>();
function textStems(text: string): Set<string> {
  return text.length < 200 ? stems(text) : remembered(stemCache, text, () => stems(text));
}

function supportIn(claim: Set<string>, text: Set<string>): number {
  if (claim.size === 0) return 0;
  let hit = 0;
  for (const w of claim) if (text.has(w)) hit++;
  return hit / claim.size;
}

/** A claim is supported offline when this share of its content words is in the cited passage. */
export const LEXICAL_SUPPORT_THRESHOLD = 0.6;

/** A numbered section heading on a line of its own ("5 Training", "B.1 Memory-efficient forward pass"). */
const HEADING_LINE = new RegExp(String.raw`${NUMBERED_HEADING_START}[^\n]{1,80}\n`);

/** The line break before a numbered section heading's own line, after a sentence's end ("… √dk\n.\n3.2.2 Multi-Head
 *  Attention\n"). */
const INNER_HEADING = new RegExp(String.raw`\n(?<=[.!?]["”’)]?[ \t]*\n)(?=${NUMBERED_HEADING}\S[^\n]{0,79}\n)`);

/** The abstract's own heading ("Abstract", "ABSTRACT:" on a line of its own, or "Abstract—", "Abstract:" opening the
 *  abstract's first line), unnumbered and followed by a capital: it ends the title page's header (title, authors,
 *  affiliations and their † ‡ marks), which the splitter runs into the abstract's first sentence. ("…the\nAbstract\nand
 *  …", the word inside a sentence broken across lines, and "Abstract-Syntax Trees" opening a line are no headings.) */
const ABSTRACT_HEAD = String.raw`[ \t]*(?:Abstract|ABSTRACT)(?:[ \t]*(?:[.:—–-][ \t]*)?\n|[ \t]*(?:[.:—–]|-(?=[ \t]))[ \t]*)(?=[ \t]*\p{Lu})`;
const ABSTRACT_LINE = new RegExp(`^${ABSTRACT_HEAD}`, "u");
const ABSTRACT_BREAK = new RegExp(`\\n(?=${ABSTRACT_HEAD})`, "u");

/** Words that open a sentence, after which a run-in heading ends ("… Comparisons We first present …"). */
const SENTENCE_OPENER =
  "In|We|To|The|This|These|Our|For|As|Given|Here|Unlike|While|When|Since|Because|Following|Using|After|Each|It|There|They|Such|Most|Many|However|Finally|Specifically|Although|Existing|Previous|Prior|Recent";

/**
 * A paragraph's run-in heading without a colon, at the start of a sentence: an optional section letter or number
 * ("A. ", "C ", "S5.3 ", "IV. "), a capitalised word that does not itself open sentences, then up to seven more words
 * — capitalised, in lower case (a heading in sentence case: "Word sense disambiguation", "Index hot-swapping"), or
 * "&", "vs." (commas between them: "Conclusion, Limitation, and Future Work") — and then a sentence: a word that opens
 * one and a word in lower case ("… Optimization In order to …", "KILT We report …", "Baselines We conduct …"), "Figure
 * 2 depicts …" (below), or, after two words or more, "A"/"An" and a word that is neither a verb's past form nor a small word
 * ("Aha Moment of DeepSeek-R1-Zero A particularly intriguing …", but "Group A received …", "Type A and B …" keep their
 * words). The heading is the shortest such run ("… Heading We show that The …" is not a heading of five words). In
 * prose, a capitalised sentence opener after a sentence's first words without a stop between them does not
 * occur; a colon, a parenthesis or a full stop among the words is no such heading ("HumanEval: Hand-Written Evaluation
 * Set We …" keeps its name, "HellaSwag (Zellers et al., 2019) A novel benchmark …" its subject).
 */
const RUN_IN_ENUM = String.raw`(?:(?:[A-Z]|[IVX]{1,4}|S?\d{1,2})(?:\.\d{1,2})*\.?[ \t\n]+)?`;
const RUN_IN_NOT_FIRST = `(?!(?:${SENTENCE_OPENER}|See|Then|Both|A|An|On|At|By|From|With|Its|Their|If|Thus|Hence|So|But|And|Or|Only|Also|Note|First|Second|Table|Figure|Fig|Appendix|Section|Eq|Equation)\\b)`;
const RUN_IN_WORD = String.raw`(?:\p{Lu}[\p{L}\d'’-]*|\p{Lu}(?:\.\d+)+|\p{Ll}[\p{L}\d'’-]*|\\?&|vs\.|\d+(?:\.\d+)*)`;
const RUN_IN_SEP = String.raw`,?[ \t\n]+`;
const RUN_IN_THEN = String.raw`(?=(?:${SENTENCE_OPENER})[ \t\n]+\p{Ll})`;
/** "Figure 2 shows …" (or "In Figure 5 we show …") after a heading in title case or capitals only, which ends in a capitalised word or a number ("Max
 *  Cached Memory Figure 7 shows …"): after words in lower case, "Table 6 in …" goes on a sentence ("Detailed results
 *  are provided in Table 6 in the Appendix."). */
const RUN_IN_TITLE_CASE = String.raw`(?:[ \t\n]+(?:(?:of|and|for|in|on|with|to|the|a|an|vs\.|\\?&)[ \t\n]+)*(?:(?!(?:${SENTENCE_OPENER})\b)\p{Lu}[\p{L}\d'’-]*|\p{Lu}(?:\.\d+)+|\d+(?:\.\d+)*)){0,7}`;
const RUN_IN_THEN_FIGURE = String.raw`(?=(?:In[ \t\n]+)?(?:Figure|Table|Fig\.)[ \t\n]*\d+[ \t\n]+\p{Ll})`;
const RUN_IN_THEN_ARTICLE = String.raw`(?=An?[ \t\n]+(?!(?:and|or|is|are|was|were|has|have|had|can|could|will|would|may|must|should|to|of|in|on|at|by|for|with|as|than|shows?)\b)\p{Ll}[\p{L}-]*(?<!ed)\b)`;
const RUN_IN_TITLE = new RegExp(
  String.raw`^${RUN_IN_ENUM}${RUN_IN_NOT_FIRST}\p{Lu}[\p{L}\d'’-]*(?:(?:${RUN_IN_SEP}${RUN_IN_WORD}){0,7}?[ \t\n]+${RUN_IN_THEN}|${RUN_IN_TITLE_CASE}[ \t\n]+${RUN_IN_THEN_FIGURE}|(?:${RUN_IN_SEP}${RUN_IN_WORD}){1,7}?[ \t\n]+${RUN_IN_THEN_ARTICLE})`,
  "u",
);

/** A numbered section heading's line, the abstract's, or a run-in heading, at the start of the text. */
const headingLine = (text: string) => HEADING_LINE.exec(text) ?? ABSTRACT_LINE.exec(text) ?? RUN_IN_TITLE.exec(text);

/** A list item's bullet inside a sentence's text. */
const INLINE_BULLET = /(?<=\S)\s+[•◦▪‣]\s+/gu;

/** A list item's bullet. */
const BULLET = /^[•◦▪‣∙⋅·]\s*/u;

/**
 * A sentence's end the splitter cannot tell from an initial or an ellipsis, seen from the word after it: a lower-case
 * letter's full stop ("… with different rank r. To our surprise, …"; a person's initial is upper-case) or a full stop
 * standing alone after a formula ("… θ(D) 0 . This convention …"; not the last of ". . ."), or the full stop after a
 * lettered appendix, section, table or figure ("… are given in Appendix E. Our results …", "… in appendix B. We
 * report …"; a person's initial is no such letter), followed by a capitalised word.
 */
const UNSEEN_END =
  /(?<=(?:^|\s)\p{Ll}\.|[^.\s]\s\.|\b(?:[Aa]ppendix|APPENDIX|[Ss]ection|[Tt]able|[Ff]igure|[Aa]lgorithm)\s+\p{Lu}(?:\.\d+)*\.)\s+(?=\p{Lu}\p{Ll})/gu;

/** …unless the letter is an abbreviation's spaced out ("e. g. The", "i. e. Adam", "s. t. Ax") or the "v." of a case
 *  between two names ("Roe v. Wade"). */
function notAnEnd(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 24), at);
  return /\p{L}\.\s\p{Ll}\.$/u.test(before) || /\p{Lu}[\p{L}'’-]*\s+v\.$/u.test(before);
}

export interface QuotableSentence {
  /** The sentence, whitespace collapsed (verbatim otherwise). */
  text: string;
  /** Its offsets in the passage's text. */
  start: number;
  end: number;
  /** A numbered section heading's line, or the abstract's, stood before it (and is not part of it). */
  afterHeading: boolean;
  /** The sentence the splitter found it in ends the passage. */
  last: boolean;
}

/**
 * The sentences of a passage as the answer quotes them and verification highlights them: the splitter's sentences,
 * and within one, the title page's header before the abstract's heading line, a sentence that ends where a section
 * heading's own line follows ("… by 1/√dk.\n3.2.2 Multi-Head
 * Attention\nInstead of …": the splitter wants a capital after the full stop) and the items of a list run into the
 * sentence that announces them ("… in three different ways: • In …") are sentences of their own; a heading's line
 * and a list item's bullet are not part of the sentence.
 */
export function quotableSentences(text: string): QuotableSentence[] {
  const out: QuotableSentence[] = [];
  const spans = splitSentences(text);
  spans.forEach((s, i) => {
    const whole = text.slice(s.start, s.end);
    // [end of a piece, start of the next] within the sentence
    const breaks: [number, number][] = [];
    const inner = INNER_HEADING.exec(whole);
    if (inner) breaks.push([inner.index + 1, inner.index + 1]);
    const abstract = ABSTRACT_BREAK.exec(whole);
    if (abstract) breaks.push([abstract.index + 1, abstract.index + 1]);
    for (const m of whole.matchAll(INLINE_BULLET)) breaks.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    for (const m of whole.matchAll(UNSEEN_END))
      if (!notAnEnd(whole, m.index ?? 0)) breaks.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    breaks.sort((a, b) => a[0] - b[0]);
    let from = 0;
    for (const [end, next] of [...breaks, [whole.length, whole.length] as [number, number]]) {
      let a = from;
      let b = end;
      from = next;
      // a section's heading line, and a subsection's right after it ("4 Methodology\n4.1 Overview\nAs illustrated …")
      let heading = headingLine(whole.slice(a, b));
      const afterHeading = heading !== null;
      while (heading) {
        a += heading[0].length;
        heading = headingLine(whole.slice(a, b));
      }
      a += BULLET.exec(whole.slice(a, b))?.[0].length ?? 0;
      while (a < b && /\s/.test(whole[a] as string)) a++;
      while (b > a && /\s/.test(whole[b - 1] as string)) b--;
      if (b <= a) continue;
      out.push({
        text: whole.slice(a, b).replace(/\s+/g, " "),
        start: s.start + a,
        end: s.start + b,
        afterHeading,
        last: i === spans.length - 1 && end === whole.length,
      });
    }
  });
  return out;
}

/** A passage's quotable sentences with their stems, kept for the passages asked about again (once per citation). */
const sentenceCache = new Map<string, (QuotableSentence & { stems: Set<string> })[]>();
function sentencesOf(text: string): (QuotableSentence & { stems: Set<string> })[] {
  return remembered(sentenceCache, text, () => quotableSentences(text).map((s) => ({ ...s, stems: stems(s.text) })));
}

/** Of two quotes, the one that supports the claim more; on a tie, the one the claim holds more of (is the claim). */
function betterQuote(claim: string, a: { quote: string; support: number }, b: { quote: string; support: number }) {
  if (a.support !== b.support) return a.support > b.support;
  return a.support > 0 && lexicalSupport(a.quote, claim) > lexicalSupport(b.quote, claim);
}

/** The sentence of the passage that best supports the claim, with its offsets on the page. */
export function bestQuote(
  claim: string,
  passage: EvidencePassage,
): { quote: string; charStart: number; charEnd: number; support: number } {
  let best = { quote: passage.text.slice(0, 300), charStart: passage.charStart, charEnd: passage.charEnd, support: 0 };
  // the sentences as the answer quotes them (a heading's line or a bullet is not part of the quote)
  const claimStems = stems(claim);
  // (how much of the best sentence the claim holds, for ties: see betterQuote)
  let bestShare = 0;
  for (const s of sentencesOf(passage.text)) {
    const support = supportIn(claimStems, s.stems);
    if (support < best.support || support === 0) continue;
    const share = supportIn(s.stems, claimStems);
    if (support > best.support || share > bestShare) {
      best = { quote: s.text, support, charStart: passage.charStart + s.start, charEnd: passage.charStart + s.end };
      bestShare = share;
    }
  }
  return best;
}

/**
 * Resolves every citation of the answer to a passage of that paper and page the synthesis was given (retrieved, or
 * offline another passage of a retrieved page) and checks the claim against it. A citation of a page nothing was
 * retrieved from is unsupported ("not among the retrieved passages").
 */
export function verifyCitations(markdown: string, evidence: EvidencePassage[]): Citation[] {
  const citations: Citation[] = [];
  for (const { claim, citations: markers } of citedClaims(markdown)) {
    for (const m of markers) {
      const candidates = evidence.filter((e) => sameId(e.paperId, m.paperId) && e.page === m.page);
      const paperId = candidates[0]?.paperId ?? evidence.find((e) => sameId(e.paperId, m.paperId))?.paperId;
      if (candidates.length === 0) {
        citations.push({
          index: citations.length + 1,
          marker: m.marker,
          paperId: paperId ?? m.paperId,
          page: m.page,
          claim,
          chunkUid: null,
          quote: "",
          charStart: null,
          charEnd: null,
          supported: false,
          support: 0,
          reason: paperId
            ? `Page ${m.page} of ${paperId} is not among the retrieved passages.`
            : `${m.paperId} is not among the retrieved papers.`,
        });
        continue;
      }
      // the passage of that page that supports the claim best (a page may have several)
      let best: { passage: EvidencePassage; q: ReturnType<typeof bestQuote>; whole: number } | null = null;
      for (const p of candidates) {
        const whole = lexicalSupport(claim, p.text);
        const q = bestQuote(claim, p);
        // overlapping passages of one page that both hold the claim's words: the one whose sentence is the claim
        if (!best || whole > best.whole || (whole === best.whole && betterQuote(claim, q, best.q)))
          best = { passage: p, q, whole };
      }
      if (!best) continue;
      const supported = best.whole >= LEXICAL_SUPPORT_THRESHOLD;
      citations.push({
        index: citations.length + 1,
        marker: m.marker,
        paperId: best.passage.paperId,
        page: m.page,
        claim,
        chunkUid: best.passage.chunkUid,
        quote: best.q.quote,
        charStart: best.q.charStart,
        charEnd: best.q.charEnd,
        supported,
        support: Math.round(best.whole * 100) / 100,
        ...(supported
          ? {}
          : { reason: `Only ${Math.round(best.whole * 100)}% of the claim's words are in the cited passage.` }),
      });
    }
  }
  return citations;
}

/** The passage as the judge sees it: whole, or a window around the quote that best matches the claim. */
export function judgeWindow(passage: EvidencePassage | undefined, c: Citation, max = JUDGE_SOURCE_CHARS): string {
  const text = passage?.text ?? "";
  if (text.length <= max) return text;
  const at = c.charStart !== null && passage ? Math.max(0, c.charStart - passage.charStart) : 0;
  const start = Math.max(0, Math.min(text.length - max, at - Math.floor(max / 3)));
  return `${start > 0 ? "…" : ""}${text.slice(start, start + max)}${start + max < text.length ? "…" : ""}`;
}

/** Characters of each cited passage shown to the model judge. */
export const JUDGE_SOURCE_CHARS = 3000;

const judgeSchema = z.object({
  verdicts: z.array(
    z.object({
      i: z.coerce.number().int(),
      supported: z.boolean(),
      reason: z.string().max(300).optional().catch(undefined),
      // optional: a judge that leaves it out (or writes something else) keeps the lexical relevance verdict
      relevance: z.enum(["relevant", "partly", "off_topic"]).optional().catch(undefined),
      relevance_reason: z.string().max(300).optional().catch(undefined),
    }),
  ),
});

/**
 * The LLM as a judge: one call for all resolved citations; the model's verdict replaces the lexical one. Citations
 * that resolved to no passage stay unsupported. Throws when the call or its JSON fails (callers keep the lexical check).
 */
export async function judgeCitations(
  model: LanguageModel,
  citations: Citation[],
  evidence: EvidencePassage[],
  { signal, topicOf }: { signal?: AbortSignal; topicOf?: (c: Citation) => string } = {},
): Promise<Citation[]> {
  const resolved = citations.filter((c) => c.chunkUid);
  if (resolved.length === 0) return citations;
  const byUid = new Map(evidence.map((e) => [e.chunkUid, e]));
  const items = resolved
    .map(
      (c) =>
        `#${c.index}\n${topicOf ? `QUESTION: ${topicOf(c)}\n` : ""}CLAIM: ${c.claim}\nSOURCE: ${judgeWindow(byUid.get(c.chunkUid ?? ""), c)}`,
    )
    .join("\n\n");
  const { text } = await generateText({
    model,
    instructions:
      "You check whether each claim is supported by its source passage. A claim is supported only if the passage " +
      "states it (paraphrase allowed). Also judge whether the claim bears on its QUESTION: relevant, partly or " +
      'off_topic. Reply with JSON only: {"verdicts": [{"i": <claim number>, "supported": true|false, "reason": "...", ' +
      '"relevance": "relevant"|"partly"|"off_topic", "relevance_reason": "..."}]}',
    prompt: items,
    temperature: 0,
    maxOutputTokens: 200 + 100 * resolved.length,
    maxRetries: 0,
    abortSignal: signal,
  });
  const { verdicts } = parseModelJson(text, judgeSchema);
  const byIndex = new Map(verdicts.map((v) => [v.i, v]));
  return citations.map((c) => {
    const v = c.chunkUid ? byIndex.get(c.index) : undefined;
    if (!v) return c;
    const { reason: _old, ...rest } = c;
    const judged = v.relevance
      ? { relevance: v.relevance, relevanceReason: v.relevance_reason ?? "Judged by the model." }
      : {};
    return v.supported
      ? { ...rest, ...judged, supported: true }
      : {
          ...rest,
          ...judged,
          supported: false,
          reason: v.reason ?? "The model judged the passage not to support the claim.",
        };
  });
}
