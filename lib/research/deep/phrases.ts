import { escapeRegExp } from "@/lib/text/regexp";
import { STOP_WORDS, stem, tokenize } from "@/lib/text/terms";
import { LIMITS } from "../limits";

/**
 * Key phrases of a question's evidence — the topics of a deep-research outline — and the rules that tell a topic from
 * filler. Everything here works on any library: function words and general-English filler are lists of the language,
 * not of a corpus; a library's own common words are caught by their document frequency (`Genericity`, given by the
 * caller); the rest is the words' shape (adverbs, participles, acronyms).
 */

/** Function words: never the first or last word of a key phrase ("of" may stand inside one: "mixture of experts"). */
const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  ...STOP_WORDS,
  ..."about above across after against along among around because before behind below beneath beside besides between beyond despite down during throughout amid amongst except inside like near off onto outside since toward towards upon within without whereas whose whereby although though unless whether cannot can't won't don't does doesn't let lets yet still even already always never also instead rather quite very really just may might must shall should could would can will one ones another any anything every everything none nothing something someone everyone all some many much few several various each both either such e.g i.e etc et al vs cf".split(
    " ",
  ),
]);

/**
 * Content words of general and academic English that name no topic on their own ("way", "set", "correct", "result",
 * "show", "approach"): a phrase made only of such words is filler, none of them is a keyword alone, and none starts or
 * ends a key phrase. Compared by stem, so every inflection is covered.
 */
const GENERIC_WORDS =
  "way thing part kind type sort lot set case example instance number amount level degree form term point aspect fact " +
  "side end time year day place area field group order rate range scale size step stage version value element item " +
  "detail basis base piece variety majority number deal manner respect regard terms means data information content " +
  "approach method methodology technique strategy framework model system mechanism procedure process scheme design " +
  "result finding outcome performance evaluation experiment experimental analysis study work paper research " +
  "researcher author section table figure fig appendix equation eq conclusion introduction discussion background " +
  "overview summary related future prior previous recent current existing traditional conventional standard typical " +
  "common general specific particular various several different similar same other many much more most less least " +
  "few whole entire overall main key important significant major minor new novel simple complex good better best bad " +
  "worse worst high higher highest low lower lowest large larger largest small smaller smallest big long short wide " +
  "broad strong weak able unable possible likely real true false correct incorrect right wrong full first second " +
  "third last next final initial early late additional further extra respective corresponding certain clear " +
  "use make take give get show find see note propose present introduce describe discuss demonstrate provide achieve " +
  "obtain allow enable require improve improvement increase decrease reduce outperform perform compare comparison " +
  "consider include follow leverage incorporate apply focus address help lead need want try tend seem become remain " +
  "contain consist involve exist call know base allow explore investigate examine observe report suggest indicate " +
  "evaluate assess measure conduct employ adopt utilize yield enhance ensure affect concern relate refer combine " +
  "produce create build generate compute contain vary differ depend rely operate add expand cover elaborate " +
  "explain please " +
  "ability capability effect effectiveness efficiency impact role purpose goal aim idea problem issue challenge " +
  "question answer solution task setting setup overview insight contribution advantage benefit limitation " +
  "additionally furthermore moreover however therefore thus hence indeed often usually generally typically " +
  "especially particularly respectively approximately nearly almost well thereby " +
  "zero one two three four five six seven eight nine ten hundred thousand million billion " +
  // prefixes written as words of a compound ("pre-training", "non-parametric"): the rest of it says what it is
  "pre post non multi semi sub co re cross inter intra anti meta";
const GENERIC_STEMS: ReadonlySet<string> = new Set(GENERIC_WORDS.split(" ").flatMap((w) => [w, stem(w)]));

/** A function word ("of", "the", "through"). */
export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word.toLowerCase());
}

/** How nouns made from verbs and adjectives end ("correction", "training", "consistency", "alignment"). */
const NOUN_ENDING = /(?:tion|sion|ment|ness|ity|ing|ance|ence|ancy|ency|ism|ure|ogy|sis|ization)$/i;
/** How adjectives usually end ("natural", "statistical", "generative", "robust" aside). */
const ADJECTIVE_ENDING = /(?:al|ic|ive|ous|ful|able|ible|ary|ent|ant|less|ed)$/i;

/** Words ending in -ly that are nouns, not adverbs. */
const LY_NOUNS = new Set(["anomaly", "assembly", "family", "supply", "monopoly", "italy", "butterfly", "reply"]);

