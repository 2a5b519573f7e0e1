/**
 * The library's one tokenizer: the words of a text, lower-cased and NFKC-normalised, without stop words, 1-letter words
 * or long bare numbers, lightly stemmed. Full-text search indexes and queries these terms (`searchText`), the offline
 * embedder hashes them, and the research steps (expansion, re-ranking, verification) compare them.
 *
 * Why a light stemmer rather than Postgres's Snowball: Snowball conflates words a scientific question hinges on
 * (`useful`/`use`, `original`/`origin`, `different`/`differ`, `generation`/`general`). On the dev question set, BM25
 * over these terms ranked the evidence page at MRR 0.44 against 0.35 over Snowball's lexemes (docs/benchmarks.md).
 */

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been being but by can could did do does doing for from had has have having he her here " +
    "hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other our " +
    "ours out over own same she should so some such than that the their theirs them then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours also may might must shall us via per each both either neither whether than thus hence however"
  ).split(" "),
);

/** A light suffix stripper: enough to conflate plurals and common verb/noun forms (`models`/`model`, `trained`/`training`). */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  for (const suffix of ["ational", "ization", "ation", "ness", "ment", "ing", "ed", "ly", "er"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

const NON_ASCII = /[^\t\n\r -~]/; // anything outside printable ASCII may need NFKC
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Lower-case, NFKC-normalised word tokens without stop words, 1-letter words or long bare numbers, stemmed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (raw) => {
    const t = termOf(raw);
    if (t) out.push(t);
  });
  return out;
}

/**
 * Calls `fn` with each run of letters/digits of the NFKC-normalised, lower-cased text (the same words as
 * /[\p{L}\p{N}]+/gu, scanned by hand: ASCII is decided by char code, only other characters pay for a Unicode property
 * test).
 */
export function forEachWord(text: string, fn: (word: string) => void): void {
  // NFKC before lower-casing: compatibility forms with no lower-case form of their own fold to capitals
  // (mathematical bold 𝐀 → A, ℒ → L, ㎒ → MHz), which must then be lower-cased like any other letter
  const s = NON_ASCII.test(text) ? text.normalize("NFKC").toLowerCase() : text.toLowerCase();
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let isWord: boolean;
    let width = 1;
    if (c < 128) isWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
    else {
      const cp = s.codePointAt(i) as number;
      width = cp > 0xffff ? 2 : 1;
      isWord = WORD_CHAR.test(String.fromCodePoint(cp));
    }
    if (isWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      fn(s.slice(start, i));
      start = -1;
    }
    i += width - 1;
  }
  if (start >= 0) fn(s.slice(start));
}

/** Per-word cache of terms (words repeat across chunks): null = not a term. */
const termCache = new Map<string, string | null>();
const TERM_CACHE_LIMIT = 200_000;

/** The term of one lower-cased word from `forEachWord`, or null for a stop word, a 1-letter word or a long number. */
export function termOf(raw: string): string | null {
  const cached = termCache.get(raw);
  if (cached !== undefined) return cached;
  const skip = raw.length < 2 || STOP_WORDS.has(raw) || (raw.length > 4 && /^\d+$/.test(raw)); // long numbers: noise
  const term = skip ? null : stem(raw);
  if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
  termCache.set(raw, term);
  return term;
}

/** Longest term kept in the search index: Postgres refuses longer words, and such strings are not words anyway. */
const MAX_TERM_CHARS = 64;

/**
 * The text full-text search indexes: the terms in order, space-separated (Postgres's `simple` configuration turns it
 * into the tsvector, so positions still tell which terms stand together).
 */
export function searchText(text: string): string {
  const out: string[] = [];
  forEachWord(text, (raw) => {
    const t = termOf(raw);
    if (t && t.length <= MAX_TERM_CHARS) out.push(t);
  });
  return out.join(" ");
}

/**
 * What full text indexes for a passage of a paper: the paper's title, then the passage (a contextual header, as in
 * "contextual retrieval"). A question names the paper it asks about ("the original Transformer paper", "Lewis et al.'s
 * retrieval-augmented generator") in words that are on the title page, not on the page holding the answer; with the
 * title on every passage those words no longer favour the title page over the one that answers, and the passage's
 * own words decide between the paper's pages.
 */
