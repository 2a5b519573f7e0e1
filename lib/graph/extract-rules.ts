/**
 * The offline extractor: sentence patterns over a paper's stored pages. It knows English and the shape of names
 * (acronyms, CamelCase, capitalised runs, version numbers), never a list of any library's method names, so it works
 * on any paper. What it proposes is untrusted like a model's output: `validateCandidate` (validate.ts) decides.
 *
 * - The paper's own method: the name before the title's colon ("XLNet: Generalized …"), else "which we dub X", an
 *   acronym the first pages define from the title's words, "we propose / introduce / present … X", an acronym the
 *   title spells by its initials ("(LMSI)"), or "we define / propose … (X)" when the paper goes on using X.
 * - Acronyms the paper defines: "Dense Passage Retriever (DPR)" (Schwartz & Hearst's rule, normalize.ts); their long
 *   forms count as the acronym wherever the text writes them, in lower case too.
 * - Relations, several verb patterns each (PATTERNS): "X outperforms / surpasses / improves on / is better than Y",
 *   "improvements over Y" (improves_on); "X extends / builds on / is a variant of Y", "inspired by Y" (extends); "we use
 *   / adopt / fine-tune X", "based on X", "using X" in the paper's voice, "X uses / is trained on Y" (uses);
 *   "evaluated / experiments / results / achieves … on D", lists a colon announces (evaluates_on); "we propose /
 *   introduce / develop X", with lower-case names ("a new judger transformer block") (introduces, when X is not the
 *   paper's method); "compared with / to Y", "comparable to", "we compare X and Y" (compares_to). "we" and "our model"
 *   stand for the paper's own method.
 * - Types from the text around a name: "X dataset / benchmark / corpus", "evaluated on X", a table caption's "results
 *   on X" → Dataset; the usual evaluation measures' names or "X score" → Metric; "X model", a size suffix → Model;
 *   otherwise Method (a weak vote: any cue elsewhere wins).
 * Sentences in the reference list, and text that is not prose (tables, formulas, author lists), are skipped; table
 * captions are read for datasets only. bench/graph/diagnose.ts shows, for a gold set, where each missed edge is lost.
 */
import { splitSentences } from "@/lib/ingest/chunk";
import { notProse } from "@/lib/text/prose";
import { escapeRegExp } from "@/lib/text/regexp";
import { tokenize } from "@/lib/text/terms";
import { BROKEN_NAME_RIGHT, canonicalName, longFormFor, looksLikeAcronym } from "./normalize";
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

/** Lower-case words with a number that are no model's name ("top-5", "layer-12"). */
const LOWER_NOT_NAMES =
  /^(?:top|layer|layers|step|steps|round|epoch|stage|level|rank|hits|type|group|block|head|fold|shot|way|hop|n|k|pass|recall|precision|rouge|bleu|table|figure|section|appendix|eq|equation|fp|int|bf|float)-/;

/** Capitalised nouns that do not start a name but may continue one ("Natural Questions", "Blended Skill Talk"). */
const CONTINUATION_ONLY = new Set(
  (
    "english german french chinese japanese spanish russian arabic " +
    "model models method methods dataset datasets task tasks results result experiments experiment baseline " +
    "baselines approach approaches system systems work works paper papers question questions answer answers " +
    "new large small big open"
  ).split(" "),
);

/** Capitalised words that start sentences before a name without being part of it ("Recent Transformer models"). */
const SENTENCE_OPENERS = new Set(
  (
    "recent previous prior earlier later larger smaller modern standard existing current traditional classical " +
    "early other such several various different popular strong weak simple vanilla original typical common " +
    "despite although because whereas instead overall compared applying using training pretrained fine-tuned"
  ).split(" "),
);

/** Generic abbreviations that name a task, and with a plain word before them name one ("Knowledge QA"). */
const TASK_ABBREVIATIONS = new Set(["qa", "nli", "ir", "mt", "nmt", "asr"]);
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
  /** A lower-case name known only by the citation after it (`citedTermNames`). */
  cited?: boolean;
}

/** Replaces citations and bracketed references with spaces (offsets unchanged). */
export function maskCitations(s: string): string {
  const blank = (m: string) => " ".repeat(m.length);
  return (
    s
      .replace(/\[[\d,;\s–-]+\]/g, blank)
      .replace(/\((?:[^()]*?\bet al\.?|[^()]*?\b(?:19|20)\d{2}[a-z]?)[^()]*\)/g, blank)
      // "Vaswani et al. 2017", "Smith, 2019", "Smith and Jones (2020)": an author and a year; not a benchmark's name
      // and edition ("WMT 2014", "TREC WebTrack 2012", "TREC Robust 2004": an acronym, or a word in capitals after
      // one, is no author)
      .replace(
        /(?<!\b\p{Lu}{2}[\p{L}\d-]*\s)\b\p{Lu}\p{Ll}[\p{Ll}'’-]*(?:\p{Lu}\p{Ll}+)?(?:\s+(?:et al\.?|and\s+\p{Lu}\p{Ll}[\p{Ll}'’-]*(?:\p{Lu}\p{Ll}+)?))?(?:,\s*|\s+)\(?(?:19|20)\d{2}[a-z]?\)?/gu,
        blank,
      )
      .replace(/\b\p{Lu}[\p{L}'-]{1,40}\s+et al\.?/gu, blank)
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
    // "We use\nBART-large …": a line in the paper's voice, or ending on a short lower-case word, runs on
    // "Furthermore, RoBERTa consistently outperforms\nBERT …": a line with a long lower-case word is prose
    const runsOn =
      /^(?:we|our|in|this|these|it|they)\b/i.test(line) ||
      /\s\p{Ll}{1,4}$/u.test(line) ||
      /(?:^|\s)\p{Ll}[\p{Ll}-]{4,}(?:\s|$)/u.test(line);
    if (line.split(/\s+/).length <= 8 && !/[.,;:!?\-–]$/.test(line) && /^\p{Lu}/u.test(next) && !runsOn) cut = at + 1;
    else break;
  }
  return cut > 0 ? " ".repeat(cut) + raw.slice(cut) : raw;
}

