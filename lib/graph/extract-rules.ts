/**
 * The offline extractor: sentence patterns over a paper's stored pages. It knows English and the shape of names
 * (acronyms, CamelCase, capitalised runs, version numbers), never a list of any library's method names, so it works
 * on any paper. What it proposes is untrusted like a model's output: `validateCandidate` (validate.ts) decides.
 *
 * - The paper's own method: the name before the title's colon ("XLNet: Generalized …"), else "we propose / introduce
 *   / present … X" in the first pages.
 * - Acronyms the paper defines: "Dense Passage Retriever (DPR)" (Schwartz & Hearst's rule, normalize.ts).
 * - Relations, one verb pattern each: "X outperforms / surpasses / improves on / is better than Y" (improves_on),
 *   "X extends / builds on Y" (extends), "we use / adopt / initialise with X" (uses), "evaluated / experiments /
 *   results on D" (evaluates_on), "we propose / introduce X" (introduces, when X is not the paper's method), "compared
 *   with / to / against Y" (compares_to). "we" and "our model" stand for the paper's own method.
 * - Types from the text around a name: "X dataset / benchmark / corpus", "evaluated on X", a table caption's "results
 *   on X" → Dataset; the usual evaluation measures' names or "X score" → Metric; "X model", a size suffix → Model;
 *   otherwise Method.
 * Sentences in the reference list, and text that is not prose (tables, formulas, author lists), are skipped; table
 * captions are read for datasets only.
 */
import { splitSentences } from "@/lib/ingest/chunk";
import { notProse } from "@/lib/text/prose";
import { tokenize } from "@/lib/text/terms";
import { canonicalName, longFormFor, looksLikeAcronym } from "./normalize";
import type { AcronymDefinition, Candidate, EntityRef, GraphEntityType, GraphRelation, PaperExtraction } from "./types";
import { MAX_QUOTE_CHARS } from "./types";

export interface PaperText {
  id: string;
  title: string;
  abstract?: string | null;
  pages: { pageNumber: number; text: string }[];
  /** Spans of page text to leave out (the reference list), by page. */
  skip?: { page: number; start: number; end: number }[];
}

/** Capitalised words that begin or label things but never name an entity, nor continue a name. */
const NOT_NAMES = new Set(
  (
    "table tables figure figures fig fig. section sections sec appendix eq eq. equation algorithm step steps stage " +
    "we our us i it its this these those that the a an in on at for of to from by with as and or but if when while " +
    "however moreover furthermore thus hence therefore also further finally first second third then here there " +
    "note notably specifically recently similarly additionally unlike like both each all most many some such " +
    "january february march april may june july august september october november december " +
    "left right top bottom above below example examples case cases part parts following previous next " +
    "given using based since after before during without within across among between through over under " +
    "one two three four five six seven eight nine ten"
  ).split(" "),
);

/** Capitalised nouns that do not start a name but may continue one ("Natural Questions", "Blended Skill Talk"). */
const CONTINUATION_ONLY = new Set(
  (
    "english german french chinese japanese spanish russian arabic " +
    "model models method methods dataset datasets task tasks results result experiments experiment baseline " +
    "baselines approach approaches system systems work works paper papers question questions answer answers " +
    "new large small big open"
  ).split(" "),
);

/** Abbreviations of the field's own vocabulary (not of any method): never an entity on their own. */
const GENERIC_ABBREVIATIONS = new Set(
  (
    "nlp nlu nlg ai ml dl llm llms lm lms plm plms qa rl gpu gpus tpu tpus cpu cpus api apis sota ir cv asr mt nmt " +
    "url urls pdf pdfs id ids ood iid gb mb tb fp16 fp32 bf16 ram vram ms"
  ).split(" "),
);

/** The usual names of evaluation measures (generic vocabulary of the field, not any library's entities). */
const METRIC_NAME =
  /^(?:accuracy|acc|f1|f-1|f1 score|em|exact match|bleu(?:-\d)?|rouge(?:-[12l]|-lsum)?|meteor|cider|spice|perplexity|ppl|precision|recall|mrr|map|ndcg|r|p|hits?|top-\d+ accuracy|auc|roc auc|wer|cer|ter|chrf|bertscore|pass|mse|rmse|mae|psnr|ssim|fid|inception score)(?:@\d+)?$/i;
const DATASET_AFTER =
  /^\s*(?:dataset|datasets|data set|benchmark|benchmarks|corpus|corpora|collection|test set|dev set|development set|training set|leaderboard|challenge|split)\b/i;