export function passageSearchText(title: string, text: string): string {
  const head = searchText(title);
  const body = searchText(text);
  return head && body ? `${head} ${body}` : head || body;
}

/**
 * Words spelled -ise in American English too, as their stems before -e/-ed/-es/-ing/-er: the first kept as whole
 * words only (summarise and organise end like arise and anise), the others also at the end of a longer word
 * (unsupervised, denoising, pairwise).
 */
const ISE_WORDS = new Set("ris aris rais prais vis anis pois guis".split(" "));
const ISE_ENDINGS = (
  "advis devis revis supervis surpris compris precis concis exercis promis premis expertis franchis merchandis " +
  "enterpris televis excis incis chastis despis disguis improvis circumcis advertis appris demis paradis cruis bruis " +
  "treatis brais repris exorcis apprais uprais nois wis"
).split(" ");
/** Words that keep -ll- in American English too (excelled, compelled, installed…). */
const LL_WORDS = new Set(
  "excel compel impel propel repel dispel expel rebel instal enthral appal distil fulfil".split(" "),
);
/** Words ending -our that are not British spellings of -or (flour, devour, amour…), by what comes before "our". */
const OUR_WORDS = new Set("fl d dev am tr cont param troubad".split(" "));

/**
 * The American spelling of a lower-cased word in British spelling, or null: -ise/-isation → -ize/-ization (not the
 * words spelled -ise in American too: advise, surprise, noise, pairwise…), -yse → -yze, -our → -or (behaviour,
 * colour, neighbour), -elled/-alling → -eled/-aling (modelling, labelled, signalled; not excelled, installed),
 * -logue → -log, programme → program. Decided on the whole word, not its stem, so that a word which only looks British
 * (basis, Paris, iris, realm) is left alone.
 */
export function americanSpelling(word: string): string | null {
  let m = /^([a-z]{3,})is(e|ed|es|ing|er|ers|ation|ations|ational)$/.exec(word);
  if (m) {
    const stem = `${m[1]}is`;
    if (ISE_WORDS.has(stem) || ISE_ENDINGS.some((w) => stem.endsWith(w))) return null;
    return `${m[1]}iz${m[2]}`;
  }
  m = /^([a-z]{2,})ys(e|ed|es|ing|er|ers)$/.exec(word);
  if (m) return `${m[1]}yz${m[2]}`;
  m = /^([a-z]*(?:[bdilmnv]|ig))our(s|ed|ing|ite|ites|able|ful|less)?$/.exec(word);
  if (m && (m[1] as string).length >= 2 && !OUR_WORDS.has(m[1] as string)) return `${m[1]}or${m[2] ?? ""}`;
  m = /^([a-z]{2,}[^aeiou][ae]l)l(ed|ing|er|ers)$/.exec(word);
  if (m && !LL_WORDS.has(m[1] as string)) return `${m[1]}${m[2]}`;
  m = /^([a-z]{2,})logue(s?)$/.exec(word);
  if (m) return `${m[1]}log${m[2]}`;
  if (word === "programme") return "program";
  if (word === "programmes") return "programs";
  return null;
}

/**
 * For the words of a text: the term of each British-spelled one whose American spelling gives another term, mapped
 * to that term (`realised` → `realis` → `realiz`; `optimisation` → `optimis` → `optim`, as the stemmer leaves
 * "optimization"). Search reads it only for terms the library does not hold.
 */
export function americanTerms(words: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const word of words) {
    const american = americanSpelling(word);
    if (!american) continue;
    const from = termOf(word);
    const to = termOf(american);
    if (from && to && from !== to && !out.has(from)) out.set(from, to);
  }
  return out;
}

/**
 * The terms of a text's British-spelled words that `has` (the passages at hand) lacks, mapped to their American term
 * when `has` holds that (`memoris` → `memoriz` for "memorised" over passages that write "memorized"): the choice
 * search makes with `americanTerms`, for code that compares a question's terms with passages it already holds.
 */
export function respelledTerms(text: string, has: (term: string) => boolean): Map<string, string> {
  const words: string[] = [];
  forEachWord(text, (w) => {
    words.push(w);
  });
  const out = new Map<string, string>();
  for (const [from, to] of americanTerms(words)) if (!has(from) && has(to)) out.set(from, to);
  return out;
}