function tokens(s: string): Token[] {
  const out: Token[] = [];
  for (const m of s.matchAll(/[^\s,;:()[\]"“”—]+/g)) {
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
  // "gpt-3.5-turbo", "text-davinci-003": a lower-case model name with a version
  if (/^[a-z]{2,}(?:-[a-z]+)*-\d[\w.]*(?:-[\w.]+)*$/.test(t)) return !LOWER_NOT_NAMES.test(t);
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
const VERSION = /^(?:v\d+(?:\.\d+)*|\d(?:\.\d{1,2})?|\d+(?:\.\d+)?[BMK])$/i;

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
    // a capitalised first word is a name only when the paper names it so (its method, an acronym it defines), or when
    // a capitalised noun follows it at once ("Vision Transformers outperform …")
    const second = ts[i + 1];
    const leads =
      t.start === first &&
      /^\p{Lu}\p{Ll}{2,}$/u.test(t.text) &&
      !/ly$/.test(t.text) &&
      !NOT_NAMES.has(t.text.toLowerCase()) &&
      !CONTINUATION_ONLY.has(t.text.toLowerCase()) &&
      !SENTENCE_OPENERS.has(t.text.toLowerCase()) &&
      second !== undefined &&
      masked.slice(t.end, second.start) === " " &&
      /^\p{Lu}\p{Ll}+(?:-\p{L}+)*$/u.test(second.text) &&
      !NOT_NAMES.has(second.text.toLowerCase()) &&
      !CONTINUATION_ONLY.has(second.text.toLowerCase());
    if (!leads && !nameLike(t.text, t.start === first && !known.has(t.text.toLowerCase()))) {
      i++;
      continue;
    }
    let j = i + 1;
    // the tokens joined across a hyphen the PDF's text broke: the name has no space there
    const unbroken = new Set<number>();
    while (j < ts.length) {
      const next = ts[j] as Token;
      const gap = masked.slice((ts[j - 1] as Token).end, next.start);
      if (!/^\s+$/.test(gap) || gap.length > 2) break;
      // "DeepSeek-R1 -Distill-Qwen-7B": a hyphenated name the PDF's text broke at the hyphen
      const brokenHyphen =
        /^\s{1,2}$/.test(gap) &&
        (/^-\p{L}/u.test(next.text) ||
          (/-$/.test((ts[j - 1] as Token).text) && BROKEN_NAME_RIGHT.test(`${gap}${next.text}`)));
      // "Wizard of Wikipedia", "Mixture of Experts": "of" between two capitalised words
      const after = ts[j + 1];
      const ofJoin =
        next.text === "of" &&
        after !== undefined &&
        /^\p{Lu}\p{Ll}+$/u.test((ts[j - 1] as Token).text) &&
        /^\p{Lu}\p{Ll}{2,}$/u.test(after.text) &&
        !NOT_NAMES.has(after.text.toLowerCase()) &&
        !CONTINUATION_ONLY.has(after.text.toLowerCase()) &&
        masked.slice(next.end, after.start) === " ";
      if (brokenHyphen) unbroken.add(j);
      if (ofJoin) j += 2;
      // "SQuAD 1.1" right after the name; an edition's year after any of its words ("TREC Robust 2004")
      else if (
        nameLike(next.text, false, true) ||
        brokenHyphen ||
        (VERSION.test(next.text) && j === i + 1) ||
        /^(?:19|20)\d{2}$/.test(next.text)
      )
        j++;
      else break;
    }
    // "PaLM-540B LLM", "DPR QA": a generic abbreviation after a name is not part of it; after a plain word it is
    // ("Knowledge QA", "Open-domain QA": the word alone names nothing)
    // ("Llama LLM", "Wikipedia API", "Nvidia GPUs" are still Llama, Wikipedia and Nvidia: only a task's abbreviation)
    const taskAfterPlain = (k: number) =>
      TASK_ABBREVIATIONS.has((ts[k - 1] as Token).text.toLowerCase()) &&
      /^\p{Lu}[\p{Ll}-]+$/u.test((ts[k - 2] as Token).text);
    while (j - i > 1 && GENERIC_ABBREVIATIONS.has((ts[j - 1] as Token).text.toLowerCase()) && !taskAfterPlain(j)) j--;
    const start = t.start;
    const whole = ts
      .slice(i, j)
      .map((x, k) =>
        k === 0
          ? x.text
          : `${unbroken.has(i + k) ? "" : masked.slice((ts[i + k - 1] as Token).end, x.start).replace(/\s+/g, " ")}${x.text}`,
      )
      .join("");
    // "BERT- and GPT-based models": the name a shared ending follows is without its hyphen
    const dangling = /[\p{L}\p{N}]-$/u.test(whole) ? 1 : 0;
    const name = whole.slice(0, whole.length - dangling);
    const end = (ts[j - 1] as Token).end - dangling;
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

/** The words after a name, a masked citation between them left out ("OpenBookQA (Mihaylov et al., 2018) dataset"). */
function textAfter(masked: string, end: number): string {
  return masked
    .slice(end, end + 120)
    .replace(/^\s*\(\s*\)/, " ")
    .replace(/\s+/g, " ")
    .slice(0, 40);
}

/** "TriviaQA open-domain question answering datasets": a few lower-case words, then the dataset noun. */
const DATASET_AFTER_WORDS = /^\s*(?:[\p{Ll}-]+\s+){1,3}(?:datasets?|benchmarks?|corpus|corpora|test sets?)\b/u;

/** The type the words around a name suggest, with how sure (votes are summed per entity over the library). */
export function typeHint(name: string, after: string, beforeAll: string): { type: GraphEntityType; weight: number } {
  // (the words right before the name: its end-anchored cues are read on the last 200 characters, not a whole sentence)
  const before = beforeAll.length > 200 ? beforeAll.slice(-200) : beforeAll;
  if (METRIC_NAME.test(name) || METRIC_AFTER.test(after) || /\bin terms of\s*$/i.test(before)) {
    return { type: "Metric", weight: 3 };
  }
  if (DATASET_AFTER.test(after) || /\b(?:trained|pre-?trained|fine-?tuned)\s+on\s+(?:the\s+)?$/i.test(before)) {
    return { type: "Dataset", weight: 3 };
  }
  if (
    DATASET_AFTER_WORDS.test(after) &&
    !/\b(?:on|of|for|in|with|and|or|the|a|an|to)\s/.test(after.split(/datasets?|benchmarks?|corp/)[0] ?? "")
  )
    return { type: "Dataset", weight: 2 };
  if (TASK_AFTER.test(after)) return { type: "Task", weight: 2 };
  if (MODEL_AFTER.test(after) || MODEL_SIZE.test(name)) return { type: "Model", weight: 1 };
  // no evidence either way: any cue elsewhere in the paper outweighs many bare mentions
  return { type: "Method", weight: 0.1 };
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
  /** The subject found before the verb must be the paper's own method ("we … using X"). */
  selfOnly?: boolean;
  /** The subject must be a name written before the verb (not "we", not a pronoun). */
  namedOnly?: boolean;
  /** …right before it ("GPT is trained on"), not one a coordinated verb follows ("as BERT-Base and are trained on"). */
  adjacent?: boolean;
  /** "we compare X and Y": the first name after the verb is the subject, the next ones the objects. */
  pairAfter?: boolean;
  /** What joins the pair's subject and object when not "and" ("applying X to Y"). */
  pairJoin?: RegExp;
  /** "from" may sit between verb and object ("we use a pre-trained bi-encoder from DPR"). */
  fromGap?: boolean;
  /** "Inspired by X, Y …": a verb at the sentence's start takes its subject after the objects. */
  fronted?: boolean;
  /** "X is faster than Y": not when the sentence negates it or also says slower or worse, nor when X is the object of
   *  another verb ("FlashAttention trains GPT-2 … faster than Megatron"). */
  comparative?: boolean;
}

/**
 * A clause that reports a result, opened by the paper ("we achieve", "our model reaches") or by a name ("LMSI
 * outperforms"): what a fronted "On D, …" / "For D, …" is data for.
 */
const RESULT_CLAUSE = String.raw`(?:we|our\s+(?:\S+\s+)?(?:model|method|system|approach)|\p{Lu}[\p{L}\d-]*)\s+(?:also\s+|\w+ly\s+)?(?:achiev\w*|obtain\w*|reach\w*|report\w*|sets?|get\w*|outperform\w*|improv\w*|match\w*)\b`;

const PATTERNS: Pattern[] = [
  {
    relation: "improves_on",
    verb: /\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beats?|improves?\s+(?:up)?on|improved\s+(?:up)?on|improving\s+upon|improv(?:e|es|ed|ing|ements?)\s+(?:\([^()]{1,30}\)\s+)?over|(?:is|are|was|were|performs?|does|do)\s+(?:\S+\s+){0,2}?(?:better than|superior to)|exceeds?|exceeded)\b/gi,
    confidence: 0.85,
  },
  { relation: "improves_on", verb: /\b(?:is|are|was|were)\s+outperformed\s+by\b/gi, confidence: 0.8, passive: true },
  // "SEAL achieves even higher results than GENRE", "FlashAttention is still 2× more efficient than Linformer": a
  // comparative that says better (not "lower accuracy", "higher error"), then "than"
  {
    relation: "improves_on",
    verb: /\b(?:better|faster|stronger|higher|more\s+(?:efficient|accurate|effective|robust|faithful|reliable|harmless|helpful|stable|truthful|precise|scalable|factual)|less\s+(?:expensive|costly|harmful|toxic))\s+(?!(?:\S+\s+)?(?:errors?|loss(?:es)?|perplexity|latency|costs?|memory|variance|runtime|wer|flops|toxicity|bias|complexity|compute|rates?|assumptions?)\b)(?:(?!than\b)[a-z\d.%-]+\s+){0,2}?than\b/gi,
    confidence: 0.75,
    reach: 20,
    namedOnly: true,
    comparative: true,
  },
  // "Primer improves the original T5 architecture": a method as object (a dataset or metric fails the type check)
  {
    relation: "improves_on",
    verb: /(?<![-\p{L}])(?:improves|improved)\b(?!\s+(?:(?:up)?on|over)\b)/giu,
    confidence: 0.7,
    reach: 25,
  },
  {
    relation: "extends",
    verb: /\b(?:extends|extended|is an extension of|generali[sz]es|builds\s+(?:up)?on|built\s+(?:up)?on|build\s+(?:up)?on|(?:is|are|was|were)\s+(?:a|an)\s+(?:\S+\s+)?(?:variant|extension|generali[sz]ation|modification)s?\s+of)\b/gi,
    confidence: 0.8,
  },
  // "Inspired by In-Context Learning, In-Context RALM …", "an objective, inspired by the Cloze task"
  {
    relation: "extends",
    verb: /\b(?:inspired\s+by|draws?\s+inspiration\s+from|drew\s+inspiration\s+from)\b/gi,
    confidence: 0.7,
    reach: 40,
    fronted: true,
  },
  {
    relation: "uses",
    verb: /\bwe\s+(?:also\s+|first\s+|then\s+|(?!(?:only|rarely|hardly|seldom|previously|merely|never|formerly)\b)\w+ly\s+)?(?:use|used|adopt|adopted|employ|employed|leverage|leveraged|utili[sz]e|utili[sz]ed|apply|applied|fine-?tune|fine-?tuned|finetune|finetuned)\b/gi,
    confidence: 0.75,
    selfSubject: true,
    reach: 60,
    fromGap: true,
  },
  // "we base our code lexer on the GPT-3 tokenizer"
  {
    relation: "uses",
    verb: /\bwe\s+(?:also\s+)?based?\s+(?:our|the|this)\s+(?:\S+\s+){0,3}?on\b/gi,
    confidence: 0.75,
    selfSubject: true,
    reach: 30,
  },
  // "We follow the conventions of … and use Adam for optimization": a second verb of the paper's own clause
  {
    relation: "uses",
    verb: /\band\s+(?:also\s+|then\s+)?(?:use|adopt|employ)\b/gi,
    confidence: 0.7,
    reach: 30,
    selfOnly: true,
  },
  // "DIVERSE employs DeBERTa as its verifier": a named method's own components, in the third person (not in the past
  // tense: "used" is as often a participle, "the most commonly used activation functions")
  {
    relation: "uses",
    verb: /\b(?:uses|employs|adopts|leverages|utili[sz]es|relies\s+on|is\s+initiali[sz]ed\s+(?:with|from))\b/gi,
    confidence: 0.7,
    reach: 30,
    namedOnly: true,
  },
  // "RoBERTa is pre-trained on CC-News": a training corpus is used
  {
    relation: "uses",
    verb: /\b(?:is|are|was|were|been)\s+(?:\w+ly\s+)?(?:pre-?trained|trained|fine-?tuned)\s+on\b/gi,
    confidence: 0.7,
    reach: 20,
    namedOnly: true,
    adjacent: true,
  },
  // "Our clustering algorithm is based on Gaussian Mixture Models", "we build the verifier based on InstructGPT"
  { relation: "uses", verb: /\bbased\s+on\b/gi, confidence: 0.7, reach: 40 },
  // "we verify our method using a pre-trained PaLM-540B": only in the paper's own voice
  { relation: "uses", verb: /\b(?:using|via|with the help of)\b/gi, confidence: 0.7, reach: 30, selfOnly: true },
  {
    relation: "uses",
    verb: /\b(?:initiali[sz]e|initiali[sz]ed|initiali[sz]ing)\s+(?:\S+\s+){0,4}?(?:with|from)\b/gi,
    confidence: 0.75,
    reach: 40,
  },
  {
    relation: "evaluates_on",
    verb: /\b(?:(?:evaluat(?:e|ed|ing|ions?)|test(?:ed)?|experiments?|results?|performance|effectiveness|efficacy|benchmark(?:ed)?|measure[sd]?|assess(?:es|ed)?|compute[sd]?)\s+(?:\S+\s+){0,3}?(?:on|across)|achiev(?:e|es|ed)\s+(?:\S+\s+){0,5}?on|(?<!\b(?:with|similar|the|of|F-?1|BLEU|ROUGE\S*)\s+)scor(?:es|ed)\s+(?:an?\s+(?:average\s+)?(?:of\s+)?)?\d[\d.,]*\s*%?\s+on)\b/gi,
    confidence: 0.75,
    targetType: "Dataset",
    reach: 30,
  },
  // "DPR outperforms BM25 on NQ and TriviaQA": who outperforms was evaluated on the data
  {
    relation: "evaluates_on",
    verb: /\b(?:outperform(?:s|ed)?|surpass(?:es|ed)?|improves?\s+(?:(?:up)?on|over)|beats?)\s+(?:[^\s.;,()]+\s+){1,5}?on\b/gi,
    confidence: 0.7,
    targetType: "Dataset",
    reach: 25,
  },
  // "For FEVER fact verification, we achieve results within 4.3% of …", "On SQuAD, our model reaches …": the data a
  // sentence opens with, then what the paper's method scores there
  {
    relation: "evaluates_on",
    verb: new RegExp(
      String.raw`^\s*(?:For|On)\s+(?!(?:each|every|all|both|these|those|this|that|some|any|more|most|example|instance|simplicity|brevity)\b)(?=(?:\s*[^\s,;.][^,;.]{1,59},){1,6}?\s*${RESULT_CLAUSE}\s+(?:\S+\s+){0,3}?(?:results?|scores?|numbers|accuracy|F1|EM|BLEU|ROUGE\S*|perplexity|performance|gains?|improvements?|state[- ]of[- ]the[- ]art|SOTA|\d[\d.,]*\s*%?|(?:an?\s+)?(?:new\s+)?(?:best|record))\b)`,
      "gu",
    ),
    confidence: 0.7,
    targetType: "Dataset",
    reach: 12,
    fronted: true,
  },
  // "We chose to experiment with MRPC and QQP"
  {
    relation: "evaluates_on",
    verb: /\bexperiment(?:s|ed)?\s+with\b/gi,
    confidence: 0.75,
    targetType: "Dataset",
    reach: 6,
  },
  // "applying BERT to the CoNLL-2003 Named Entity Recognition task": the applied method is evaluated on the task
  {
    relation: "evaluates_on",
    verb: /\bappl(?:y|ies|ied|ying)\b/gi,
    confidence: 0.7,
    targetType: "Dataset",
    reach: 20,
    pairAfter: true,
    pairJoin: /^\s+to\s+(?:the\s+)?$/,
  },
  {
    relation: "introduces",
    verb: /\bwe\s+(?:also\s+|further\s+)?(?:propose|proposed|introduce|introduced|present|presented|develop|developed|design|designed|release|released)\b/gi,
    confidence: 0.7,
    selfSubject: true,
    reach: 80,
  },
  // "we fine-tune Codex on … The resulting model, Codex-S, solves …": the paper's own variant
  {
    relation: "introduces",
    verb: /\b[Tt]he\s+resulting\s+(?:model|method|system|network|retriever|variant)s?\s*,/g,
    confidence: 0.7,
    selfSubject: true,
    reach: 4,
  },
  {
    relation: "compares_to",
    verb: /\b(?:compar(?:e|es|ed|ing)\s+(?:\S+\s+){0,3}?(?:with|to|against)|comparisons?\s+(?:\S+\s+){0,2}?(?:with|to|against)|in comparison (?:with|to)|comparable\s+(?:(?:performance|results|accuracy|quality)\s+)?(?:to|with)|benchmark(?:s|ed)?\s+(?:\S+\s+){0,3}?against|on par with|as (?:effective|good|accurate|strong) as|(?:performs?|performed) (?:similarly|comparably) (?:to|with)|(?:is|are|was|were)\s+(?:very\s+|also\s+)?close\s+to)\b/gi,
    confidence: 0.7,
    reach: 30,
  },
  // "Our baseline model is the biattentive classification network (BCN)", "Our baseline, the ESIM sequence model …":
  // the paper's method is compared with its baseline
  {
    relation: "compares_to",
    verb: /\b[Oo]ur\s+(?:[\p{Ll}-]+\s+){0,2}?baselines?(?:\s+[\p{Ll}-]+){0,2}?\s*(?:is|are|was|were|,|:)\s/gu,
    confidence: 0.7,
    selfSubject: true,
    reach: 60,
  },
  // "adding ELMo to the ESIM model improved accuracy by 0.7%": what is added improves on what it is added to
  {
    relation: "improves_on",
    verb: /\b(?:adding|add|adds|added)\b(?=[^.;]{0,100}?\b(?:improv(?:es|ed|ing)|increas(?:es|ed|ing)|boost(?:s|ed)?|raise[sd]?)\b(?!\s+(?:nothing|little|no|neither)\b))/gi,
    confidence: 0.7,
    reach: 10,
    pairAfter: true,
    pairJoin: /^\s+to\s+(?:the\s+|a\s+|an\s+)?$/,
  },
  // "MDHA is similar to Convolutional Attention"
  {
    relation: "compares_to",
    verb: /\b(?:is|are|was|were)\s+(?:very\s+|quite\s+|most\s+|closely\s+)?similar\s+to\b/gi,
    confidence: 0.7,
    reach: 20,
    namedOnly: true,
  },
  // "we compare SL-CAI models and RLHF models"
  {
    relation: "compares_to",
    verb: /\bwe\s+(?:also\s+)?compare\b(?!\s+(?:\S+\s+){0,3}?(?:with|to|against)\b)/gi,
    confidence: 0.7,
    reach: 30,
    pairAfter: true,
  },
];

/** "we propose / introduce …": lower-case names may follow (introducedPhrases). */
const INTRODUCING = /\bwe\s+(?:also\s+|further\s+)?(?:propose|introduce|present|develop|design)\b/i;

/** Any pattern's verb: sentences without one are not read for claims. */
// (a gate only: with `i`, a pattern's `\p{Lu}` matches any letter here, so it passes more than the patterns do)
const ANY_VERB = new RegExp(PATTERNS.map((p) => `(?:${p.verb.source})`).join("|"), "iu");

/** Formula symbols, markup and numbers are not names ("MLPϕ3", "SYMBOLIC_FORMULA", "Hit@1 ∆GRAG"). */
/** Hardware is not in the ontology ("We use NVIDIA Tesla V100"). */
const HARDWARE = /\b(?:GPUs?|TPUs?|CPUs?|NVIDIA|Tesla|[AHV]100|RTX|GTX|GeForce|processors?|Xeon|EPYC|SRAM|DRAM|HBM)\b/;
const ODD_NAME = /[_=<>∆↓↑ϕθΦΘαβγλ∈/]|^\d|^[A-Z]\.\d|^(?:Section|Appendix|Table|Figure)\b|^[A-Za-z]{1,2}$/u;
/** "Google-based", "ZeRO-powered", "BERT-like": an adjective made from a name, not the name. */
const NAME_ADJECTIVE =
  /-(?:based|powered|like|style|driven|aware|free|only|specific|level|wise|enhanced|augmented|guided)$/i;

/** Is the text before a name a list of names after a preposition ("… on IMDB, Yelp-2, and ")? */
function inPrepositionalList(before: string): boolean {
  if (!/(?:,|\band|\bor)\s*$/.test(before)) return false;
  // after "and"/"or" the nearest preposition ("by 16% and 5% on IMDB, Yelp-2, and …": "on", not "by"); after a
  // comma the first, so that "With the exception of SQuAD, DPR performs …" keeps DPR as the subject
  const all = [
    ...before.matchAll(/\b(?:on|in|of|for|at|with|by|from|over|across|than|including|among|amongst)\s+(?=[^.;]*$)/gi),
  ];
  const m = /\b(?:and|or)\s*$/.test(before) ? all[all.length - 1] : all[0];
  if (!m) return false;
  const list = before.slice((m.index ?? 0) + m[0].length);
  // "As shown in Table 2, RAG-Sequence outperforms …": a reference to a table ends the phrase
  if (/^(?:the\s+)?(?:Table|Tab|Figure|Fig|Section|Sec|Appendix|Eq|Equation)\b/i.test(list)) return false;
  // nothing but names, numbers, commas and "and"/"or" since the preposition
  return list.split(/[\s,]+/).every((w) => w === "" || /^(?:and|or|the)$/i.test(w) || !/^[a-z]/.test(w));
}

const PRECEDING_PREPOSITION = /\b(?:in|on|of|for|at|with|by|to|from|over|across|into|via|than)\s+(?:the\s+)?$/i;
/** More words a name is not the subject or object behind ("We present a comparison against DPR"). */
const MORE_PREPOSITIONS =
  /\b(?:about|against|using|between|like|versus|vs|under|without|through|per|including|among)\s+(?:the\s+)?$/i;
const GAP_PREPOSITION =
  /\b(?:in|on|of|for|at|with|by|to|from|over|across|under|into|via|within|without|between|among|after|before)\b/i;
/** Words that introduce the objects themselves: "including X", "such as X". */
const LISTING = /\b(?:including|such as|like|e\.g\.|namely|i\.e\.)/gi;

/** Words before a verb that undo or hedge the claim. */
const NEGATION =
  /\b(?:not|never|no|fails? to|failed to|cannot|can[’']t|doesn[’']t|don[’']t|didn[’']t|isn[’']t|aren[’']t|unable to)\s+(?:\S+\s+)?$/i;
/** Verbs of a guess ("we speculate that …"). */
const GUESSES = "conjecture|hypothes[ie][sz]e|speculate|suspect|presume";
const HEDGE = new RegExp(String.raw`\b(?:may|might|could|would|can|should|hope|expect|${GUESSES})\b`, "i");
/** "We speculate that X outperforms …": a guess before the claim's subject. */
const GUESSED = new RegExp(String.raw`\b(?:we|they)\s+(?:\w+ly\s+)?(?:${GUESSES}|believe|guess)\b`, "i");
const CLAUSE_BREAK = /[;]|\b(?:while|whereas|although|but|which|where|because|since)\b/i;

interface Side {
  name: string;
  self: boolean;
  start: number;
  end: number;
  /** The subject is a sentence-initial "It" for the name opening the sentence that starts here (page offset). */
  pronounFor?: number;
}

/** Where the clause breaks of the last sentence asked about end (a sentence's verbs all ask about the same one): found
 *  once a sentence instead of once a verb. */
const breakCache: { masked: string | null; ends: { start: number; end: number }[] } = { masked: null, ends: [] };
function subjectBefore(masked: string, names: NameSpan[], at: number, ownMethod: string | null): Side | null {
  const clauseStart = (() => {
    if (breakCache.masked !== masked) {
      breakCache.masked = masked;
      breakCache.ends = [...masked.matchAll(new RegExp(CLAUSE_BREAK.source, "gi"))].map((m) => ({
        start: m.index ?? 0,
        end: (m.index ?? 0) + m[0].length,
      }));
    }
    let cut = 0;
    // a break counts when it lies wholly before the verb (as in masked.slice(0, at))
    for (const b of breakCache.ends) {
      if (b.end > at) break;
      cut = b.end;
    }
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
  // the names of a list that ends in "and X" belong to the list too ("on IMDB, Yelp-2, Amazon-2, and Amazon-5")
  const lastName = names.filter((n) => n.end <= at && n.start >= clauseStart).pop();
  if (lastName && !before.includes(lastName)) {
    const ahead = masked.slice(Math.max(0, lastName.start - 80), lastName.start);
    if (/\b(?:and|or)\s*$/.test(ahead) && inPrepositionalList(ahead)) {
      const preps = [
        ...ahead.matchAll(/\b(?:on|in|of|for|at|with|by|from|over|across|than|including)\s+(?=[^.;]*$)/gi),
      ];
      const prep = preps[preps.length - 1];
      const listFrom = lastName.start - ahead.length + (prep?.index ?? ahead.length);
      for (const n of names.filter((x) => x.start >= listFrom && x.end <= lastName.start)) {
        const k = before.indexOf(n);
        if (k >= 0) before.splice(k, 1);
      }
    }
  }
  const last = before[before.length - 1];
  const selfRef = ownMethod ? lastMatch(masked.slice(clauseStart, at), SELF_REFERENCE) : null;
  if (selfRef && ownMethod && (!last || clauseStart + selfRef.index > last.end)) {
    return { name: ownMethod, self: true, start: clauseStart + selfRef.index, end: clauseStart + selfRef.end };
  }
  if (!last) {
    // "MULTIVERS, which is based on LongFormer": the name the relative clause hangs on
    const short = /^\s*(?:\S+(?:\s+\S+){0,2})?\s*$/.test(masked.slice(clauseStart, at));
    const rel = !short
      ? null
      : /([^\s,]+(?:\s[^\s,]+){0,3}),?\s+(?:which|that|who)\s+(?:\w+ly\s+)?(?:(?:is|are|was|were)\s+)?$/i.exec(
          masked.slice(Math.max(0, clauseStart - 60), at),
        );
    if (rel) {
      const relEnd = Math.max(0, clauseStart - 60) + (rel.index ?? 0) + (rel[1] as string).length;
      const head = names.find((n) => n.end === relEnd);
      if (head) return { name: head.name, self: false, start: head.start, end: head.end };
    }
    return null;
  }
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
function objectsAfter(
  masked: string,
  names: NameSpan[],
  at: number,
  reach: number,
  opts: { fromGap?: boolean } = {},
): NameSpan[] {
  const after = names.filter((n) => n.start >= at);
  const first = after[0];
  if (!first) return [];
  const gap = masked.slice(at, first.start);
  // "we use two fact-checking datasets that contain …: HOVER and FEVEROUS", "six datasets; MRPC, QQP", "two
  // datasets for academic search, AutoScholarQuery and …": the list the colon (or comma) announces
  const announced =
    /\b(?:datasets|benchmarks|tasks|corpora|collections|models|baselines|strategies|variants|methods|approaches|components)\b[^.;:]{0,100}[:;,]\s*$/i.test(
      gap,
    );
  // "comparisons … against existing dialogue models including the fine-tuned BlenderBot 1"
  const listing = /\b(?:including|such as)\s+(?:\S+\s+){0,3}$/i.test(gap);
  if (first.start - at > (announced ? 160 : listing ? Math.max(reach, 110) : reach)) return [];
  if (!announced) {
    if (CLAUSE_BREAK.test(gap) || /[.]/.test(gap) || ANY_VERB.test(gap)) return [];
    // "based on the context, and then calls X": another clause; "using either X or our Y": a choice, not a use
    if (/,\s+(?:and|then|but|so)\b|\beither\b/i.test(gap)) return [];
    // "using it as a “forget gate”": a likeness
    if (/\bas\s+(?:a|an|the)?\s*[“"‘]?$/i.test(gap)) return [];
    // "better than fine-tuning in model quality on RoBERTa": a name behind a preposition is context, not the object
    let rest = gap.replace(LISTING, " ");
    if (opts.fromGap) rest = rest.replace(/\bfrom\b/gi, " ");
    // "inspired by the success of In-Context Learning"
    rest = rest.replace(
      /^\s*(?:the\s+)?(?:\p{Ll}+\s+)?(?:success|idea|ideas|work|design|notion|principles?|concepts?)\s+of\b/iu,
      " ",
    );
    if (GAP_PREPOSITION.test(rest)) return [];
  }
  const out = [modifierOf(masked, first, after) ?? first];
  for (let i = after.indexOf(out[0] as NameSpan) + 1; i < after.length; i++) {
    const prev = out[out.length - 1] as NameSpan;
    const n = after[i] as NameSpan;
    // "GPT4 (gpt-4-0314) and ChatGPT (gpt-3.5-turbo-0301)": a name in parentheses after the one before is its version
    if (/^\s*\([^()]*$/.test(masked.slice(prev.end, n.start))) continue;
    // "ESIM+ELMo system by +27.1% and OpenAI GPT by 8.3%", "SL-CAI models and RLHF models"
    const between = masked
      .slice(prev.end, n.start)
      .replace(/^\s*\([^()]{1,60}\)/, " ")
      .replace(/^\s*(?:models?|methods?|systems?|variants?|baselines?|datasets?|benchmarks?)\b/i, " ")
      .replace(/^\s*by\s+[+-]?\d+(?:\.\d+)?\s*(?:%|points?)?/i, " ")
      // "outperforms ANCE on 14/18 and DPR on 17/18 datasets": a count of the datasets won
      .replace(/^\s*on\s+\d+\s*\/\s*\d+(?:\s+(?:datasets|tasks|benchmarks))?/i, " ")
      // "scores 72.6% on AIME 2024, 94.3% on MATH-500, and 57.2% on LiveCodeBench": each score's data
      .replace(/^\s*(?:,\s*|,?\s*and\s+)(?:and\s+)?\d+(?:\.\d+)?\s*%?\s+on\s*$/i, ", ");
    if (/^\s*(?:,\s*)?(?:and|or|as well as|versus|vs\.?)?\s*(?:the\s+)?$/.test(between) && between.trim().length > 0)
      out.push(n);
    else if (/^\s*,\s*$/.test(between)) out.push(n);
    else break;
  }
  return out;
}

/**
 * A name that only qualifies the next one stands for it: "the Multi-Hop reasoning benchmark MuSiQue" is MuSiQue, "the
 * DAE trained Transformer-XL" is Transformer-XL. Null when the name stands for itself.
 */
function modifierOf(masked: string, n: NameSpan, after: NameSpan[]): NameSpan | null {
  const next = after[after.indexOf(n) + 1];
  if (!next) return null;
  const between = masked.slice(n.end, next.start);
  if (
    /^\s+(?:[\p{Ll}-]+\s+){0,2}(?:benchmark|dataset|task|corpus)s?\s+$/u.test(between) ||
    /^\s+(?:trained|pre-?trained|fine-?tuned|initiali[sz]ed)\s+$/i.test(between)
  )
    return next;
  return null;
}

/** Category nouns after a lower-case name: "a novel light cross-attention technique" names "light cross-attention". */
const CATEGORY_HEAD = /^(?:technique|method|approach|algorithm|strategy|scheme|mechanism|procedure|framework)s?$/i;
/** Nouns that are part of a lower-case name: "a new judger transformer block". */
const PART_HEAD =
  /^(?:block|layer|module|objective|loss|encoder|decoder|attention|network|architecture|dataset|benchmark|corpus|metric|task|policy|tree|traversal|index|retriever|reader|generator|ranker|verifier)s?$/i;
const ADJECTIVES =
  /^(?:a|an|the|our|this|new|novel|simple|simpler|effective|efficient|general|unified|more|most|demanding|challenging|distinct|two|three|four|several|high-quality|large-scale|first|also|further|yet|comprehensive|automatic|automated|principled|lightweight|scalable|robust|flexible|practical|systematic|holistic|powerful|strong|alternative|generic|various|different|multiple)$/i;

/**
 * What the paper introduces when it has no capitalised name: a lower-case noun phrase after "we propose / introduce"
 * ("a new judger transformer block", "a novel session-level PPO algorithm", "the more demanding task of generating
 * Jeopardy questions", "two distinct strategies: tree traversal and collapsed tree").
 */
export function introducedPhrases(rest: string): { name: string; start: number; end: number }[] {
  const found = phrasesAfter(rest);
  // "a novel robust and heterogeneous benchmark called BEIR": a description of the named thing, not a name
  return found.some((f) => /^\s*,?\s*(?:called|named|dubbed|termed|coined)\b/i.test(rest.slice(f.end))) ? [] : found;
}

function phrasesAfter(rest: string): { name: string; start: number; end: number }[] {
  // "two distinct strategies: tree traversal and collapsed tree"
  const list =
    /^\s*(?:\S+\s+){0,3}?(?:strategies|variants|methods|approaches|components|modules|objectives|tasks|datasets|models)\s*:\s*([\p{Ll}][\p{Ll}-]*(?:\s+[\p{Ll}][\p{Ll}-]*){0,3})\s+and\s+([\p{Ll}][\p{Ll}-]*(?:\s+[\p{Ll}][\p{Ll}-]*){0,3})\s*[.,;]/u.exec(
      rest,
    );
  if (list) {
    const a = list[1] as string;
    const b = list[2] as string;
    const aAt = rest.indexOf(a, list[0].indexOf(":"));
    const bAt = rest.indexOf(b, aAt + a.length);
    if ([a, b].every((x) => x.split(/\s+/).length >= 2 && !/\b(?:the|a|an|of|in|on|to|for|we|our)\b/.test(x)))
      return [
        { name: a, start: aAt, end: aAt + a.length },
        { name: b, start: bAt, end: bAt + b.length },
      ];
  }
  // "the more demanding task of generating Jeopardy questions"
  const taskOf =
    /^\s*(?:\S+\s+){0,3}?task\s+of\s+(\p{Ll}+ing(?:\s+[\p{L}\d-]+){1,3}?)(?=\s*[.,;]|\s+(?:with|for|that|which|where|to|from|in|on)\b)/u.exec(
      rest,
    );
  if (taskOf) {
    const n = taskOf[1] as string;
    const at = rest.indexOf(n, taskOf[0].length - n.length - 1);
    return [{ name: n, start: at, end: at + n.length }];
  }
  // "a new judger transformer block", "a novel light cross-attention technique"
  const words = [...rest.slice(0, 100).matchAll(/\S+/g)];
  let i = 0;
  while (i < words.length && ADJECTIVES.test((words[i] as RegExpMatchArray)[0])) i++;
  const from = i;
  for (let j = i; j < Math.min(words.length, i + 4); j++) {
    const w = (words[j] as RegExpMatchArray)[0].replace(/[.,;:]$/, "");
    // "a new session-level PPO (Proximal Policy Optimization) training method": the name ends before the parenthesis
    if (w.startsWith("(") && j - from >= 2) {
      const first = words[from] as RegExpMatchArray;
      const last = words[j - 1] as RegExpMatchArray;
      const start = first.index ?? 0;
      return [
        { name: rest.slice(start, (last.index ?? 0) + last[0].length), start, end: (last.index ?? 0) + last[0].length },
      ];
    }
    if (!/^[\p{Ll}][\p{L}\d-]*$|^[\p{Lu}]{2,}$/u.test(w)) return [];
    const last = j === from ? null : (words[j - 1] as RegExpMatchArray);
    if (CATEGORY_HEAD.test(w) && last && j - from >= 1) {
      const first = words[from] as RegExpMatchArray;
      const start = first.index ?? 0;
      const end = (last.index ?? 0) + last[0].length;
      const name = rest.slice(start, end);
      // one plain word before the head ("a simple method") is no name; "cross-attention", "PPO" or two words are
      if (j - from === 1 && !/[-\d]|[\p{Lu}]{2}/u.test(name)) return [];
      return [{ name, start, end }];
    }
    if (PART_HEAD.test(w) && j - from >= 1) {
      const first = words[from] as RegExpMatchArray;
      const start = first.index ?? 0;
      const end = ((words[j] as RegExpMatchArray).index ?? 0) + w.length;
      const name = rest.slice(start, end);
      // "evaluation metrics" is a description; "judger transformer block", "self-refinement module" are names
      if (j - from < 2 && !/[-\d]|[\p{Lu}]{2}/u.test(name)) return [];
      return [{ name, start, end }];
    }
    if (/[.,;:]$/.test((words[j] as RegExpMatchArray)[0])) return [];
  }
  return [];
}

/** A sentence that opens in the paper's own voice ("We use …", "In this section we compare …"). */
const OUR_VOICE = /^\s*(?:\S+\s+){0,8}?we\s+\p{Ll}+/iu;

/**
 * Where the settings that follow a claim of ours begin ("… with β1 = 0.9, β2 = 0.98", "… of value ls = 0.1", "with a
 * beam size of 4 and length penalty α = 0.6"): the last "with", "of" or "," before the first token with "=" — when
 * the sentence opens in our voice and what comes before is prose. Else null.
 */
function settingsTail(flat: string, masked: string): number | null {
  if (!OUR_VOICE.test(masked)) return null;
  // (the token holding the first "=": found by index, not by a pattern that rescans a long token at every start)
  const at = flat.indexOf("=");
  if (at < 0) return null;
  const eq = Math.max(flat.lastIndexOf(" ", at), 0);
  const head = flat.slice(0, eq);
  let cut = -1;
  for (const m of head.matchAll(/\s(?:with|of)\s|,\s/g)) cut = m.index ?? cut;
  if (cut < 0) return null;
  // the claim itself must read as prose (however short)
  const shape = notProse(`${flat.slice(0, cut).trim()}.`, { strictLabelRuns: true });
  return shape === null || shape === "too_short" || shape === "no_verb" ? cut : null;
}

/** Words that never begin or make up a technique's lower-case name. */
const NOT_TECHNIQUE =
  /^(?:a|an|the|this|that|these|those|its|their|our|his|her|it|them|more|less|fewer|much|many|some|any|no|only|both|each|all|several|various|different|similar|same|other|such|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|hundreds?|thousands?|millions?|default|standard|original|additional|extra|new|and|or|of|to|in|on|for|as|at|by|with|from|into|than|which|who|what|we|information|something|nothing|anything|everything|training|learning|data|knowledge|computation|performance|examples?|(?:hyper)?parameters?|layers?|workers?|users?|numbers?|others?|members?|papers?|letters?|characters?|answers?|orders?|readers?|writers?|speakers?|annotators?|humans?|baselines?|state-of-the-art|zero-shot|few-shot|one-shot)$/i;

/**
 * What a named method uses when the text names it in lower case, right after the verb and without an article:
 * "IRCoT uses chain-of-thought to guide …", "trained using contrastive learning", "employ program executors to …".
 * A hyphenated term, or a phrase of two or three words whose last one names an activity or a device (-ing, -tion,
 * -ment, -er, -or, "retrieval", "search"); one plain word is no name.
 */
export function techniquePhrase(rest: string): { name: string; start: number; end: number } | null {
  const m =
    /^\s+((?:[\p{Ll}][\p{Ll}-]*\s+){0,2}[\p{Ll}][\p{Ll}-]*)(?=\s+(?:to|for|in|on|across|by|as|with|and|that|which|\(|\[)\b|\s*[,.;:)]|\s*$)/u.exec(
      rest,
    );
  if (!m) return null;
  const name = m[1] as string;
  const words = name.split(/\s+/);
  if (words.some((w) => NOT_TECHNIQUE.test(w) || /ly$/.test(w))) return null;
  const last = words[words.length - 1] as string;
  // "breadth-first and depth-first searches": a modifier shared by a coordinated phrase, not a name
  const hyphenated =
    /^\p{Ll}+(?:-\p{Ll}+){1,3}$/u.test(last) && words.length === 1 && !/^\s+(?:and|or)\b/.test(rest.slice(m[0].length));
  const head =
    (/(?:ing|tion|sion|ment|ers|ors|er|or)$/.test(last) && last.length >= 6) || /^(?:retrieval|search)$/.test(last);
  if (!hyphenated && !(head && words.length >= 2)) return null;
  const start = m[0].length - name.length;
  return { name, start, end: start + name.length };
}

/** Words around a name that make it a tool of the evaluation rather than its data. */
const INSTRUMENT_BEFORE =
  /\b(?:model|tool|library|interface|package|toolkit|implementation|metric|evaluator|judge)\s*[“"‘]?\s*$/i;
const INSTRUMENT_AFTER =
  /^\s*[”"’]?\s*(?:interface|tool|toolkit|model|models|library|implementation|package|API|metric|score|evaluator|judge|as (?:the |an? )?(?:judge|evaluator))\b/i;

/** "the OpenBookQA dataset", "the math problem set GSM8K", "a benchmark DROP": the name is a benchmark here. */
function benchmarkCue(masked: string, n: { start: number; end: number }): boolean {
  return (
    /\b(?:dataset|benchmark|problem set|test set)\s+(?:the\s+)?$/i.test(
      masked.slice(Math.max(0, n.start - 30), n.start),
    ) ||
    /^\s*(?:\(\s*\)\s*)?(?:dataset|datasets|benchmark|benchmarks|test set)\b/i.test(masked.slice(n.end, n.end + 40))
  );
}

const NOT_INTRODUCED =
  /\b(?:results?|experiments?|analys[ie]s|evaluations?|comparisons?|stud(?:y|ies)|details|examples?|ablations?|findings|overview|survey)\b/i;

/**
 * A name cut short by "and" inside a long form the paper defines ("Uniform Manifold Approximation and Projection
 * (UMAP)") stands for its acronym.
 */
function withAcronym(o: NameSpan, masked: string, acronyms: AcronymDefinition[]): NameSpan {
  const around = masked.slice(Math.max(0, o.start - 60), o.start + 120).toLowerCase();
  const at = Math.min(60, o.start);
  for (const a of acronyms) {
    const long = a.long.toLowerCase();
    if (long.length <= o.name.length) continue;
    // the name is a part of the long form ("Pre-trained Transformers" in "Open Pre-trained Transformers (OPT)")
    const inLong = long.indexOf(o.name.toLowerCase());
    if (inLong >= 0 && around.startsWith(long, at - inLong)) return { name: a.short, start: o.start, end: o.end };
  }
  return o;
}

/**
 * Names the capitalisation rule misses: the long form of an acronym the paper defines, written in lower case
 * ("reinforcement learning from human feedback" stands for RLHF), and a term in quotation marks ("a “masked language
 * model” objective"). Added where no other name is.
 */
export function withTermNames(names: NameSpan[], masked: string, acronyms: AcronymDefinition[]): NameSpan[] {
  const extra: NameSpan[] = [];
  const free = (start: number, end: number) =>
    !names.some((n) => n.start < end && n.end > start) && !extra.some((n) => n.start < end && n.end > start);
  const lower = masked.toLowerCase();
  for (const a of acronyms) {
    const long = a.long.toLowerCase();
    if (long.length < 6 || !(/\s/.test(long) || /-/.test(long))) continue;
    for (let at = lower.indexOf(long); at >= 0; at = lower.indexOf(long, at + 1)) {
      const end = at + long.length;
      if (/[\p{L}\d]/u.test(lower[at - 1] ?? " ") || /[\p{L}\d]/u.test(lower[end] ?? " ")) continue;
      if (free(at, end)) extra.push({ name: a.short, start: at, end });
    }
  }
  for (const m of masked.matchAll(/[“"‘]([\p{L}][\p{L}\d-]*(?:\s[\p{L}\d-]+){0,4})[”"’]/gu)) {
    const start = (m.index ?? 0) + 1;
    const name = m[1] as string;
    // a term of two or more words, or one with a hyphen ("chain-of-thought"); not a quoted phrase with verbs
    if (!/\s|-/.test(name) || /\b(?:is|are|was|were|be|the|a|an|to|we|it)\b/i.test(name)) continue;
    if (free(start, start + name.length)) extra.push({ name, start, end: start + name.length });
  }
  if (extra.length === 0) return names;
  return [...names, ...extra].sort((a, b) => a.start - b.start);
}

/** Words a cited lower-case name never starts with or holds: articles, prepositions, verbs of use, vague adjectives. */
const CITED_NOT_IN =
  /^(?:a|an|the|this|that|these|those|its|their|our|his|her|it|and|or|nor|of|to|in|on|for|as|at|by|with|from|into|than|via|which|who|whose|we|they|is|are|was|were|be|been|has|have|had|use|uses|used|using|adopt|adopts|adopted|employ|employs|employed|apply|applies|applied|follow|follows|followed|following|like|such|including|both|each|all|any|some|other|others|previous|prior|recent|existing|original|standard|default|common|popular|typical|conventional|above|below|several|many|various|different|similar|same|more|most|new|see|also|et|al|one|two|three|four|five|six|seven|eight|nine|ten)$/i;

/** Last words that make a cited phrase a kind of thing rather than its name ("prior work [3]", "language models (…)"). */
const CITED_GENERIC_HEAD =
  /^(?:work|works|study|studies|paper|papers|approach|approaches|method|methods|model|models|literature|research|results?|setting|settings|experiments?|baselines?|implementations?|code|datasets?|benchmarks?|analys[ie]s|tasks?|frameworks?|systems?|techniques?|ideas?|efforts?|findings|authors|researchers|line|lines|survey|surveys|details|evaluation|evaluations|metrics?|data|corpus|corpora|problems?|question|questions|observations?|training|learning|setups?|configurations?|procedures?|protocols?|practices?|recipes?|versions?|variants?|way|ways|manner|fashion|sense)$/i;

/**
 * Lower-case names the text marks by citing them: "we use nucleus sampling (Holtzman et al., 2020)", "followed by
 * layer normalization [1]", "a dual-encoder architecture (Bromley et al., 1994)" — the words right before a citation
 * (blanked in `masked`, present in `flat`), after the last article, preposition or verb: two to four words, or one
 * hyphenated word; not a kind of thing ("prior work [3]", "language models (…)"). Added where no other name is.
 */
export function citedTermNames(names: NameSpan[], flat: string, masked: string): NameSpan[] {
  const extra: NameSpan[] = [];
  for (let i = 1; i < masked.length; i++) {
    // a citation's first blanked character: blank in the mask, text in the sentence, after a space or a word
    if (masked[i] !== " " || flat[i] === " " || masked[i - 1] !== " " || flat[i - 1] !== " ") continue;
    // a numbered citation, or authors in parentheses: a bare year ("bench collaboration (2022)") may follow a name
    if (!/^(?:\[\s*\d|\([^)]{0,60}\p{Lu})/u.test(flat.slice(i, i + 64))) continue;
    const windowStart = Math.max(0, i - 80);
    // lower-case words that begin a word ("The layer normalization [1]" is "layer normalization", not "he layer …")
    const m = /(?<![\p{L}\d-])((?:\p{Ll}[\p{Ll}\d-]*\s+){0,5}\p{Ll}[\p{Ll}\d-]*)\s+$/u.exec(
      masked.slice(windowStart, i),
    );
    if (!m) continue;
    let words = (m[1] as string).split(/\s+/);
    // the window may begin inside a word: that word is not the phrase's
    if ((m.index ?? 0) === 0 && /[\p{L}\d-]/u.test(masked[windowStart - 1] ?? "")) words = words.slice(1);
    // the phrase: the words after the last article, preposition or verb of use ("we use nucleus sampling (…)")
    let from = words.length;
    while (from > 0 && !CITED_NOT_IN.test(words[from - 1] as string)) from--;
    const kept = words.slice(from);
    if (kept.length === 0 || kept.length > 4) continue;
    const last = kept[kept.length - 1] as string;
    if (CITED_GENERIC_HEAD.test(last)) continue;
    if (kept.length === 1 && !/^\p{Ll}+(?:-\p{Ll}+){1,3}$/u.test(last)) continue;
    const name = kept.join(" ");
    const start = windowStart + (m.index ?? 0) + (m[1] as string).length - name.length;
    // the phrase ends where its last word ends (one space before the citation)
    const end = start + name.length;
    if (masked.slice(start, end) !== name) continue;
    if (names.some((n) => n.start < end && n.end > start) || extra.some((n) => n.start < end && n.end > start))
      continue;
    extra.push({ name, start, end, cited: true });
  }
  if (extra.length === 0) return names;
  return [...names, ...extra].sort((a, b) => a.start - b.start);
}

/** The head of a task's lower-case name: what a cited phrase must end with to be evaluated on. */
const TASK_HEAD =
  /(?:answering|classification|recognition|generation|translation|parsing|tagging|retrieval|summari[sz]ation|reasoning|detection|segmentation|inference|resolution|labeling|labelling|verification|completion|modeling|modelling)$/;

/** The comma that ends a fronted list of data and opens the clause: ", LMSI outperforms", ", we achieve". */
const FRONTED_CLAUSE = new RegExp(String.raw`,\s*${RESULT_CLAUSE}`, "u");

/** A word by its first six letters, to compare with the title's: "dimension" and "dimensionality", "improved" and
 *  "improve". */
const prefix6 = (t: string) => t.slice(0, 6);

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
  const opening = [paper.abstract ?? "", ...paper.pages.slice(0, 2).map((p) => p.text)].join("\n");
  const flatOpening = opening.replace(/\s+/g, " ");
  // "a simple alternative, which we dub In-Context RALM": the paper names its method
  const dubbed =
    /\b[Ww]e\s+(?:dub|call|name|term)\s+(?:it\s+|them\s+|this\s+(?:\w+\s+)?|these\s+(?:\w+\s+)?|our\s+(?:\w+\s+)?)?([\p{Lu}][\p{L}\d-]*(?:\s+[\p{Lu}][\p{L}\d-]*){0,2})/u.exec(
      flatOpening,
    );
  if (dubbed && !NOT_NAMES.has((dubbed[1] as string).split(" ")[0]?.toLowerCase() ?? "")) {
    const name = dubbed[1] as string;
    if (/\p{Lu}/u.test(name.slice(1)) || /\d/.test(name)) return name;
  }
  // an acronym the first pages define whose long form is mostly the title's words: "Retrieval-Augmented Generation
  // for Knowledge-Intensive NLP Tasks" defines "retrieval-augmented generation (RAG)"
  const titleTerms = new Set(tokenize(title).map(prefix6));
  const defined = acronymDefinitions({ ...paper, pages: paper.pages.slice(0, 2) }).filter(
    (a) => !GENERIC_ABBREVIATIONS.has(a.short.toLowerCase()),
  );
  for (const a of defined) {
    const terms = tokenize(a.long).map(prefix6);
    if (terms.length >= 2 && terms.filter((t) => titleTerms.has(t)).length / terms.length >= 0.6) return a.short;
  }
  const propose =
    /\b[Ww]e\s+(?:propose|introduce|present)\s+(?:a|an|the)?\s*(?:[\p{Ll}-]+,?\s+){0,6}?(?:called|named|dubbed|termed)?\s*,?\s*(?:the\s+)?([\p{Lu}][\p{L}\d-]*(?:\s+[\p{Lu}][\p{L}\d-]*){0,2})/gu;
  for (const m of flatOpening.matchAll(propose)) {
    const name = (m[1] as string).trim();
    const first = name.split(" ")[0] as string;
    if (NOT_NAMES.has(first.toLowerCase())) continue;
    // "We present comprehensive experiments on ImageNet": a name behind a preposition is not what is presented
    const presented = m[0].slice(0, m[0].length - name.length);
    if (PRECEDING_PREPOSITION.test(presented) || MORE_PREPOSITIONS.test(presented)) continue;
    if (
      looksLikeAcronym(first) ||
      /\p{Lu}/u.test(first.slice(1)) ||
      /\d/.test(first) ||
      name.includes(" ") ||
      m[0].includes(",")
    ) {
      return name;
    }
    // "We introduce Codex, a GPT language model …": a plain capitalised word the paper describes in apposition and
    // goes on using
    const after = flatOpening.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 6);
    if (/^,\s+(?:a|an)\s/.test(after) && occurrences(paper, name) >= 5) return name;
  }
  return (
    acronymOfTitle(paper, title) ??
    definedByPaper(paper) ??
    quotedCoinage(paper, flatOpening, title) ??
    dominantAcronym(paper, defined, titleTerms) ??
    blendOfTitle(paper, title) ??
    studiedInTitle(paper, title)
  );
}

/** A name-shaped word: a capital first, and capitals inside or digits ("ResNet-101", "BERT", "GPT-3"). */
const NAME_SHAPED = /(?<![\p{L}\d-])\p{Lu}[\p{L}\d]*[\p{Lu}\d][\p{L}\d]*(?:-[\p{L}\d]+)*/gu;

/** Counts already made for a paper (the own-method fallbacks both ask). */
const namesCounted = new WeakMap<PaperText, Map<string, number>>();

/** The paper's name-shaped words and how often each occurs. */
function nameCounts(paper: PaperText): Map<string, number> {
  const known = namesCounted.get(paper);
  if (known) return known;
  const counts = new Map<string, number>();
  for (const p of paper.pages) {
    for (const m of p.text.matchAll(NAME_SHAPED)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  }
  namesCounted.set(paper, counts);
  return counts;
}

/**
 * "Deep Residual Learning for Image Recognition" names no method, but the paper calls its networks "ResNet",
 * "ResNets", "ResNet-34", "ResNet-101" (91 times in all): a blend whose first part begins a title word ("Res" of
 * "Residual") and that the paper uses, with its variants, at least 50 times — more than any other such name.
 */
function blendOfTitle(paper: PaperText, title: string): string | null {
  const words = title
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length >= 4);
  const families = new Map<string, number>();
  for (const [name, n] of nameCounts(paper)) {
    const m = /^(\p{Lu}\p{Ll}{2,})(\p{Lu}[\p{L}]*?)(?:s|-[\p{L}\d]+)?$/u.exec(name);
    if (!m) continue;
    const head = (m[1] as string).toLowerCase();
    const base = `${m[1]}${m[2]}`;
    // "Res" of "Residual"; not "Deep" of "Deeper" (a form of the word), nor a title word that is the blend itself
    // ("ImageNet" in a title about ImageNet)
    const begins = (w: string) =>
      w.startsWith(head) &&
      w.length - head.length >= 3 &&
      !/^(?:ers?|est|s|es|ly|ed|ing|ness)$/.test(w.slice(head.length)) &&
      !w.startsWith(base.toLowerCase());
    if (!words.some(begins)) continue;
    families.set(base, (families.get(base) ?? 0) + n);
  }
  const [top, next] = [...families].sort((a, b) => b[1] - a[1]);
  if (!top || top[1] < 50 || (next && next[1] * 2 > top[1])) return null;
  // a name the paper cites in its reference list is someone else's ("WordNet", "DeepSeek-V3")
  if (citedInReferences(paper, top[0])) return null;
  return top[0];
}

/** Does the name occur in the paper's reference list (its skipped spans)? */
function citedInReferences(paper: PaperText, name: string): boolean {
  const re = new RegExp(`(?<![\\p{L}\\d])${escapeRegExp(name)}`, "u");
  return (paper.skip ?? []).some((s) => {
    const text = paper.pages.find((p) => p.pageNumber === s.page)?.text ?? "";
    return re.test(text.slice(s.start, s.end));
  });
}

/** Titles that announce a study of something rather than a method. */
const STUDY_TITLE =
  /^(?:what|how|why|when|does|do|is|are|can)\b|\b(?:analys[ie]s|analy[sz]ing|probing|dissecting|understanding|investigating|interpreting|inside|study|look at)\b/i;

/**
 * "What Does BERT Look At? An Analysis of BERT's Attention": a paper about a model its title names. The title's one
 * name (capitals inside or digits) when it is the name the paper uses most — at least 30 times, and half again as
 * often as any other.
 */
function studiedInTitle(paper: PaperText, title: string): string | null {
  // a title that studies the model ("What Does BERT Look At?", "An Analysis of …", "Probing …"), not one that improves
  // on it ("Improving BERT with …": the paper's method is another) or rethinks a dataset
  if (!STUDY_TITLE.test(title) || /\b(?:improv|extend|enhanc|boost|compress|distill|augment)\w*/i.test(title))
    return null;
  const inTitle = [...new Set([...title.matchAll(NAME_SHAPED)].map((m) => m[0]))].filter(
    (n) => !GENERIC_ABBREVIATIONS.has(n.toLowerCase()) && !/^LLMs?$/.test(n),
  );
  if (inTitle.length !== 1) return null;
  const name = inTitle[0] as string;
  const [top, next] = [...nameCounts(paper)].sort((a, b) => b[1] - a[1]);
  if (!top || top[0] !== name || top[1] < 30 || (next && next[1] * 1.5 > top[1])) return null;
  return name;
}

/**
 * "An Image Is Worth 16x16 Words: Transformers for Image Recognition at Scale" names no method, but its abstract
 * defines "Vision Transformer (ViT)" and the paper says "ViT" 133 times: the acronym the first pages define whose long
 * form shares a word with the title, used at least 50 times and three times as often as any other acronym they define.
 */
function dominantAcronym(
  paper: PaperText,
  defined: AcronymDefinition[],
  titleTerms: ReadonlySet<string>,
): string | null {
  const uses = defined.map((a) => ({ a, n: occurrences(paper, a.short) })).sort((x, y) => y.n - x.n);
  const [top, next] = uses;
  if (!top || top.n < 50 || (next && top.n < 3 * next.n)) return null;
  return tokenize(top.a.long).some((t) => titleTerms.has(prefix6(t))) ? top.a.short : null;
}

/**
 * "Our more general solution, called “distillation”, …", "which we call “distillation”": a term the paper coins in
 * quotes in its first pages, on the title's topic (a word sharing its first five letters with a title word:
 * "distillation" and "Distilling"), and goes on using (at least five times).
 */
function quotedCoinage(paper: PaperText, opening: string, title: string): string | null {
  const stems = new Set(tokenize(title).map((t) => t.slice(0, 5)));
  for (const m of opening.matchAll(
    /\b(?:we\s+(?:call|dub|term|name)|(?:is\s+|are\s+)?(?:called|dubbed|termed|named))\s+(?:it\s+|this\s+)?[“"‘']([\p{L}][\p{L}\d -]{2,38}[\p{L}\d])[”"’']/gu,
  )) {
    const name = (m[1] as string).trim();
    if (name.split(" ").length > 3 || NOT_NAMES.has(name.toLowerCase())) continue;
    if (!tokenize(name).some((t) => stems.has(t.slice(0, 5)))) continue;
    if (occurrences(paper, name) >= 5) return name;
  }
  return null;
}

/** How often a name occurs in the paper's pages, as a whole word. */
/** Counts already made for a paper (the own-method rules ask about the same names, each count reads every page). */
const counted = new WeakMap<PaperText, Map<string, number>>();

function occurrences(paper: PaperText, name: string): number {
  let known = counted.get(paper);
  if (!known) {
    known = new Map();
    counted.set(paper, known);
  }
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  const re = new RegExp(`(?<![\\p{L}\\d])${escapeRegExp(name)}(?![\\p{L}\\d])`, "gu");
  let n = 0;
  for (const p of paper.pages) n += p.text.match(re)?.length ?? 0;
  known.set(name, n);
  return n;
}

/**
 * An acronym the first pages put in parentheses whose letters the title spells in order, each word-initial
 * ("Large Language Models Can Self-Improve" → "(LMSI)"), used again in the paper: the title's method by its short
 * name, when the PDF's text lost the long form before the parentheses.
 */
function acronymOfTitle(paper: PaperText, title: string): string | null {
  const words = title.split(/[\s-]+/).filter((w) => /^\p{L}/u.test(w));
  const initials = words.map((w) => (w[0] as string).toLowerCase()).join("");
  for (const page of paper.pages.slice(0, 2)) {
    for (const m of page.text.matchAll(/\(([\p{Lu}]{3,8})\)/gu)) {
      const short = m[1] as string;
      if (GENERIC_ABBREVIATIONS.has(short.toLowerCase())) continue;
      // its letters in order among the title's word initials
      let at = 0;
      for (const c of short.toLowerCase()) {
        at = at < 0 ? at : initials.indexOf(c, at);
        if (at >= 0) at++;
      }
      if (at > 0 && occurrences(paper, short) >= 5) return short;
    }
  }
  return null;
}

/**
 * "We define Structure-Aware Intrinsic Dimension (SAID) as …", "we propose … (XYZ)": an acronym the paper defines in
 * its own voice in its first pages and goes on using (at least five times).
 */
function definedByPaper(paper: PaperText): string | null {
  for (const page of paper.pages.slice(0, 4)) {
    const text = page.text.replace(/\s+/g, " ");
    for (const m of text.matchAll(
      /\bwe\s+(?:define|propose|introduce|present|call|name|term|dub)\s+(?:(?:a|an|the|our|this|it)\s+)?(?:[\p{L}-]+\s+){1,6}?\(([\p{Lu}][\p{L}\d-]{1,11})\)/giu,
    )) {
      const short = m[1] as string;
      if (!looksLikeAcronym(short) || GENERIC_ABBREVIATIONS.has(short.toLowerCase())) continue;
      if (occurrences(paper, short) >= 5) return short;
    }
  }
  return null;
}

/** Acronyms a paper defines in its text: "Dense Passage Retriever (DPR)". */
export function acronymDefinitions(paper: PaperText): AcronymDefinition[] {
  const out: AcronymDefinition[] = [];
  const seen = new Set<string>();
  for (const page of paper.pages) {
    const text = page.text.replace(/-[^\S\n]*\n\s*(?=\p{Ll})/gu, "").replace(/\s+/g, " ");
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
    // the name that begins the sentence before, and where that sentence starts: what a sentence-initial "It" stands for
    let previousLead: { name: string; sentenceStart: number } | null = null;
    for (const sentence of splitSentences(text)) {
      const leadBefore = previousLead;
      previousLead = null;
      if (inSkip(paper, page.pageNumber, sentence.start, sentence.end)) continue;
      const raw = text.slice(sentence.start, sentence.end);
      const flat = blankHeadingLines(raw).replace(/\s/g, " ");
      const caption = CAPTION.test(flat) || /\b(?:Table|Tab\.)\s*[A-Z]?\d+\s*[:.|]/.test(flat.slice(1));
      // table cells run into a caption ("BM25 57.3 49.9 … Table 5: Results on …"): only the caption is read
      const captionAt = flat.search(/\b(?:Table|Tab\.)\s*[A-Z]?\d+\s*[:.|]/);
      let masked = maskHeading(maskCitations(captionAt > 0 ? " ".repeat(captionAt) + flat.slice(captionAt) : flat));
      let names = citedTermNames(withTermNames(findNames(masked, known), masked, acronyms), flat, masked);
      const opening = names[0];
      // (only a sentence that names one thing: "SparseNet is outperformed by WidgetNet. It also …" is ambiguous)
      if (
        opening &&
        names.length === 1 &&
        /^\s*(?:The\s+)?$/.test(masked.slice(0, opening.start)) &&
        !/^\s*(?:['’]s\b|,|\()/.test(masked.slice(opening.end, opening.end + 3))
      )
        previousLead = { name: opening.name, sentenceStart: sentence.start };
      // mentions (co-occurrence, type votes) from every sentence outside the reference list, tables included
      for (const n of names) {
        mention(n.name, page.pageNumber, typeHint(n.name, textAfter(masked, n.end), masked.slice(0, n.start)));
      }
      if (!ANY_VERB.test(masked) || (names.length === 0 && !INTRODUCING.test(masked))) continue;
      // claims only from prose (and table captions): not from tables, formulas, author lists
      // (the pattern's verb is there: prose's own verb test does not know every form, "outperforms", "use")
      const shape = caption ? null : notProse(flat.trim(), { strictLabelRuns: true });
      // "We evaluate our model on 16 tasks: HellaSwag (…), StoryCloze (…), …", "we evaluate XLNet on the following
      // benchmarks: IMDB, Yelp-2, Yelp-5, DBpedia, AG, Amazon-2, and Amazon-5": a list of names in a sentence of ours
      const ourList =
        (shape === "no_function_words" || shape === "capitalised_run") &&
        OUR_VOICE.test(masked) &&
        // (not the names of the people an acknowledgement thanks)
        !/\bwe\s+(?:would\s+like\s+to\s+)?(?:thank|acknowledge|are\s+(?:very\s+)?grateful|gratefully)\b/i.test(masked);
      // "We used the Adam optimizer [20] with β1 = 0.9, β2 = 0.98 and ϵ = 10−9": a claim of ours in prose, then its
      // settings; only the prose before them is read
      const settings = shape === "symbols" || shape === "label_run" ? settingsTail(flat, masked) : null;
      if (settings !== null) {
        masked = masked.slice(0, settings) + " ".repeat(masked.length - settings);
        names = names.filter((n) => n.end <= settings);
      }
      if (shape !== null && shape !== "no_verb" && !ourList && settings === null) continue;
      // what the sentence as a whole says, read once a sentence rather than once a claim (a long sentence has many)
      let sentenceFacts: {
        digits: number;
        numbers: number;
        evaluation: boolean;
        training: boolean;
        ifEnd: number;
        guessEnd: number;
      } | null = null;
      const facts = () => {
        if (sentenceFacts) return sentenceFacts;
        const firstEnd = (re: RegExp) => {
          const m = re.exec(masked);
          return m ? m.index + m[0].length : Infinity;
        };
        sentenceFacts = {
          digits: (masked.match(/\d/g)?.length ?? 0) / Math.max(1, masked.replace(/\s/g, "").length),
          numbers: masked.split(/\s+/).filter((t) => /\d/.test(t) && !/\p{L}/u.test(t)).length,
          evaluation: /\b(?:evaluat\w*|benchmark\w*|test sets?|to (?:measure|assess|test))\b/i.test(masked),
          training:
            /\b(?:corpus|corpora|knowledge (?:sources?|bases?)|evidence|index(?:es)?|(?:pre-?)?train(?:ing|ed)? (?:data|set|sets|split|corpus|corpora|on)|pre-?training|fine-?tun\w*)\b/i.test(
              masked,
            ),
          ifEnd: firstEnd(/\b(?:if|whether|unless)\b/i),
          guessEnd: firstEnd(GUESSED),
        };
        return sentenceFacts;
      };
      for (const p of PATTERNS) {
        if (caption && p.relation !== "evaluates_on") continue;
        for (const v of masked.matchAll(p.verb)) {
          const at = v.index ?? 0;
          const verbEnd = at + v[0].length;
          if (NEGATION.test(masked.slice(Math.max(0, at - 30), at))) continue;
          let objects = objectsAfter(masked, names, verbEnd, p.reach ?? 60, { fromGap: p.fromGap })
            .map((o) => withAcronym(o, masked, acronyms))
            // "improves PaLM-2L performance", "outperforms BERT's results": the object is the performance, not the method
            .filter(
              (o) =>
                !/^(?:['’]s\b|\s+(?:performance|accuracy|results?|scores?|(?:speed )?records?)\b)/i.test(
                  masked.slice(o.end, o.end + 14),
                ),
            );
          // "we propose a new judger transformer block": a lower-case name the paper introduces
          let phrase = false;
          if (p.relation === "introduces") {
            const found = introducedPhrases(masked.slice(verbEnd)).map((n) => ({
              ...n,
              start: n.start + verbEnd,
              end: n.end + verbEnd,
            }));
            const head = objects[0];
            const far = head === undefined || head.start - verbEnd > 40;
            const within = head !== undefined && found.some((f) => f.start <= head.start && f.end >= head.end);
            if (found.length > 0 && (far || within)) {
              objects = found;
              phrase = true;
            }
          }
          let pairSubject: NameSpan | null = null;
          if (p.pairAfter) {
            pairSubject = objects[0] ?? null;
            if (p.pairJoin && pairSubject) {
              const first = pairSubject;
              const next = names.find((n) => n.start >= first.end);
              objects = next && p.pairJoin.test(masked.slice(first.end, next.start)) ? [next] : [];
            } else objects = objects.slice(1);
          }
          // "BART was more factual than RAG in only 7.1% of cases": a share of cases, not a claim that it is better
          if (
            p.relation === "improves_on" &&
            objects.some((o) => /^\s*(?:in|for)\s+only\b/i.test(masked.slice(o.end, o.end + 12)))
          )
            continue;
          // "the selected Title and Authors fields": parts of a record, not entities; "Gaussian kernels": an adjective
          objects = objects.filter(
            (o) =>
              !/^\s+(?:fields?|columns?|rows?|tokens?|tags?|headers?|keys?)\b/i.test(masked.slice(o.end, o.end + 10)) &&
              !(
                /^\p{Lu}\p{Ll}+(?:ian|ean|ic|al|ive|ous)$/u.test(o.name) &&
                /^\s+\p{Ll}/u.test(masked.slice(o.end, o.end + 3))
              ),
          );
          if (p.relation === "evaluates_on")
            objects = objects.filter(
              (o) =>
                // a lower-case phrase known by its citation is data only when it names a task
                (!o.cited || TASK_HEAD.test(o.name)) &&
                !/\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|multiple|various)\s+$/i.test(
                  masked.slice(Math.max(0, o.start - 12), o.start),
                ) &&
                !(
                  /^\p{Lu}\p{Ll}+$/u.test(o.name) &&
                  /^\s+\p{Ll}/u.test(masked.slice(o.end, o.end + 3)) &&
                  !DATASET_AFTER.test(textAfter(masked, o.end)) &&
                  !DATASET_AFTER_WORDS.test(textAfter(masked, o.end))
                ),
            );
          // "IRCoT uses chain-of-thought to guide …": a lower-case technique right after a named method's verb;
          // "LoRA performs on-par or better than fine-tuning", "scores higher than direct prompting": the same for what a
          // method is better than or compared with
          const bareObject =
            (p.relation === "uses" && (p.namedOnly || p.selfOnly || p.selfSubject)) ||
            ((p.relation === "improves_on" || p.relation === "compares_to") && !p.passive && !p.pairAfter);
          if (objects.length === 0 && bareObject) {
            const bare = techniquePhrase(masked.slice(verbEnd));
            if (bare) {
              objects = [{ ...bare, start: bare.start + verbEnd, end: bare.end + verbEnd }];
              phrase = true;
            }
          }
          if (objects.length === 0) continue;
          // "we use CoT to denote …": notation, not use
          const afterObject = masked.slice(objects[0]?.end ?? 0);
          if (p.relation === "uses" && /^\s*(?:\S+\s+)?to (?:denote|refer to|indicate|represent)\b/i.test(afterObject))
            continue;
          // "a Chrome-extension PDF reader … called CiteSee": the name comes after "called"
          if (p.relation === "introduces" && !phrase)
            objects = objects.filter(
              (o) => !/^[^.;:]{0,80}?\b(?:called|named|dubbed|termed)\s+\p{Lu}/u.test(masked.slice(o.end, o.end + 100)),
            );
          if (objects.length === 0) continue;
          // "we introduce an analysis of …": not something the paper introduces
          if (p.relation === "introduces" && NOT_INTRODUCED.test(masked.slice(verbEnd, objects[0]?.start))) continue;
          // "the resulting model, Codex-S": the paper's own variant only (not "in prior work, the resulting model, GPT-2")
          if (
            /\bresulting\b/i.test(v[0]) &&
            !(ownMethod && objects[0]?.name.toLowerCase().startsWith(ownMethod.toLowerCase()))
          )
            continue;
          // "we access the models via the OpenAI API": a service reached, not a method used
          if (/^via$/i.test(v[0]))
            objects = objects.filter(
              (o) =>
                !/^\s+(?:API|APIs|platform|website|service|interface|endpoint)\b/i.test(
                  masked.slice(o.end, o.end + 12),
                ),
            );
          if (objects.length === 0) continue;
          let subject: Side | null;
          // "we compare 500M parameter Primer to T5", "comparing “No NSP” to “LTR”": the name inside the verb phrase
          const inVerb =
            p.relation === "compares_to" && !p.pairAfter
              ? names.filter((n) => n.start > at && n.end < verbEnd).pop()
              : undefined;
          if (inVerb && !pairSubject) pairSubject = inVerb;
          const fronted = p.fronted && masked.slice(0, at).trim() === "";
          // "Inspired by X, Y …": the comma after X ends the objects; what follows it is the subject
          if (fronted) {
            const head = objects[0] as NameSpan;
            // "On ARC-c, OpenBookQA and ANLI-A3, LMSI outperforms …": a list of data ends at the comma before the clause
            const clause =
              p.relation === "evaluates_on" ? FRONTED_CLAUSE.exec(masked.slice(head.end))?.index : undefined;
            objects =
              clause === undefined
                ? objects.filter((o) => !masked.slice(head.end, o.start).includes(","))
                : objects.filter((o) => o.end <= head.end + clause);
          }
          if (pairSubject) {
            subject =
              ownMethod && canonicalName(pairSubject.name) === canonicalName(ownMethod)
                ? { ...pairSubject, self: true }
                : { ...pairSubject, self: false };
          } else if (fronted) {
            // "Inspired by X, Y refers to …", "Inspired by X, we propose …"
            const last = objects[objects.length - 1] as NameSpan;
            const listEnd = p.relation === "evaluates_on" ? FRONTED_CLAUSE.exec(masked.slice(last.end)) : null;
            const comma = listEnd ? last.end + listEnd.index : masked.indexOf(",", last.end);
            const next = comma < 0 ? undefined : names.find((n) => n.start > comma && n.start - comma <= 30);
            const we = comma < 0 ? null : /^\s*(?:we|our)\b/i.exec(masked.slice(comma + 1));
            subject = we
              ? ownMethod
                ? { name: ownMethod, self: true, start: comma, end: comma }
                : null
              : next
                ? { name: next.name, self: false, start: next.start, end: next.end }
                : null;
          } else if (p.selfSubject || caption) {
            subject = ownMethod ? { name: ownMethod, self: true, start: at, end: at } : null;
          } else if (leadBefore && /^\s*It\s+(?:(?:also|further|even|still|\w+ly)\s+)?$/.test(masked.slice(0, at))) {
            // "TAS-B provides the best zero-shot performance … It outperforms ANCE on 14/18": "It" opening the sentence
            // stands for the name that opened the one before
            subject = { name: leadBefore.name, self: false, start: at, end: at, pronounFor: leadBefore.sentenceStart };
          } else if (
            /\b(?:it|they|this|these|which|that|who)\s+(?:\w+ly\s+)?$/i.test(masked.slice(Math.max(0, at - 24), at))
          ) {
            // "We propose FlashAttention, an IO-aware exact attention algorithm that uses tiling": the name the
            // apposition describes; any other pronoun's referent is not resolved here
            const described = /,\s+(?:a|an)\s+[^,.;()]{0,60}?\s+(?:that|which)\s+(?:\w+ly\s+)?$/.exec(
              masked.slice(Math.max(0, at - 90), at),
            );
            const describedStart = described ? Math.max(0, at - 90) + described.index : -1;
            const head = described ? names.find((n) => n.end === describedStart) : undefined;
            subject = head ? { name: head.name, self: false, start: head.start, end: head.end } : null;
          } else if (/^\w+ing\b/i.test(v[0]) && /,\s*$/.test(masked.slice(0, at))) {
            // "FooNet achieves 55.5% on BarQA, surpassing BazNet": a participle after a comma has the clause's subject —
            // its first name not behind a preposition ("On BarQA, FooNet scores 80.1, outperforming BazNet"), or "we"
            const head = names.find(
              (n) => n.end <= at && !PRECEDING_PREPOSITION.test(masked.slice(Math.max(0, n.start - 12), n.start)),
            );
            const we = ownMethod ? lastMatch(masked.slice(0, head?.start ?? at), SELF_REFERENCE) : null;
            subject =
              we && ownMethod
                ? { name: ownMethod, self: true, start: we.index, end: we.end }
                : head
                  ? { name: head.name, self: false, start: head.start, end: head.end }
                  : null;
          } else {
            subject = subjectBefore(masked, names, at, ownMethod);
          }
          if (!subject) continue;
          if (!subject.self && ownMethod && canonicalName(subject.name) === canonicalName(ownMethod))
            subject = { ...subject, self: true };
          if (p.selfOnly && !subject.self) continue;
          // "Without our approach, re-ranking … using Vanilla BERT takes 2 s": what the paper's method does without
          if (subject.self && /\bwithout\s+(?:our|the|this)\b/i.test(masked.slice(0, at))) continue;
          // "we establish two baselines: … a fine-tuned LLM using LoRA": what the baselines use
          if (p.selfOnly && /\bbaselines?\b/i.test(masked.slice(0, at))) continue;
          // "For the baseline CNNs, we use ResNet": what the baselines are built from
          if (p.selfSubject && /^\s*For\s+(?:the|our|all)?\s*(?:\S+\s+)?baselines?\b/i.test(masked.slice(0, at)))
            continue;
          if (p.namedOnly && !subject.pronounFor && !names.some((n) => n.start === subject?.start)) continue;
          if (
            p.comparative &&
            (/\b(?:no|not|never|neither|nor|none)\b/i.test(masked.slice(0, at)) ||
              (/\b(?:slower|worse|weaker|lower|less)\b/i.test(masked) &&
                /\b(?:slower|worse|weaker|lower|less\s+\p{Ll}+)\s+(?:\S+\s+){0,2}?than\b/iu.test(
                  masked.slice(0, at) + " ".repeat(verbEnd - at) + masked.slice(verbEnd),
                )) ||
              /\b(?!(?:is|was|has|does|as|its|this|thus|whereas|plus|yes|\S*trained|\S*tuned|based)\s)\p{Ll}{2,}(?:s|ed)\s+(?:the\s+)?$/u.test(
                masked.slice(Math.max(0, subject.start - 24), subject.start),
              ))
          )
            continue;
          if (p.adjacent && (/\band\b|,/.test(masked.slice(subject.end, at)) || at - subject.end > 30)) continue;
          // "removing NSP hurts performance on QNLI": results and performance "on" D say who was evaluated only for the paper's own method
          if (
            p.relation === "evaluates_on" &&
            !subject.self &&
            !/^(?:evaluat|test|experiment|achiev|scor|outperform|surpass|improve|beat)/i.test(v[0])
          )
            continue;
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
          if (subject.pronounFor !== undefined) {
            confidence -= 0.1;
            note = "“It” for the name that opens the sentence before";
          }
          if (caption) {
            confidence = 0.65;
            note = "from a table caption";
          }
          const clause = masked.slice(Math.max(0, subject.start), verbEnd);
          // "may outperform", "if X outperforms", "We speculate that X outperforms …"
          if (HEDGE.test(clause) || facts().ifEnd <= at || facts().guessEnd <= at) {
            confidence = Math.min(confidence, 0.5);
            note = "hedged or conditional (may, could, if …)";
          }
          // numbers everywhere: table cells run into the sentence
          // (a short sentence with two scores, "outperforms ANCE on 14/18 and DPR on 17/18 datasets", is not a table)
          const { digits, numbers } = facts();
          if (digits > 0.12 && numbers >= 4) {
            confidence -= 0.25;
            note = "in text that looks like a table";
          }
          // "we use the X dataset to evaluate": an evaluation, not a component
          const evaluation = facts().evaluation;
          // "we use the OpenBookQA dataset", "we use the math problem set GSM8K": a benchmark, not training data
          // …unless it is data the method is built from: training data, a corpus, an index, a knowledge source
          const training = facts().training;
          // "we use both the SAID and DID methods": the paper's own method among the objects — a list of what it
          // studies, not what it is built from
          if (
            (p.relation === "uses" || p.relation === "introduces") &&
            ownMethod &&
            objects.some((o) => canonicalName(o.name) === canonicalName(ownMethod))
          )
            continue;
          for (const object of objects) {
            const [src, dst] = p.passive
              ? [{ name: object.name, self: false, start: object.start, end: object.end }, subject]
              : [subject, object];
            if (p.passive && subject.self) continue;
            if (canonicalName(src.name) === canonicalName(dst.name)) continue;
            if (
              ODD_NAME.test(src.name) ||
              ODD_NAME.test(dst.name) ||
              HARDWARE.test(dst.name) ||
              HARDWARE.test(src.name)
            )
              continue;
            if (NAME_ADJECTIVE.test(dst.name) || NAME_ADJECTIVE.test(src.name)) continue;
            // one capitalised common word ("Analysis", "Pruning", "Preliminary") is weak evidence of a named entity
            let sure = phrase ? Math.min(confidence, 0.65) : confidence;
            for (const side of [src, dst]) {
              if (
                !("self" in side && side.self) &&
                /^\p{Lu}\p{Ll}+(?:ing|ion|ions|sis|ment|ary|ness|ity|ure|al|ics|ible|able)$/u.test(side.name) &&
                !acronyms.some((a) => a.short === side.name)
              ) {
                sure -= 0.2;
              }
            }
            // "we introduce the RWKV network architecture": the paper's own method, not something it comes with
            if (
              p.relation === "introduces" &&
              ownMethod &&
              canonicalName(dst.name).replace(
                /(?: (?:network|model|architecture|framework|method|system|approach)s?)+$/,
                "",
              ) === canonicalName(ownMethod)
            )
              continue;
            const after = textAfter(masked, dst.end);
            const before = masked.slice(0, dst.start);
            const contextHint = typeHint(dst.name, after, before);
            // "we use StereoSet to measure …": what a paper uses to evaluate is a dataset, unless it is a metric or an
            // instrument ("the Python interface of the evaluation tool", "the model “text-davinci-003”")
            // (a type the pattern implies weighs less than a word beside the name: "the WidgetNet model")
            const instrument = INSTRUMENT_BEFORE.test(before.slice(-200)) || INSTRUMENT_AFTER.test(after);
            const targetHint = p.targetType
              ? { type: p.targetType, weight: 0.75 }
              : p.relation === "uses" &&
                  p.selfSubject &&
                  evaluation &&
                  !instrument &&
                  contextHint.type !== "Metric" &&
                  // "we use nucleus sampling (…) for all sampling evaluation": a cited technique, not data
                  !("cited" in dst && dst.cited && !TASK_HEAD.test(dst.name))
                ? { type: "Dataset" as const, weight: 0.75 }
                : contextHint;
            const sourceHint = typeHint(src.name, textAfter(masked, src.end), masked.slice(0, src.start));
            // "we use BERT-based rankers as baselines": a comparison, not a component
            const asBaseline = /^[^.;]{0,60}?\bas (?:\w+ ){0,2}baselines?\b/i.test(masked.slice(dst.end));
            // "we use a “next sentence prediction” task", "a “masked language model” (MLM) objective": a term the paper
            // puts in quotes as it names it is one it coins, not one it takes from elsewhere
            const coined =
              p.relation === "uses" &&
              "self" in src &&
              src.self &&
              !/\b(?:adopt|leverag|appl|employ)/i.test(v[0]) &&
              !INSTRUMENT_BEFORE.test(masked.slice(Math.max(0, dst.start - 20), Math.max(0, dst.start - 1))) &&
              // a phrase of words ("next sentence prediction"), not an identifier ("judge-003")
              (/^[“‘"]\p{L}+(?:[\s-]\p{L}+)+[”’"]?$/u.test(masked.slice(Math.max(0, dst.start - 1), dst.end).trim()) ||
                /[“‘"]\p{L}+(?:[\s-]\p{L}+)+[”’"]\s*\(\s*$/u.test(
                  masked.slice(Math.max(0, dst.start - 60), dst.start),
                )) &&
              // "the “listwise concatenation” proposed in [3]": quoted, but someone else's
              !/^[”’"]?\s*(?:\([^)]*\)\s*)?(?:,\s*)?(?:(?:as\s+)?(?:proposed|introduced|described|developed|defined|used)\s+(?:in|by)|from)\b/i.test(
                masked.slice(dst.end, dst.end + 40),
              );
            const relation: GraphRelation =
              p.relation === "uses" && asBaseline
                ? "compares_to"
                : coined
                  ? "introduces"
                  : p.relation === "uses" && evaluation && !training && targetHint.type === "Dataset"
                    ? "evaluates_on"
                    : p.relation;
            const focus = {
              start: sentence.start + Math.min(src.start, dst.start, at),
              end: sentence.start + Math.max(src.end, dst.end, verbEnd),
            };
            // the quote starts where the sentence does once the heading lines before it are left out
            const lead = masked.search(/\S/);
            // "It outperforms ANCE": the quote starts at the sentence that names what "It" stands for (a claim whose two
            // sentences do not fit in one quote is not made: the quote would not name its subject)
            if (subject.pronounFor !== undefined && sentence.end - subject.pronounFor > MAX_QUOTE_CHARS) continue;
            const from = subject.pronounFor ?? sentence.start + Math.max(0, lead);
            const span = quoteSpan({ start: from, end: sentence.end }, text, focus);
            candidates.push({
              relation,
              source: { name: src.name, type: src.self ? "Method" : sourceHint.type },
              target: { name: dst.name, type: targetHint.type },
              page: page.pageNumber,
              quote: text.slice(span.start, span.end),
              confidence: Math.max(0, Math.round(sure * 100) / 100),
              extractor: "rules",
              ...(note || sure < confidence ? { note: note ?? "a capitalised common word as a name" } : {}),
              ...(relation === "uses" &&
              p.selfSubject &&
              !training &&
              !instrument &&
              (evaluation || benchmarkCue(masked, dst))
                ? { evaluationContext: true }
                : {}),
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