/** The library's own common words: its document frequency, where the library is large enough to tell. */
export interface Genericity {
  /** True for a stem so common in the library's summaries that it names no sub-topic there. */
  common(stem: string): boolean;
  /** How specific a stem is in the library, in [0, 1] (1: rare or absent). */
  specificity(stem: string): number;
}

/** No library statistics: every word is as specific as its shape says. */
export const NO_LIBRARY: Genericity = { common: () => false, specificity: () => 1 };

/** Share of the library's summary passages a word may occur in before it is a common word of that library. */
export const COMMON_SHARE = 0.25;
/** Below this many summary passages, document frequencies say nothing (every word of two papers is "common"). */
export const MIN_ROWS_FOR_FREQUENCY = 20;

/** Genericity from document frequencies (`df`: passages containing each stem, of `total`). */
export function genericityFrom(df: ReadonlyMap<string, number>, total: number): Genericity {
  if (total < MIN_ROWS_FOR_FREQUENCY) return NO_LIBRARY;
  const idf = (s: string) => Math.log((total + 1) / ((df.get(s) ?? 0) + 1)) / Math.log(total + 1);
  return {
    common: (s) => (df.get(s) ?? 0) / total >= COMMON_SHARE,
    specificity: (s) => Math.max(0, Math.min(1, idf(s))),
  };
}

/**
 * A named method or acronym, by its shape as written: two capitals or more ("BERT", "LLMs", "RLHF"), a capital after a
 * small letter ("LoRA", "XLNet", "DeepSeek-R1"), or a capital with a digit ("T5"). Never a word in ordinary case.
 */
export function isNamedToken(token: string): boolean {
  // each part of a compound on its own: "Low-Rank" is two capitalised words, "Logic-LM" holds a name
  return token.split("-").some((part) => {
    if (part.length < 2 || !/\p{L}/u.test(part)) return false;
    if (/^[IVXLC]+$/.test(part) && part.length <= 4) return false; // roman numerals
    return /\p{Lu}.*\p{Lu}/u.test(part) || /\p{Ll}\p{Lu}/u.test(part) || /\p{Lu}\d/u.test(part);
  });
}

/** An acronym rather than a name in camel case: half its letters capitals or more ("LoRA", "STaR", not "FlashAttention"). */
export function isAcronym(token: string): boolean {
  const letters = token.replace(/[^\p{L}]/gu, "");
  const caps = letters.replace(/[^\p{Lu}]/gu, "");
  return caps.length >= 2 && caps.length / letters.length >= 0.5;
}

/** A word written as a proper name: a capital, then small letters only ("Transformer", "Kim"). */
function isCapitalised(word: string): boolean {
  return /^\p{Lu}[\p{Ll}\p{N}]*(?:-[\p{Ll}\p{N}]+)*$/u.test(word) && word.length > 1;
}

/** True for an adverb by its shape ("significantly", "consistently"). */
function isAdverb(word: string): boolean {
  const w = word.toLowerCase();
  return w.length > 4 && w.endsWith("ly") && !LY_NOUNS.has(w);
}

/** A word of general English that names no topic (by the list, or by its shape: an adverb). */
export function isFillerWord(word: string): boolean {
  const w = word.toLowerCase();
  if (FUNCTION_WORDS.has(w) || isAdverb(w)) return true;
  const stems = tokenize(w);
  return stems.length === 0 || stems.every((s) => GENERIC_STEMS.has(s));
}

/** A stem that names no topic: general filler, or common in this library. */
export function isGenericStem(s: string, library: Genericity = NO_LIBRARY): boolean {
  return GENERIC_STEMS.has(s) || library.common(s);
}

/** Can this word end a noun phrase? Not an adverb, a past participle or a typical adjective ("shown", "trained"). */
function canEndPhrase(word: string): boolean {
  const w = word.toLowerCase();
  if (isAdverb(w)) return false;
  if (/[^e]ed$/.test(w) && w.length > 4) return false;
  if (/(?:ous|ful|able|ible|ical|ral)$/.test(w) && w.length > 5) return false;
  return true;
}

/** Can this word start or end a key phrase at all? */
function boundaryWord(word: string): boolean {
  const w = word.toLowerCase();
  // a phrase starts and ends with a word, not a number or a footnote mark run into one ("1no")
  if (FUNCTION_WORDS.has(w) || w.length < 2 || !/^\p{L}/u.test(w)) return false;
  return !isFillerWord(w) || isNamedToken(word);
}

/**
 * Is a topic generic — one ordinary word ("Data", "Correct", "Layers"), or only filler and library-common words
 * ("Experimental results", "Language models")? A single word passes only when it is named (`isNamedToken`, as written)
 * or a compound of two specific parts ("self-correction").
 */