const METRIC_AFTER = /^\s*(?:score|scores|metric|metrics)\b/i;
const MODEL_AFTER = /^\s*(?:model|models|network|networks|architecture|encoder|decoder|LM|language model)\b/;
const MODEL_SIZE = /[-\s](?:base|large|small|xl|xxl|tiny|mini|medium|\d+(?:\.\d+)?[BMK])$/i;
const TASK_AFTER = /^\s*(?:task|tasks)\b/i;

/** "we" and "our model" stand for the paper's own method. */
export const SELF_REFERENCE =
  /\b(?:we|our(?:\s+(?:\S+\s+){0,2}?(?:model|models|method|approach|system|framework|retriever|reader|architecture|algorithm|technique|pipeline|agent|variant)s?))\b/i;

interface Token {
  text: string;
  start: number;
  end: number;
}

interface NameSpan {
  name: string;
  start: number;
  end: number;
}

/** Replaces citations and bracketed references with spaces (offsets unchanged). */
export function maskCitations(s: string): string {
  const blank = (m: string) => " ".repeat(m.length);
  return (
    s
      .replace(/\[[\d,;\s–-]+\]/g, blank)
      .replace(/\((?:[^()]*?\bet al\.?|[^()]*?\b(?:19|20)\d{2}[a-z]?)[^()]*\)/g, blank)
      .replace(/\b\p{Lu}[\p{L}'-]+(?:\s+(?:et al\.?|and\s+\p{Lu}[\p{L}'-]+))?,?\s*\(?(?:19|20)\d{2}[a-z]?\)?/gu, blank)
      .replace(/\b\p{Lu}[\p{L}'-]+\s+et al\.?/gu, blank)
      // "Thorne and Vlachos [57]", "Li & Liang (2021)": authors, not methods
      .replace(/\b\p{Lu}\p{Ll}+\s+(?:and|&)\s+\p{Lu}\p{Ll}+(?=\s*(?:\[\s*\d|\(\s*\d{4}|\s{3,}))/gu, blank)
  );
}

/**
 * Blanks a section heading the sentence splitter left at the start of a sentence ("6 MULTI-HOP REASONING We evaluate
 * …", "4.3 Jeopardy Question Generation Table 2 shows …"): its words are not the sentence's names.
 */
export function maskHeading(s: string): string {
  const m =
    /^\s*(?:[A-Z]\s+)?(?:APPENDIX\s+)?(?:[A-Z]|\d{1,2})(?:\.\d{1,2})*\.?\s+(?:(?:[A-Z][A-Z0-9-]+|[A-Z][\w-]*)\s+){1,8}?(?=(?:We|In|For|To|Our|The|This|These|Table|As|On|Figure|Here|Unlike|Since|Following)\b)/.exec(
      s,
    );
  return m ? " ".repeat(m[0].length) + s.slice(m[0].length) : s;
}

/**
 * Blanks the short lines without final punctuation that start a sentence span — a title, "Abstract", a heading the
 * splitter ran into the sentence after it ("Gizmotron: Better Widget Retrieval\nAbstract\nGizmotron outperforms …").
 */
export function blankHeadingLines(raw: string): string {
  let cut = 0;
  for (const m of raw.matchAll(/\n/g)) {
    const at = m.index ?? 0;
    const line = raw.slice(cut, at).trim();
    const next = raw.slice(at + 1).trimStart();
    if (line.split(/\s+/).length <= 8 && !/[.,;:!?\-–]$/.test(line) && /^\p{Lu}/u.test(next)) cut = at + 1;
    else break;
  }
  return cut > 0 ? " ".repeat(cut) + raw.slice(cut) : raw;
}

function tokens(s: string): Token[] {
  const out: Token[] = [];
  for (const m of s.matchAll(/[^\s,;:()[\]"“”]+/g)) {
    let text = m[0];
    let start = m.index ?? 0;
    // strip sentence punctuation and possessives at the edges
    const lead = /^['‘’]+/.exec(text)?.[0].length ?? 0;
    text = text.slice(lead);
    start += lead;
    text = text.replace(/(?:['’]s|['’])$/u, "").replace(/[.!?]+$/u, "");
    if (text.length > 0) out.push({ text, start, end: start + text.length });
  }
  return out;
}

/** Is this token name-like (an acronym, CamelCase, letters with digits, or a capitalised word not at the start)? */
function nameLike(t: string, atSentenceStart: boolean, continuing = false): boolean {
  // most tokens are lower-case words: the fast way out
  if (/^[a-z][a-z'’.-]*$/.test(t) || !/\p{L}/u.test(t)) return false;
  if (/^[\p{P}\p{S}]/u.test(t) && !/^[(]/.test(t)) return false;
  const bare = t.toLowerCase();
  if (NOT_NAMES.has(bare)) return false;
  if (CONTINUATION_ONLY.has(bare)) return continuing && /^\p{Lu}/u.test(t);
  if (/^\p{Lu}[\p{Ll}'’]*$/u.test(t) && t.length <= 2) return false;
  if (/\p{Lu}/u.test(t.slice(1)) && /^\p{L}/u.test(t)) return true; // BERT, XLNet, SQuAD, GPT-3, Lucene-BM25
  if (/\p{L}/u.test(t) && /\d/.test(t) && /^\p{Lu}/u.test(t)) return true; // T5, BM25, Llama2
  if (/^\p{Lu}\p{Ll}+(?:-\p{L}+)*$/u.test(t)) return !atSentenceStart; // Transformer, Retrieval-Augmented
  return false;
}

/** A version or size after a name ("SQuAD 1.1", "v2.0", "GPT 3"). */
const VERSION = /^(?:v\d+(?:\.\d+)*|\d(?:\.\d{1,2})?|\d+[BMK])$/i;

/**
 * Names in a (citation-masked) sentence: maximal runs of name-like tokens, with a version number after them.
 * A run of one capitalised word that starts the sentence is no name.
 */
export function findNames(masked: string, known: ReadonlySet<string> = new Set()): NameSpan[] {
  const ts = tokens(masked);
  const out: NameSpan[] = [];
  let i = 0;
  const first = ts[0]?.start ?? 0;
  while (i < ts.length) {
    const t = ts[i] as Token;
    // a capitalised first word is a name only when the paper names it so (its method, an acronym it defines)
    if (!nameLike(t.text, t.start === first && !known.has(t.text.toLowerCase()))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < ts.length) {
      const next = ts[j] as Token;
      const gap = masked.slice((ts[j - 1] as Token).end, next.start);
      if (!/^\s+$/.test(gap) || gap.length > 2) break;
      // "DeepSeek-R1 -Distill-Qwen-7B": a hyphenated name the PDF's text broke at the hyphen
      const brokenHyphen = /^-\p{L}/u.test(next.text) && gap === " ";
      if (nameLike(next.text, false, true) || brokenHyphen || (VERSION.test(next.text) && j === i + 1)) j++;
      else break;
    }
    const start = t.start;
    const end = (ts[j - 1] as Token).end;
    const name = masked.slice(start, end).replace(/\s+/g, " ");
    // long capitalised runs are headings or author lists, not names; so are runs of upper-case words
    const heading = j - i >= 3 && ts.slice(i, j).every((x) => /^[\p{Lu}-]{3,}$/u.test(x.text));
    if (
      !heading &&
      j - i <= 5 &&
      name.length >= 2 &&
      name.length <= 60 &&
      !GENERIC_ABBREVIATIONS.has(name.toLowerCase())
    ) {
      out.push({ name, start, end });
    }
    i = j;
  }
  return out;
}

/** The type the words around a name suggest, with how sure (votes are summed per entity over the library). */
export function typeHint(name: string, after: string, before: string): { type: GraphEntityType; weight: number } {
  if (METRIC_NAME.test(name) || METRIC_AFTER.test(after) || /\bin terms of\s*$/i.test(before)) {
    return { type: "Metric", weight: 3 };
  }
  if (DATASET_AFTER.test(after) || /\b(?:trained|pre-?trained|fine-?tuned)\s+on\s+(?:the\s+)?$/i.test(before)) {
    return { type: "Dataset", weight: 3 };
  }
  if (TASK_AFTER.test(after)) return { type: "Task", weight: 2 };
  if (MODEL_AFTER.test(after) || MODEL_SIZE.test(name)) return { type: "Model", weight: 1 };
  return { type: "Method", weight: 0.5 };
}

interface Pattern {
  relation: GraphRelation;
  /** Finds the verb; the subject is before it, the object after. */
  verb: RegExp;
  confidence: number;
  /** "Y is outperformed by X": object and subject swap. */
  passive?: boolean;
  /** The subject is always the paper's own method ("we use X"). */
  selfSubject?: boolean;
  /** The target's type is known from the pattern. */
  targetType?: GraphEntityType;
  /** Object must follow the verb within this many characters. */
  reach?: number;
}

const PATTERNS: Pattern[] = [
  {
    relation: "improves_on",
    verb: /\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beats?|improves?\s+(?:up)?on|improved\s+(?:up)?on|(?:is|are|was|were|performs?|does|do)\s+(?:\S+\s+){0,2}?(?:better than|superior to)|exceeds?|exceeded)\b/gi,
    confidence: 0.85,
  },
  { relation: "improves_on", verb: /\b(?:is|are|was|were)\s+outperformed\s+by\b/gi, confidence: 0.8, passive: true },
  // "Primer improves the original T5 architecture": a method as object (a dataset or metric fails the type check)
  { relation: "improves_on", verb: /\b(?:improves|improved)\b(?!\s+(?:up)?on\b)/gi, confidence: 0.7, reach: 25 },
  {
    relation: "extends",
    verb: /\b(?:extends|extended|is an extension of|generali[sz]es|builds\s+(?:up)?on|built\s+(?:up)?on|build\s+(?:up)?on)\b/gi,
    confidence: 0.8,
  },
  {
    relation: "uses",
    verb: /\bwe\s+(?:also\s+|first\s+|then\s+)?(?:use|used|adopt|adopted|employ|employed|leverage|leveraged|utili[sz]e|utili[sz]ed)\b/gi,
    confidence: 0.75,
    selfSubject: true,
    reach: 60,
  },
  {
    relation: "uses",
    verb: /\b(?:initiali[sz]e|initiali[sz]ed|initiali[sz]ing)\s+(?:\S+\s+){0,4}?(?:with|from)\b/gi,
    confidence: 0.75,
    reach: 40,
  },
  {
    relation: "evaluates_on",
    verb: /\b(?:evaluat(?:e|ed|ing)|test(?:ed)?|experiments?|results?|performance|benchmark(?:ed)?)\s+(?:\S+\s+){0,3}?on\b/gi,
    confidence: 0.75,
    targetType: "Dataset",
    reach: 30,
  },
  {
    relation: "introduces",
    verb: /\bwe\s+(?:also\s+)?(?:propose|proposed|introduce|introduced)\b/gi,
    confidence: 0.7,
    selfSubject: true,
    reach: 80,
  },
  {
    relation: "compares_to",
    verb: /\b(?:compared?\s+(?:\S+\s+){0,3}?(?:with|to|against)|comparisons?\s+(?:with|to|against)|in comparison (?:with|to))\b/gi,
    confidence: 0.7,
    reach: 30,
  },
];

/** Any pattern's verb: sentences without one are not read for claims. */
const ANY_VERB = new RegExp(PATTERNS.map((p) => `(?:${p.verb.source})`).join("|"), "i");

/** Formula symbols, markup and numbers are not names ("MLPϕ3", "SYMBOLIC_FORMULA", "Hit@1 ∆GRAG"). */
/** Hardware is not in the ontology ("We use NVIDIA Tesla V100"). */
const HARDWARE = /\b(?:GPUs?|TPUs?|CPUs?|NVIDIA|Tesla|[AHV]100|RTX|processors?|Xeon|EPYC)\b/;
const ODD_NAME = /[_=<>∆↓↑ϕθΦΘαβγλ∈]|^\d|^[A-Z]\.\d|^(?:Section|Appendix|Table|Figure)\b|^[A-Za-z]{1,2}$/u;
/** Is the text before a name a list of names after a preposition ("… on IMDB, Yelp-2, and ")? */
function inPrepositionalList(before: string): boolean {
  if (!/(?:,|\band|\bor)\s*$/.test(before)) return false;
  const m = /\b(?:on|in|of|for|at|with|by|from|over|across|than|including)\s+([^.;]*)$/i.exec(before);
  if (!m) return false;
  // nothing but names, numbers, commas and "and"/"or" since the preposition
  return (m[1] as string).split(/[\s,]+/).every((w) => w === "" || /^(?:and|or|the)$/i.test(w) || !/^[a-z]/.test(w));
}

const PRECEDING_PREPOSITION = /\b(?:in|on|of|for|at|with|by|to|from|over|across|into|via|than)\s+(?:the\s+)?$/i;
const GAP_PREPOSITION =
  /\b(?:in|on|of|for|at|with|by|to|from|over|across|under|into|via|within|without|between|among|after|before)\b/i;
/** Words that introduce the objects themselves: "including X", "such as X". */
const LISTING = /\b(?:including|such as|like|e\.g\.|namely|i\.e\.)/gi;

/** Words before a verb that undo or hedge the claim. */
const NEGATION = /\b(?:not|never|no|fails? to|failed to|cannot|can't|doesn't|don't|didn't|unable to)\s+(?:\S+\s+)?$/i;
const HEDGE = /\b(?:may|might|could|would|can|should|hope|expect|conjecture|hypothes[ie][sz]e)\b/i;
const CLAUSE_BREAK = /[;]|\b(?:while|whereas|although|but|which|where|because|since)\b/i;

interface Side {
  name: string;
  self: boolean;
  start: number;
  end: number;
}

function subjectBefore(masked: string, names: NameSpan[], at: number, ownMethod: string | null): Side | null {
  const clauseStart = (() => {
    const head = masked.slice(0, at);
    let cut = 0;
    for (const m of head.matchAll(new RegExp(CLAUSE_BREAK.source, "gi"))) cut = (m.index ?? 0) + m[0].length;
    return cut;
  })();
  // a name behind a preposition ("trained on Natural Questions", "86.4% in StrategyQA") or owning something
  // ("OpenAI's infrastructure") is not the one doing the verb
  const before = names.filter(
    (n) =>
      n.end <= at &&
      n.start >= clauseStart &&
      at - n.end <= 80 &&
      (at - n.end <= 2 || !PRECEDING_PREPOSITION.test(masked.slice(Math.max(0, n.start - 12), n.start))) &&
      !/^['’]s\b/.test(masked.slice(n.end, n.end + 3)) &&
      // one of a list behind a preposition ("on IMDB, Yelp-2, and Amazon-5 … compared to BERT") is not the subject
      !inPrepositionalList(masked.slice(Math.max(0, n.start - 80), n.start)),
  );
  const last = before[before.length - 1];
  const selfRef = ownMethod ? lastMatch(masked.slice(clauseStart, at), SELF_REFERENCE) : null;
  if (selfRef && ownMethod && (!last || clauseStart + selfRef.index > last.end)) {
    return { name: ownMethod, self: true, start: clauseStart + selfRef.index, end: clauseStart + selfRef.end };
  }
  if (!last) return null;
  // "X and Y outperform Z": the subject is the run up to the verb, take its last name only when nothing but words sit between
  return { name: last.name, self: false, start: last.start, end: last.end };
}

function lastMatch(s: string, re: RegExp): { index: number; end: number } | null {
  let found: { index: number; end: number } | null = null;
  for (const m of s.matchAll(new RegExp(re.source, "gi")))
    found = { index: m.index ?? 0, end: (m.index ?? 0) + m[0].length };
  return found;
}

/** The objects after a verb: the first name within reach, then names joined to it by "and", "or" and commas. */
function objectsAfter(masked: string, names: NameSpan[], at: number, reach: number): NameSpan[] {
  const after = names.filter((n) => n.start >= at);
  const first = after[0];
  if (!first) return [];
  const gap = masked.slice(at, first.start);
  // "we use two fact-checking datasets that contain …: HOVER and FEVEROUS": the list the colon announces
  const announced = /\b(?:datasets|benchmarks|tasks|corpora|collections|models|baselines)\b[^.;:]{0,100}:\s*$/i.test(
    gap,
  );
  if (first.start - at > (announced ? 160 : reach)) return [];
  if (!announced) {
    if (CLAUSE_BREAK.test(gap) || /[.]/.test(gap) || ANY_VERB.test(gap)) return [];
    // "better than fine-tuning in model quality on RoBERTa": a name behind a preposition is context, not the object
    if (GAP_PREPOSITION.test(gap.replace(LISTING, " "))) return [];
  }
  const out = [first];
  for (let i = 1; i < after.length; i++) {
    const prev = out[out.length - 1] as NameSpan;
    const n = after[i] as NameSpan;
    const between = masked.slice(prev.end, n.start);
    if (/^\s*(?:,\s*)?(?:and|or|as well as)?\s*(?:the\s+)?$/.test(between) && between.trim().length > 0) out.push(n);
    else if (/^\s*,\s*$/.test(between)) out.push(n);
    else break;
  }
  return out;
}

const NOT_INTRODUCED =
  /\b(?:results?|experiments?|analys[ie]s|evaluations?|comparisons?|stud(?:y|ies)|details|examples?|ablations?|findings|overview|survey)\b/i;

/**
 * A name cut short by "and" inside a long form the paper defines ("Uniform Manifold Approximation and Projection
 * (UMAP)") stands for its acronym.
 */
function withAcronym(o: NameSpan, masked: string, acronyms: AcronymDefinition[]): NameSpan {
  const rest = masked.slice(o.start, o.start + 120).toLowerCase();
  for (const a of acronyms) {
    const long = a.long.toLowerCase();
    if (long.length > o.name.length && long.startsWith(o.name.toLowerCase()) && rest.startsWith(long)) {
      return { name: a.short, start: o.start, end: o.end };
    }
  }
  return o;
}

/** The paper's own method from its title ("XLNet: Generalized …") or its first pages ("we propose X"). */
export function ownMethodOf(paper: PaperText): string | null {
  const title = paper.title.normalize("NFKC").trim();
  const colon = /^([^:]{2,40}):\s/.exec(title);
  if (colon) {
    const head = (colon[1] as string).trim();
    const words = head.split(/\s+/);
    const capitalised = words.every((w) => /^[\p{Lu}\d]/u.test(w) || /\p{Lu}/u.test(w.slice(1)));
    // one word ("Primer", "RAPTOR"), or a few with a name-shaped one ("Constitutional AI"); not "Towards …"
    const named = words.length === 1 || words.some((w) => /\p{Lu}/u.test(w.slice(1)) || /\d/.test(w));
    if (
      words.length <= 3 &&
      capitalised &&
      named &&
      !/^(?:towards?|on|beyond|when|how|what|why)$/i.test(words[0] as string)
    ) {
      return head;
    }
  }
  // an acronym the first pages define whose long form is mostly the title's words: "Retrieval-Augmented Generation
  // for Knowledge-Intensive NLP Tasks" defines "retrieval-augmented generation (RAG)"
  // words compared by their first six letters: "dimension" and "dimensionality", "improved" and "improve"
  const prefix = (t: string) => t.slice(0, 6);
  const titleTerms = new Set(tokenize(title).map(prefix));
  for (const a of acronymDefinitions({ ...paper, pages: paper.pages.slice(0, 2) })) {
    const terms = tokenize(a.long).map(prefix);
    if (GENERIC_ABBREVIATIONS.has(a.short.toLowerCase())) continue;
    if (terms.length >= 2 && terms.filter((t) => titleTerms.has(t)).length / terms.length >= 0.6) return a.short;
  }
  const opening = [paper.abstract ?? "", ...paper.pages.slice(0, 2).map((p) => p.text)].join("\n");
  const propose =
    /\bwe\s+(?:propose|introduce|present)\s+(?:a|an|the)?\s*(?:[\p{Ll}-]+,?\s+){0,6}?(?:called|named|dubbed|termed)?\s*,?\s*(?:the\s+)?([\p{Lu}][\p{L}\d-]*(?:\s+[\p{Lu}][\p{L}\d-]*){0,2})/gu;
  for (const m of opening.replace(/\s+/g, " ").matchAll(propose)) {
    const name = (m[1] as string).trim();
    const first = name.split(" ")[0] as string;
    if (NOT_NAMES.has(first.toLowerCase())) continue;
    if (
      looksLikeAcronym(first) ||
      /\p{Lu}/u.test(first.slice(1)) ||
      /\d/.test(first) ||
      name.includes(" ") ||
      m[0].includes(",")
    ) {
      return name;
    }
  }
  return null;
}

/** Acronyms a paper defines in its text: "Dense Passage Retriever (DPR)". */
export function acronymDefinitions(paper: PaperText): AcronymDefinition[] {
  const out: AcronymDefinition[] = [];
  const seen = new Set<string>();
  for (const page of paper.pages) {
    const text = page.text.replace(/-\s*\n\s*(?=\p{Ll})/gu, "").replace(/\s+/g, " ");
    for (const m of text.matchAll(/\(((?:[\p{Lu}][\p{L}-]{1,15}\s)?[\p{Lu}][\p{L}\d-]{1,11})\)/gu)) {
      const short = m[1] as string;
      if (!looksLikeAcronym(short.split(" ").pop() as string) || seen.has(short)) continue;
      const before = text.slice(Math.max(0, (m.index ?? 0) - 200), m.index ?? 0);
      const long = longFormFor(short, before);
      if (!long || /[.;:]/.test(long) || long.split(" ").length > 8) continue;
      if (canonicalName(long) === canonicalName(short)) continue;
      seen.add(short);
      out.push({ short, long: tidyLongForm(long), page: page.pageNumber });
    }
  }
  return out;
}

function tidyLongForm(long: string): string {
  return long.replace(/^(?:the|a|an|our)\s+/i, "").replace(/[,\s]+$/, "");
}

function inSkip(paper: PaperText, page: number, start: number, end: number): boolean {
  return (paper.skip ?? []).some((s) => s.page === page && start < s.end && end > s.start);
}

const CAPTION = /^\s*(?:Table|Tab\.)\s*[A-Z]?\d+\s*[:.|]/;

/**
 * The quote for a claim: the whole sentence when it fits, else a window of the sentence around the two names, cut at
 * word boundaries (offsets into the page text).
 */
function quoteSpan(
  sentence: { start: number; end: number },
  pageText: string,
  focus: { start: number; end: number },
): { start: number; end: number } {
  if (sentence.end - sentence.start <= MAX_QUOTE_CHARS) return sentence;
  const mid = Math.floor((focus.start + focus.end) / 2);
  const half = Math.floor(MAX_QUOTE_CHARS / 2);
  let start = Math.max(sentence.start, Math.min(focus.start - 20, mid - half));
  let end = Math.min(sentence.end, start + MAX_QUOTE_CHARS);
  start = Math.max(sentence.start, Math.min(start, end - MAX_QUOTE_CHARS));
  while (start > sentence.start && /\S/.test(pageText[start - 1] as string)) start++;
  while (end < sentence.end && /\S/.test(pageText[end] as string)) end--;
  return { start, end };
}

/**
 * Extracts candidate relations, acronym definitions and mentions from one paper's pages. Pure and synchronous:
 * about a millisecond per page.
 */
export function extractWithRules(paper: PaperText): PaperExtraction {
  const ownMethod = ownMethodOf(paper);
  const acronyms = acronymDefinitions(paper);
  const known = new Set([ownMethod, ...acronyms.map((a) => a.short)].flatMap((n) => (n ? [n.toLowerCase()] : [])));
  const candidates: Candidate[] = [];
  const mentionMap = new Map<
    string,
    { entity: EntityRef; page: number; count: number; votes: Map<GraphEntityType, number> }
  >();

  const mention = (name: string, page: number, hint: { type: GraphEntityType; weight: number }) => {
    const key = canonicalName(name);
    if (!key) return;
    let m = mentionMap.get(key);
    if (!m) {
      m = { entity: { name, type: hint.type }, page, count: 0, votes: new Map() };
      mentionMap.set(key, m);
    }
    m.count++;
    m.votes.set(hint.type, (m.votes.get(hint.type) ?? 0) + hint.weight);
  };

  for (const page of paper.pages) {
    const text = page.text;
    for (const sentence of splitSentences(text)) {
      if (inSkip(paper, page.pageNumber, sentence.start, sentence.end)) continue;
      const raw = text.slice(sentence.start, sentence.end);
      const flat = blankHeadingLines(raw).replace(/\s/g, " ");
      const caption = CAPTION.test(flat) || /\b(?:Table|Tab\.)\s*[A-Z]?\d+\s*[:.|]/.test(flat.slice(1));
      // table cells run into a caption ("BM25 57.3 49.9 … Table 5: Results on …"): only the caption is read
      const captionAt = flat.search(/\b(?:Table|Tab\.)\s*[A-Z]?\d+\s*[:.|]/);
      const masked = maskHeading(maskCitations(captionAt > 0 ? " ".repeat(captionAt) + flat.slice(captionAt) : flat));
      const names = findNames(masked, known);
      // mentions (co-occurrence, type votes) from every sentence outside the reference list, tables included
      for (const n of names) {
        mention(n.name, page.pageNumber, typeHint(n.name, masked.slice(n.end, n.end + 30), masked.slice(0, n.start)));
      }
      if (names.length === 0 || !ANY_VERB.test(masked)) continue;
      // claims only from prose (and table captions): not from tables, formulas, author lists
      // (the pattern's verb is there: prose's own verb test does not know every form, "outperforms", "use")
      const shape = caption ? null : notProse(flat.trim());
      if (shape !== null && shape !== "no_verb") continue;
      for (const p of PATTERNS) {
        if (caption && p.relation !== "evaluates_on") continue;
        for (const v of masked.matchAll(p.verb)) {
          const at = v.index ?? 0;
          const verbEnd = at + v[0].length;
          if (NEGATION.test(masked.slice(Math.max(0, at - 30), at))) continue;
          const objects = objectsAfter(masked, names, verbEnd, p.reach ?? 60)
            .map((o) => withAcronym(o, masked, acronyms))
            // "improves PaLM-2L performance", "outperforms BERT's results": the object is the performance, not the method
            .filter(
              (o) =>
                !/^(?:['’]s\b|\s+(?:performance|accuracy|results?|scores?|(?:speed )?records?)\b)/i.test(
                  masked.slice(o.end, o.end + 14),
                ),
            );
          if (objects.length === 0) continue;
          // "we use CoT to denote …": notation, not use
          const afterObject = masked.slice(objects[0]?.end ?? 0);
          if (p.relation === "uses" && /^\s*(?:\S+\s+)?to (?:denote|refer to|indicate|represent)\b/i.test(afterObject))
            continue;
          // "we introduce an analysis of …": not something the paper introduces
          if (p.relation === "introduces" && NOT_INTRODUCED.test(masked.slice(verbEnd, objects[0]?.start))) continue;
          let subject: Side | null;
          if (p.selfSubject || caption) {
            subject = ownMethod ? { name: ownMethod, self: true, start: at, end: at } : null;
          } else if (
            /\b(?:it|they|this|these|which|that|who)\s+(?:\w+ly\s+)?$/i.test(masked.slice(Math.max(0, at - 24), at))
          ) {
            subject = null; // a pronoun does the verb: who it stands for is not resolved here
          } else {
            subject = subjectBefore(masked, names, at, ownMethod);
          }
          if (!subject) continue;
          // "removing NSP hurts performance on QNLI": results and performance "on" D say who was evaluated only for the paper's own method
          if (p.relation === "evaluates_on" && !subject.self && !/^(?:evaluat|test)/i.test(v[0])) continue;
          // "the TREC WebTrack 2009–12 have been evaluated on …": what is evaluated in the passive is data, not a method
          if (
            p.relation === "evaluates_on" &&
            !subject.self &&
            /\b(?:been|be|is|are|was|were)\s+$/i.test(masked.slice(0, at))
          ) {
            continue;
          }
          let confidence = p.confidence;
          let note: string | undefined;
          if (subject.self && !p.selfSubject) {
            confidence -= 0.1;
            note = "the paper's own method, as “we” or “our …”";
          }
          if (caption) {
            confidence = 0.65;
            note = "from a table caption";
          }
          const clause = masked.slice(Math.max(0, subject.start), verbEnd);
          if (HEDGE.test(clause) || /\b(?:if|whether|unless)\b/i.test(masked.slice(0, at))) {
            confidence = Math.min(confidence, 0.5);
            note = "hedged or conditional (may, could, if …)";
          }
          // numbers everywhere: table cells run into the sentence
          const digits = (masked.match(/\d/g)?.length ?? 0) / Math.max(1, masked.replace(/\s/g, "").length);
          if (digits > 0.12) {
            confidence -= 0.25;
            note = "in text that looks like a table";
          }
          // "we use the X dataset to evaluate": an evaluation, not a component
          const evaluation = /\b(?:evaluat\w*|benchmark\w*|test sets?|to (?:measure|assess))\b/i.test(masked);
          for (const object of objects) {
            const [src, dst] = p.passive
              ? [{ name: object.name, self: false, start: object.start, end: object.end }, subject]
              : [subject, object];
            if (p.passive && subject.self) continue;
            if (canonicalName(src.name) === canonicalName(dst.name)) continue;
            if (ODD_NAME.test(src.name) || ODD_NAME.test(dst.name) || HARDWARE.test(dst.name)) continue;
            // one capitalised common word ("Analysis", "Pruning", "Preliminary") is weak evidence of a named entity
            let sure = confidence;
            for (const side of [src, dst]) {
              if (
                !("self" in side && side.self) &&
                /^\p{Lu}\p{Ll}+(?:ing|ion|ions|sis|ment|ary|ness|ity|ure|al|ics)$/u.test(side.name) &&
                !acronyms.some((a) => a.short === side.name)
              ) {
                sure -= 0.2;
              }
            }
            if (p.relation === "introduces" && ownMethod && canonicalName(dst.name) === canonicalName(ownMethod))
              continue;
            const after = masked.slice(dst.end, dst.end + 30);
            const before = masked.slice(0, dst.start);
            const contextHint = typeHint(dst.name, after, before);
            // "we use StereoSet to measure …": what a paper uses to evaluate is a dataset, unless it is a metric
            const targetHint = p.targetType
              ? { type: p.targetType, weight: 2 }
              : p.relation === "uses" && evaluation && contextHint.type !== "Metric"
                ? { type: "Dataset" as const, weight: 2 }
                : contextHint;
            const sourceHint = typeHint(src.name, masked.slice(src.end, src.end + 30), masked.slice(0, src.start));
            // "we use BERT-based rankers as baselines": a comparison, not a component
            const asBaseline = /^[^.;]{0,60}?\bas (?:\w+ ){0,2}baselines?\b/i.test(masked.slice(dst.end));
            const relation: GraphRelation =
              p.relation === "uses" && asBaseline
                ? "compares_to"
                : p.relation === "uses" && evaluation && targetHint.type === "Dataset"
                  ? "evaluates_on"
                  : p.relation;
            const focus = {
              start: sentence.start + Math.min(src.start, dst.start, at),
              end: sentence.start + Math.max(src.end, dst.end, verbEnd),
            };
            // the quote starts where the sentence does once the heading lines before it are left out
            const lead = masked.search(/\S/);
            const span = quoteSpan({ start: sentence.start + Math.max(0, lead), end: sentence.end }, text, focus);
            candidates.push({
              relation,
              source: { name: src.name, type: src.self ? "Method" : sourceHint.type },
              target: { name: dst.name, type: targetHint.type },
              page: page.pageNumber,
              quote: text.slice(span.start, span.end),
              confidence: Math.max(0, Math.round(sure * 100) / 100),
              extractor: "rules",
              ...(note || sure < confidence ? { note: note ?? "a capitalised common word as a name" } : {}),
              ...(relation === "uses" && evaluation ? { evaluationContext: true } : {}),
            });
            if (targetHint !== contextHint) mention(dst.name, page.pageNumber, targetHint);
          }
        }
      }
    }
  }
  const mentions = [...mentionMap.values()].map((m) => {
    const type = [...m.votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? m.entity.type;
    return { entity: { name: m.entity.name, type }, page: m.page, count: m.count };
  });
  return { paperId: paper.id, ownMethod, candidates, acronyms, mentions, malformed: 0, failedSections: 0 };
}