export function isGenericTopic(topic: string, library: Genericity = NO_LIBRARY): boolean {
  const content = wordsOf(topic).filter((w) => !FUNCTION_WORDS.has(w.toLowerCase()));
  if (content.length === 0) return true;
  const generic = (w: string) => {
    const stems = tokenize(w);
    return stems.length === 0 || stems.every((s) => isGenericStem(s, library));
  };
  if (content.some((w) => isNamedToken(w) && !generic(w))) return false;
  const stems = content.flatMap((w) => tokenize(w));
  if (stems.length < 2) return true;
  // one compound word: a noun of two specific parts ("self-correction"), not a modifier ("few-shot", "post-hoc")
  if (content.length === 1) return generic(content[0] as string) || !NOUN_ENDING.test(content[0] as string);
  // filler and adjectives around a filler or library-common head: "natural language", "experimental results"
  const head = content[content.length - 1] as string;
  return generic(head) && content.slice(0, -1).every((w) => generic(w) || ADJECTIVE_ENDING.test(w));
}

/**
 * Keywords without filler: a keyword made only of filler or library-common words goes ("way", "correct", "set"), as
 * does one whose words another keyword already has; named tokens stay. Order kept.
 */
export function cleanKeywords(keywords: string[], library: Genericity = NO_LIBRARY): string[] {
  const kept: { k: string; stems: string[]; named: boolean }[] = [];
  for (const raw of keywords) {
    const k = raw.replace(/\s+/g, " ").trim();
    if (!k) continue;
    const stems = tokenize(k);
    const named = wordsOf(k).some(isNamedToken);
    if (!named && (stems.length === 0 || stems.every((s) => isGenericStem(s, library)))) continue;
    const key = stems.join(" ") || k.toLowerCase();
    if (kept.some((o) => (o.stems.join(" ") || o.k.toLowerCase()) === key)) continue;
    kept.push({ k, stems, named });
  }
  // a word another keyword holds adds nothing ("layers" beside "adapter layers"); names stay
  return kept
    .filter(
      (a) =>
        a.named ||
        !kept.some((b) => b !== a && b.stems.length > a.stems.length && a.stems.every((s) => b.stems.includes(s))),
    )
    .map((a) => a.k);
}

/** Where a text comes from: titles and section headings name topics more reliably than running text. */
export type PhraseSourceKind = "title" | "heading" | "passage";

export interface PhraseSource {
  text: string;
  kind: PhraseSourceKind;
  /** The paper it belongs to (a phrase several papers use is a topic of the library, not one paper's jargon). */
  paperId: string;
  /** How well it matches the question, in [0, 1] (its retrieval relevance); 1 when unknown. */
  weight?: number;
}

export interface KeyPhrase {
  /** As written, acronyms and names kept ("self-correcting LLMs", "Transformer"); not sentence-cased. */
  text: string;
  /** Stems of its words (for matching and grouping). */
  stems: string[];
  /** Sources (by index) it occurs in. */
  docs: Set<number>;
  /** Papers it occurs in. */
  papers: Set<string>;
  /** It occurs in a title or a section heading. */
  named: boolean;
  score: number;
}

/** How a line is cased: prose tells how a word is written; titles and all-capital headings do not. */
function lineCase(line: string): "prose" | "title" | "caps" {
  const letters = line.replace(/[^\p{L}]/gu, "");
  if (letters.length >= 4 && letters.replace(/[^\p{Lu}]/gu, "").length / letters.length > 0.8) return "caps";
  const long = (line.match(/\p{L}{4,}/gu) ?? []).filter((w) => !FUNCTION_WORDS.has(w.toLowerCase()));
  if (long.length >= 3 && long.filter((w) => /^\p{Lu}/u.test(w)).length / long.length >= 0.7) return "title";
  return "prose";
}

/**
 * Is a line of a passage running text? A table row, a figure's labels or an author list has five words or more and not
 * one function word; wrapped prose has some on every line.
 */
function isProse(line: string): boolean {
  const words = line.match(/\p{L}+/gu) ?? [];
  return words.length < 5 || words.some((w) => GLUE_WORDS.has(w.toLowerCase()));
}

/** The words running English cannot do without for long (a citation's "et al." is not among them). */
const GLUE_WORDS = new Set(
  "a an the of to in on for with by from as at and or but is are was were be been that this these which it its we our".split(
    " ",
  ),
);

/** Words of a clause: letters and digits, hyphenated compounds kept whole ("multi-agent", "GPT-3"). */
const WORD = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
/** Clause boundaries: punctuation, brackets, quotes, dashes, bullets (phrases never cross them). */
const CLAUSE = /[.,;:!?()[\]{}"“”'‘’…•·|*_=+<>/\\–—›»]+|\s-\s/u;

/** The words of a text, hyphenated compounds whole. */
export function wordsOf(text: string): string[] {
  return text.normalize("NFKC").match(WORD) ?? [];
}

export interface Occurrence {
  forms: Map<string, number>;
  docs: Set<number>;
  /** The clauses it occurs in (a summary repeats its paper's abstract: the same clause twice is one use). */
  contexts: Set<string>;
  weight: number;
  papers: Set<string>;
  stems: string[];
  named: boolean;
}

/** Case votes per lower-cased word: how it is written mid-sentence in prose, and in titles. */
export class CaseVotes {
  private prose = new Map<string, Map<string, number>>();
  private titles = new Map<string, Map<string, number>>();
  /** Times each word was seen in small letters, anywhere. */
  private lower = new Map<string, number>();

  vote(word: string, lower: string, where: "prose" | "title" | "none") {
    if (word === lower) this.lower.set(lower, (this.lower.get(lower) ?? 0) + 1);
    if (where === "none") return;
    const table = where === "prose" ? this.prose : this.titles;
    const forms = table.get(lower) ?? new Map<string, number>();
    forms.set(word, (forms.get(word) ?? 0) + 1);
    table.set(lower, forms);
  }

  /**
   * The word as it is usually written: an acronym or a name as written in prose (most of its mid-sentence uses), else
   * a named form from a title ("LoRA" in "LoRA: Low-Rank Adaptation…"), else lower case. A word in capitals that is
   * also written in small letters is a heading's, not an acronym ("PROMPTING").
   */
  /** Written with a capital wherever it occurs, never in small letters: a proper name ("Piktus", "Wikipedia"). */
  proper(lower: string): boolean {
    if ((this.lower.get(lower) ?? 0) > 0) return false;
    const forms = [...(this.prose.get(lower)?.keys() ?? []), ...(this.titles.get(lower)?.keys() ?? [])];
    return forms.length > 0 && forms.every((f) => isCapitalised(f));
  }

  form(lower: string): string {
    const written = this.written(lower);
    if (written !== lower && !/\p{Ll}/u.test(written) && (this.lower.get(lower) ?? 0) >= 2) return lower;
    return written;
  }

  private written(lower: string): string {
    const prose = this.prose.get(lower);
    if (prose && prose.size > 0) {
      let total = 0;
      let best = lower;
      let bestN = 0;
      for (const [f, n] of prose) {
        total += n;
        if (n > bestN) [best, bestN] = [f, n];
      }
      // a name as written most of the time; a capitalised word (a proper name) almost always
      if (best === lower) return lower;
      if (isNamedToken(best)) return bestN / total >= 0.5 ? best : lower;
      return bestN >= 3 && bestN / total >= 0.75 ? best : lower;
    }
    const titled = [...(this.titles.get(lower) ?? new Map<string, number>()).entries()]
      .filter(([f]) => isNamedToken(f))
      .sort((a, b) => b[1] - a[1]);
    return titled[0]?.[0] ?? lower;
  }
}

/** What the phrase finder needs to know of a word, worked out once per distinct word. */
interface WordInfo {
  lower: string;
  stems: string[];
  /** May start or end a phrase. */
  boundary: boolean;
  /** May end a phrase. */
  end: boolean;
  /** May stand inside a phrase. */
  inner: boolean;
  named: boolean;
}

function wordInfo(cache: Map<string, WordInfo>, word: string): WordInfo {
  const cached = cache.get(word);
  if (cached) return cached;
  const lower = word.toLowerCase();
  const info: WordInfo = {
    lower,
    stems: tokenize(lower),
    boundary: boundaryWord(word),
    end: canEndPhrase(word),
    // inside a phrase only "of" among the function words ("chain of thought"), never a bare number
    inner: !(FUNCTION_WORDS.has(lower) && lower !== "of") && !/^\d+$/.test(word),
    named: isNamedToken(word),
  };
  cache.set(word, info);
  return info;
}

export interface KeyPhraseOptions {
  max?: number;
  /** Phrases all of whose stems are among these are left out (the question's own words, as `tokenize` gives them). */
  excludeStems?: string[];
  library?: Genericity;
}

/** The texts a phrase list is built from, and the casing its words were seen in. */
export interface PhraseIndex {
  phrases: KeyPhrase[];
  /** A word as it is usually written in these sources (see `CaseVotes.form`). */
  form(lowerWord: string): string;
}

/** Every candidate phrase of a set of sources, with where it occurs and how its words are written. */
export interface PhraseCandidates {
  found: Map<string, Occurrence>;
  cases: CaseVotes;
}

/**
 * The candidate phrases of a set of sources: runs of 1–4 words (hyphenated compounds are one word) that start and end
 * with a content word — single words only when named ("LoRA") or compound ("self-correction").
 */
export function collectPhrases(sources: PhraseSource[]): PhraseCandidates {
  const found = new Map<string, Occurrence>();
  const cases = new CaseVotes();
  const infos = new Map<string, WordInfo>();
  sources.forEach((source, di) => {
    const text = source.text.normalize("NFKC").replace(/(\p{Ll})-\s*\n\s*(\p{Ll})/gu, "$1$2");
    // the words of the whole text, lines joined: a phrase's context is the same wherever a line happens to break
    // (a summary repeats its paper's abstract with other line ends)
    const flat = (text.match(WORD) ?? []).map((w) => w.toLowerCase());
    let at = 0;
    for (const line of text.split(/\n+/)) {
      const lineWords = line.match(WORD)?.length ?? 0;
      const lineStart = at;
      at += lineWords;
      if (source.kind === "passage" && !isProse(line)) continue;
      let clauseStart = lineStart;
      const casing = source.kind === "heading" ? "caps" : lineCase(line);
      for (const clause of line.split(CLAUSE)) {
        const raw = clause.match(WORD);
        if (!raw) continue;
        const start = clauseStart;
        clauseStart += raw.length;
        const words = raw.map((w) => wordInfo(infos, w));
        raw.forEach((w, i) => {
          // the first word of a clause is capitalised by position, not by name
          const info = words[i] as WordInfo;
          const where =
            casing === "prose" && i > 0
              ? "prose"
              : casing === "title" || (casing === "prose" && info.named)
                ? "title"
                : "none";
          cases.vote(w, info.lower, where);
        });
        for (let i = 0; i < words.length; i++) {
          const first = words[i] as WordInfo;
          if (!first.boundary) continue;
          let stems: string[] = [];
          for (let n = 1; n <= 4 && i + n <= words.length; n++) {
            const last = words[i + n - 1] as WordInfo;
            if (n > 2 && !(words[i + n - 2] as WordInfo).inner) break;
            stems = n === 1 ? last.stems : [...stems, ...last.stems];
            if (stems.length > 6) break;
            if (!last.boundary || !last.end || stems.length === 0) continue;
            // one word: a name as written, or a compound of two stems or more
            const named = n === 1 && first.named;
            if (n === 1 && !named && stems.length < 2) continue;
            const key = stems.join(" ");
            let entry = found.get(key);
            if (!entry) {
              entry = {
                forms: new Map(),
                docs: new Set(),
                contexts: new Set(),
                weight: 0,
                papers: new Set(),
                stems,
                named: false,
              };
              found.set(key, entry);
            }
            // where it stands: the words around it, two either side
            const context = flat.slice(Math.max(0, start + i - 2), start + i + n + 2).join(" ");
            if (!entry.contexts.has(context)) {
              entry.contexts.add(context);
              entry.weight += source.weight ?? 1;
            }
            entry.docs.add(di);
            entry.papers.add(source.paperId);
            if (source.kind !== "passage") entry.named = true;
            let form = first.lower;
            for (let k = 1; k < n; k++) form += ` ${(words[i + k] as WordInfo).lower}`;
            entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
          }
        }
      }
    }
  });
  return { found, cases };
}

/** The stems of the most-used candidates (in two sources or more): the words worth a document-frequency lookup. */
export function candidateStems({ found }: PhraseCandidates, limit: number): string[] {
  const used = [...found.values()].filter((e) => e.contexts.size >= 2).sort((a, b) => b.weight - a.weight);
  const out = new Set<string>();
  for (const e of used) {
    for (const s of e.stems) out.add(s);
    if (out.size >= limit) break;
  }
  return [...out];
}

/**
 * Key phrases of a set of sources: runs of 1–4 words (hyphenated compounds are one word) that start and end with a
 * content word and name something — multi-word phrases with at least one specific word, and single words only when
 * named ("LoRA") or compound ("self-correction"). A phrase must occur in two sources at least. Scored by the sources
 * and papers that use it, its length, titles and headings, and how specific its rarest word is in the library; a
 * phrase inside a better one is dropped.
 */
export function rankPhrases({ found, cases }: PhraseCandidates, options: KeyPhraseOptions = {}): PhraseIndex {
  const { max = 20, excludeStems = [], library = NO_LIBRARY } = options;
  const excluded = [...new Set(excludeStems)];
  const form = (lower: string) => cases.form(lower);
  const scored: KeyPhrase[] = [];
  for (const e of found.values()) {
    // used twice at least, in different clauses: one sentence's wording is not a topic
    if (e.contexts.size < 2) continue;
    // the question's own words are what every passage shares: not a sub-topic
    if (e.stems.every((s) => excluded.some((x) => sameStem(s, x)))) continue;
    const lowerForm = [...e.forms.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
    const words = lowerForm.split(" ").map(form);
    const written = words.join(" ");
    if (isGenericTopic(written, library)) continue;
    // mostly proper names: a person or a place ("Tjong Kim Sang"), not a topic
    const lowers = lowerForm.split(" ");
    if (lowers.filter((w, i) => isCapitalised(words[i] as string) || cases.proper(w)).length * 2 > lowers.length)
      continue;
    const specificity = Math.max(...e.stems.map((s) => (GENERIC_STEMS.has(s) ? 0 : library.specificity(s))));
    const length = 1 + 0.6 * (Math.min(e.stems.length, 4) - 1);
    const breadth = 1 + 0.25 * (Math.min(e.papers.size, 5) - 1);
    const score = e.weight * breadth * length * (e.named ? 1.5 : 1) * (0.4 + 0.6 * specificity);
    scored.push({ text: written, stems: e.stems, docs: e.docs, papers: e.papers, named: e.named, score });
  }
  scored.sort((a, b) => b.score - a.score || b.stems.length - a.stems.length || a.text.localeCompare(b.text));
  const out: KeyPhrase[] = [];
  for (const p of scored) {
    const key = ` ${p.stems.join(" ")} `;
    // a phrase inside a kept one ("attention" inside "self attention") adds nothing
    if (out.some((o) => ` ${o.stems.join(" ")} `.includes(key) && o.score >= p.score * 0.7)) continue;
    out.push(p);
    if (out.length >= max) break;
  }
  return { phrases: out, form };
}

/** Key phrases of a set of sources (`collectPhrases`, then `rankPhrases`). */
export function keyPhraseIndex(sources: PhraseSource[], options: KeyPhraseOptions = {}): PhraseIndex {
  return rankPhrases(collectPhrases(sources), options);
}

/** Key phrases of plain texts (each its own source, of no known paper). */
export function keyPhrases(texts: string[], options: KeyPhraseOptions = {}): KeyPhrase[] {
  return keyPhraseIndex(
    texts.map((text, i) => ({ text, kind: "passage" as const, paperId: String(i) })),
    options,
  ).phrases;
}

/** The same word by its stems, allowing for the light stemmer's misses ("tun" of tuning, "tune"). */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 3 && long.startsWith(short) && long.length - short.length <= 2;
}

/** A topic as a heading: its first letter capitalised, everything else as written ("Multi-agent debate", "LoRA"). */
export function sentenceCase(s: string): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.replace(/^(\p{Ll})/u, (c) => c.toUpperCase());
}

/** Short words a title leaves in lower case unless they open it ("… Self-Correction and Verification"). */
const TITLE_MINOR = new Set(
  "a an the and but or nor for so yet as at by in of on to up via per vs with from into onto over than".split(" "),
);

/**
 * Title case for a heading, keeping acronyms and ids as written, and articles, conjunctions and short prepositions in
 * lower case except as the first word.
 */
export function titleCase(s: string): string {
  // (the first word is the first with letters, after any opening quote; a word joined by a hyphen is no minor word:
  // "In-Context")
  const first = s.search(/\p{L}/u);
  return s.replace(/(?<![\p{L}\p{N}'’])(\p{Ll})(\p{L}*)/gu, (m: string, a: string, b: string, at: number) =>
    at > first && TITLE_MINOR.has(m) && s[at - 1] !== "-" && s[at + m.length] !== "-" && !/:\s*$/.test(s.slice(0, at))
      ? m
      : a.toUpperCase() + b,
  );
}

// ---- Acronyms and their expansions --------------------------------------------------------------------------------

/** The capitals of an acronym, lower-cased ("LoRA" → "lra", "STaR" → "str", "RLHF" → "rlhf"). */
function capitals(acronym: string): string {
  return acronym.replace(/[^\p{Lu}]/gu, "").toLowerCase();
}

/** Initials of words (hyphenated parts count; function words may be skipped): "Low-Rank Adaptation" → "lra". */
function initialsMatch(words: string[], letters: string): boolean {
  // dynamic match: each letter is the first letter of the next part; function words may be passed over
  const parts = words.flatMap((w) => w.split("-")).filter(Boolean);
  const go = (pi: number, li: number): boolean => {
    if (li === letters.length) return pi === parts.length;
    if (pi === parts.length) return false;
    const part = parts[pi] as string;
    const lower = part.toLowerCase();
    if (lower[0] === letters[li] && go(pi + 1, li + 1)) return true;
    return FUNCTION_WORDS.has(lower) && go(pi + 1, li);
  };
  return go(0, 0);
}

/**
 * The expansion of an acronym as a text defines it: "Low-Rank Adaptation, or LoRA", "Self-Taught Reasoner (STaR)",
 * "LoRA: Low-Rank Adaptation of …" — the words right before (or after a colon) whose initials spell its capitals.
 */
export function acronymExpansion(acronym: string, texts: string[]): string | null {
  const letters = capitals(acronym);
  if (letters.length < 2 || !isAcronym(acronym)) return null;
  const esc = escapeRegExp(acronym);
  const before = new RegExp(`([\\p{L}\\p{N}\\- ]{3,120}?)\\s*(?:,\\s*or\\s+|\\(\\s*)${esc}\\b`, "gu");
  const after = new RegExp(`(?:^|\\n)\\s*${esc}\\s*[:(]\\s*([\\p{L}\\p{N}\\- ]{3,120})`, "gu");
  for (const text of texts) {
    for (const m of text.normalize("NFKC").matchAll(before)) {
      const words = (m[1] as string).trim().split(/\s+/);
      for (let k = 1; k <= Math.min(words.length, 8); k++) {
        const tail = words.slice(-k);
        if (initialsMatch(tail, letters)) return asPhrase(tail);
      }
    }
    for (const m of text.normalize("NFKC").matchAll(after)) {
      const words = (m[1] as string).trim().split(/\s+/);
      for (let k = 1; k <= Math.min(words.length, 8); k++) {
        const head = words.slice(0, k);
        if (initialsMatch(head, letters)) return asPhrase(head);
      }
    }
  }
  return null;
}

/** Words as a phrase: names kept as written, every other word in small letters ("Low-Rank Adaptation" → "low-rank adaptation"). */
function asPhrase(words: string[]): string {
  return words.map((w) => (isNamedToken(w) ? w : w.toLowerCase())).join(" ");
}

/** The acronym of a multi-word phrase ("multi-agent debate" → "MAD"), or null for a phrase of one part. */
export function acronymOf(phrase: string): string | null {
  const parts = (phrase.match(WORD) ?? [])
    .filter((w) => !FUNCTION_WORDS.has(w.toLowerCase()))
    .flatMap((w) => w.split("-"))
    .filter((w) => /^\p{L}/u.test(w));
  if (parts.length < 2 || parts.length > 6) return null;
  return parts.map((p) => (p[0] as string).toUpperCase()).join("");
}

// ---- Does a passage mention a topic? ------------------------------------------------------------------------------

/** What a passage must contain to be about a topic: one of its parts' stems, its acronym, or a name it contains. */
export interface TopicTerms {
  /** Each part of the topic ("A and B", "LoRA (low-rank adaptation)"): its stems, in order. */
  parts: string[][];
  /** Tokens matched as written: names in the topic and the topic's acronyms. */
  names: string[];
}

/** The terms of a topic. */
export function topicTerms(topic: string): TopicTerms {
  const parts: string[][] = [];
  const names = new Set<string>();
  for (const raw of topic.split(/\s*(?:[,;:()[\]/]|\band\b|\bor\b|\bvs\.?|\bversus\b)\s*/i)) {
    const part = raw.trim();
    if (!part) continue;
    const words = part.match(WORD) ?? [];
    for (const w of words) if (isNamedToken(w)) names.add(w);
    // a name alone is matched as written ("LoRA", not "Lora")
    const stems = words.length === 1 && isNamedToken(words[0] as string) ? [] : tokenize(part);
    if (stems.length > 0) parts.push(stems);
    const acronym = acronymOf(part);
    if (acronym && acronym.length >= 2) names.add(acronym);
  }
  return { parts, names: [...names] };
}

/**
 * Does a text mention the topic: all the stems of one of its parts (a part of three stems or more: two thirds of them,
 * its head — last — word among them), or one of its names or acronyms as written?
 */
export function mentionsTopic(terms: TopicTerms, text: string): boolean {
  const have = new Set(tokenize(text));
  for (const part of terms.parts) {
    const n = part.filter((s) => have.has(s)).length;
    if (n === part.length) return true;
    if (part.length >= 3 && have.has(part[part.length - 1] as string) && n / part.length >= 2 / 3) return true;
  }
  if (terms.names.length === 0) return false;
  const tokens = new Set(text.normalize("NFKC").match(WORD) ?? []);
  for (const w of [...tokens]) for (const piece of w.split("-")) tokens.add(piece);
  return terms.names.some((n) => tokens.has(n) || tokens.has(`${n}s`));
}

// ---- Topics named by a question and by a title ----------------------------------------------------------------------

/**
 * The topics a question lists: "… through self-correction, self-training and verification" → the three of them. The
 * first item is what follows the last function word before the list, the last one stops at its first function word;
 * leading filler ("less memory") goes. None when the question lists nothing.
 */
export function questionTopics(question: string): string[] {
  const q = question.normalize("NFKC").replace(/[?.!]+\s*$/, "");
  const segments = q.split(/\s*[,;]\s*(?:and\s+|or\s+)?|\s+(?:and|or|as well as)\s+/i);
  if (segments.length < 2) return [];
  const out: string[] = [];
  segments.forEach((segment, i) => {
    let words = segment.split(/\s+/).filter(Boolean);
    if (i === 0) {
      let k = words.length;
      while (k > 0 && !FUNCTION_WORDS.has((words[k - 1] as string).toLowerCase())) k--;
      words = words.slice(k);
    }
    if (i === segments.length - 1) {
      const k = words.findIndex((w, j) => j > 0 && FUNCTION_WORDS.has(w.toLowerCase()));
      if (k > 0) words = words.slice(0, k);
    }
    while (
      words.length > 0 &&
      (isFillerWord(words[0] as string) || FUNCTION_WORDS.has((words[0] as string).toLowerCase()))
    )
      words.shift();
    const item = words.join(" ");
    if (item && words.length <= 4 && tokenize(item).length > 0) out.push(item);
  });
  return out.length >= 2 ? out : [];
}

/**
 * The name a title leads with ("LoRA: Low-Rank Adaptation of …" → "LoRA", "Constitutional AI: Harmlessness …"): up to
 * three words before a colon or a dash, one of them named (`isNamedToken`). Null for any other title.
 */
export function titleLead(title: string): string | null {
  const m = /^\s*([^:—–]{2,60}?)\s*(?::|\s[—–]\s)/u.exec(title.normalize("NFKC"));
  if (!m) return null;
  const lead = (m[1] as string).trim();
  const words = wordsOf(lead);
  if (words.length === 0 || words.length > 3 || !words.some(isNamedToken)) return null;
  return lead;
}

/** Search keywords taken from a topic the researcher wrote: at most this many (the planner's points keep 6 too). */
export const TOPIC_KEYWORDS_MAX = 6;

/**
 * Search keywords from a topic as the researcher wrote it (a point added to an outline by hand): its multi-word
 * phrases, then its content words, function words and filler left out; names kept as written, other words in small
 * letters. A phrase is a clause of the topic (between punctuation) of 2–4 words that start and end with content words
 * ("Mixture of experts"), or a run of 2–4 words between function words and punctuation, leading filler dropped ("large language
 * models" → "language models"), that is not generic as a whole (`isGenericTopic`: "current approaches" is). So
 * "Hallucination in large language models" → "language models", "hallucination", "language". Empty for a topic of
 * filler only ("Limitations of current approaches"): nothing in it is worth searching for.
 */
export function topicKeywords(topic: string, max = TOPIC_KEYWORDS_MAX): string[] {
  const out: string[] = [];
  const add = (words: string[]) => {
    const k = asPhrase(words);
    if (k.length <= LIMITS.keywordChars && !out.some((o) => o.toLowerCase() === k.toLowerCase())) out.push(k);
  };
  const isContent = (w: string) =>
    /\p{L}/u.test(w) && w.length >= 2 && !FUNCTION_WORDS.has(w.toLowerCase()) && (!isFillerWord(w) || isNamedToken(w));
  const clauses = topic.normalize("NFKC").split(new RegExp(CLAUSE.source, "gu"));
  const phrase = (words: string[]) => words.length >= 2 && words.length <= 4 && !isGenericTopic(words.join(" "));
  for (const clause of clauses) {
    const words = wordsOf(clause);
    if (phrase(words) && boundaryWord(words[0] as string) && boundaryWord(words[words.length - 1] as string)) {
      add(words);
    }
    let run: string[] = [];
    const endRun = () => {
      while (run.length > 0 && !isContent(run[0] as string)) run.shift();
      if (phrase(run)) add(run);
      run = [];
    };
    for (const w of words) {
      if (FUNCTION_WORDS.has(w.toLowerCase())) endRun();
      else run.push(w);
    }
    endRun();
  }
  for (const w of wordsOf(topic)) if (isContent(w)) add([w]);
  return out.slice(0, max);
}
