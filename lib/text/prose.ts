/**
 * Is a sentence prose a reader would quote, or something else extraction ran together: figure and table label runs,
 * axis ticks, an equation split into tokens, an author list, affiliations, a footnote, a reference-list entry, a
 * running head? Decided from the text's shape alone — the share of function words (prose has many, labels and name
 * lists almost none), token lengths, the share of digits and symbols, runs of capitalised words or of label-like
 * tokens, a verb — never from a list of one library's strings, so it works on any paper.
 */

/** English function words: prose is about 40 % of them; labels, names and formulas have next to none. */
const FUNCTION_WORDS = new Set(
  (
    "a an the of to in on at by for from with without into onto over under between among within through across about " +
    "and or but nor so yet as than that which who whom whose what when where while whereas because since although " +
    "though if unless whether is are was were be been being am has have had having do does did can could will would " +
    "shall should may might must it its this these those they them their we our us he she his her i you your one " +
    "not no also only both each such there here then thus hence however therefore more most less least very all any " +
    "some other another same even just how why"
  ).split(" "),
);

/** Forms that make a clause a clause: auxiliaries and copulas. */
const AUXILIARY =
  /\b(?:is|are|was|were|be|been|being|has|have|had|do|does|did|can|could|will|would|shall|should|may|might|must)\b/i;
/** A lower-case word in a verb form (-ed, -es, -s after a subject, -ize): the "no verb" test's second chance. */
const VERB_FORM = /\b(?:[a-z]{3,}(?:ed|es|ows|izes?|ises?|ates?|ains|ers|ves)|[a-z]{2}(?:es|ows)|[a-z][a-df-z]ed)\b/;
/**
 * A present-tense verb in -s by where it stands: before its object ("performs the", "yields a", "gets 98.6 %", not "heads 5") or
 * after an adverb ("typically uses", "consistently outperforms"). A plural noun rarely stands there.
 */
const PRESENT_VERB = new RegExp(
  "\\b(?:[a-z]{2,}[^\\Wsu]s (?:the|a|an|its|their|our|his|her|this|these|that|those|each|every|no|some|all|both|" +
    "more|less|much|many|several|tens|hundreds|thousands)\\b|[a-z]{2,}[^\\Wsu]s \\d+(?:\\.\\d+\\s?%?|\\s?%)|[a-z]{3,}(?:ally|ively|ently|antly|ously|ably|ibly|ctly|(?<!fam)ily) " +
    "[a-z]{2,}s\\b)",
);
/** "We" or "they" and the word after it (or after an adverb: "we first compare"): a clause's subject and its verb,
 *  whatever the verb's form ("we use", "we show that", "they adopt"). */
const PRONOUN_SUBJECT = /\b(?:[Ww]e|WE|[Tt]hey|THEY)\s+\p{Ll}{2,}/u;

/** English irregular verbs (past and present forms), which carry no suffix: "scheduling cut packet loss". */
const IRREGULAR_VERB = new RegExp(
  `\\b(?:${(
    "cut set put let hit run ran make made take took taken give gave given find found get got lead led keep kept " +
      "hold held leave left meet met pay paid say said see saw seen send sent spend spent stand stood tell told think " +
      "thought win won write wrote written grow grew grown fall fell fallen rise rose risen drive drove bring brought " +
      "build built buy bought begin began begun become became come came go went gone know knew known lose lost mean " +
      "meant read teach taught understand understood choose chose chosen split spread beat draw drew drawn break broke " +
      "broken sit sat feel felt deal dealt seek sought catch caught fit shed shut quit bet cost hurt burst cast"
  ).replace(/ /g, "|")})\\b`,
  "i",
);

/** Stands where a citation in parentheses was removed (no sentence holds it: a private-use character). */
const CITATION_MARK = "\uE000";

export type NotProse =
  | "too_short"
  | "symbols"
  | "no_function_words"
  | "label_run"
  | "capitalised_run"
  | "no_verb"
  | "footnote"
  | "affiliation"
  | "reference_entry"
  | "running_head";

export interface ProseOptions {
  /** A run of five label-like tokens is a label run even in a sentence that reads as prose (the graph's rules read
   *  the prose before a run of settings, "We use Adam with β1 = 0.9, β2 = 0.999, …", on this verdict). */
  strictLabelRuns?: boolean;
}

/** Why a sentence is not prose, or null when it is. */
export function notProse(sentence: string, { strictLabelRuns = false }: ProseOptions = {}): NotProse | null {
  const s = sentence.normalize("NFKC").replace(/\s+/g, " ").trim();
  const tokens = s.split(" ").filter(Boolean);
  if (tokens.length < 6 || s.length < 40) return "too_short";

  // running heads and stamps: "Published as a conference paper at …", "arXiv:1706.03762v5 [cs.CL] 6 Dec 2017"
  if (/^(?:published|under review|accepted|preprint)\b.{0,40}\b(?:paper|conference|workshop|journal)\b/i.test(s)) {
    return "running_head";
  }
  if (/\barXiv:\s?\d{4}\.\d{4,5}(?:v\d+)?\s*\[[a-z-]+\.[A-Za-z]+\]/.test(s)) return "running_head";

  // footnotes: a marker glued to the start ("∗Equal contribution", "†Work done at", "1University of …")
  if (/^[∗*†‡§¶]/.test(s) || /^\d{1,2}(?=\p{Lu}\p{Ll})/u.test(s)) return "footnote";

  // reference-list entries: venues and page ranges, or several "A. Name," authors in a row
  if (/^\[\d{1,3}\]\s/.test(s)) return "reference_entry";
  const initials = s.match(/\b\p{Lu}\.(?:\s?\p{Lu}\.)*\s\p{Lu}[\p{Ll}'-]+,/gu)?.length ?? 0;
  const venue =
    /\b(?:In Proceedings|Proceedings of|In Advances in|arXiv preprint|Transactions on|Journal of|pp\.|vol\.|Vol\.|doi:|URL https?:)/.test(
      s,
    );
  if (initials >= 2 || (venue && /\b(?:19|20)\d{2}\b/.test(s))) return "reference_entry";

  // characters: prose is mostly letters
  const visible = s.replace(/ /g, "");
  const letters = visible.match(/\p{L}/gu)?.length ?? 0;
  if (letters / visible.length < 0.65) return "symbols";

  // the shares and runs below are the sentence's own words': a citation in parentheses ("(Huang et al., 2022; Bai et
  // al., 2022b)") is names and years, not the sentence's prose
  // (it leaves a marker behind that ends any run, so six cited names in a row do not join into one capitalised run)
  const ownWithMarkers = s
    .replace(/\s*\((?=[^()]*\p{Lu})[^()]*\b(?:19|20)\d{2}[a-z]?\)/gu, ` ${CITATION_MARK} `)
    // (numbered citations too, after a word: "al. [ 49 ]", "work [51, 60]"; not after a symbol, "∈ [0, 1]"; an
    // interval after a word, "in [0, 1]", is taken for one, which leaves the sentence prose as it was)
    .replace(/(?<=\p{L}[.,;:]?)\s*\[\s*\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\s*\]/gu, ` ${CITATION_MARK} `)
    .split(" ")
    // (the punctuation that followed a citation goes with it: "BERT (Devlin et al., 2019), RoBERTa")
    .filter((t, i, all) => t !== "" && !(all[i - 1] === CITATION_MARK && /^[,;.:]+$/.test(t)));
  const ownCount = ownWithMarkers.filter((t) => t !== CITATION_MARK).length;
  const words = ownCount >= 6 ? ownWithMarkers : tokens;
  const lower = words.map((t) => t.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
  const wordCount = words === tokens ? tokens.length : ownCount;
  const functionShare = lower.filter((t) => FUNCTION_WORDS.has(t)).length / wordCount;
  if (functionShare < (tokens.length >= 12 ? 0.12 : 0.08)) return "no_function_words";

  // affiliations and addresses: institutions, e-mail addresses, with few function words
  if (/@[\w-]+\.|\b(?:University|Institute|Laboratory|Department|Inc\.|Ltd\.|Research Center)\b/.test(s)) {
    if (functionShare < 0.2) return "affiliation";
  }

  // runs of label-like tokens (numbers, 1–2 character tokens, symbols): axis ticks, table cells, split formulas
  let run = 0;
  let numbers = 0;
  // a run of five or more label-like tokens is forgiven only inside prose (words on both sides of it, and not a
  // caption's): the most numbers any such run holds, and whether one touches the sentence's start or end
  let longRun = false;
  let longRunNumbers = 0;
  let longRunAtEdge = false;
  let lettered = 0;
  const firstWord = words.findIndex((t) => t !== CITATION_MARK);
  const lastWord = words.findLastIndex((t) => t !== CITATION_MARK);
  // numbers in runs of three label-like tokens or more, over the whole sentence: ticks of two axes, "80 60 40 20 …
  // Retrieval Accuracy 20 40 60 80", each run too short to tell alone
  let runNumbers = 0;
  let bareInRun = 0;
  // runs of capitalised words that are not function words: author lists, legends ("BERT RoBERTa XLNet ALBERT")
  let caps = 0;
  let longestCapsRun = 0;
  words.forEach((t, i) => {
    if (t === CITATION_MARK) {
      // a removed citation: ends every run, counts in no share
      run = numbers = bareInRun = caps = lettered = 0;
      return;
    }
    const word = lower[i] as string;
    const labelLike = !FUNCTION_WORDS.has(word) && (/^[^\p{L}]*$/u.test(t) || word.length <= 2);
    run = labelLike ? run + 1 : 0;
    lettered = labelLike ? lettered + (/\p{L}/u.test(t) ? 1 : 0) : 0;
    const number = /\p{N}/u.test(t) && !/\p{L}/u.test(t);
    // (bare numbers: "2, 4, 7, and 8" in prose is a list, its numbers with their commas)
    const bare = labelLike && /^[+\-−]?\d+(?:\.\d+)?%?$/u.test(t);
    bareInRun = labelLike ? bareInRun + (bare ? 1 : 0) : 0;
    if (run === 3) runNumbers += bareInRun;
    else if (run > 3 && bare) runNumbers += 1;
    numbers = labelLike ? numbers + (number ? 1 : 0) : 0;
    if (run >= 5) {
      longRun = true;
      longRunNumbers = Math.max(longRunNumbers, numbers);
      // (at the edge, a formula's variables still read as math, "… to a sequence z = (z1, ..., zn)."; a row of
      // marks or cells has none)
      if ((i === lastWord || i + 1 - run === firstWord) && lettered < 2) longRunAtEdge = true;
    }
    const capitalised = /^[^\p{L}]*\p{Lu}/u.test(t) && !FUNCTION_WORDS.has(word);
    caps = capitalised ? caps + 1 : 0;
    longestCapsRun = Math.max(longestCapsRun, caps);
  });
  // …unless it is a formula or a list of symbols inside a sentence that reads as prose ("store W = W0 + BA and
  // perform inference as usual", "four weight matrices (Wq , Wk, Wv , Wo) and two"): ticks and cells are numbers, a
  // run that ends the sentence ("… ✓ ✓ ✗ ✓ ✓") or a caption's run is not inside prose
  // (a caption's shape: "Table 3:", "Figure 2.", not "Figure 2 shows that …")
  const caption = /^(?:Fig\.|Figure|Table|Tab\.|Algorithm)\s*\d+[.:]/i.test(s);
  if (longRun && (strictLabelRuns || caption || longRunAtEdge || longRunNumbers >= 3 || functionShare < 0.25))
    return "label_run";
  if (runNumbers >= 6) return "label_run";
  if (longestCapsRun >= 6) return "capitalised_run";

  if (
    !AUXILIARY.test(s) &&
    !VERB_FORM.test(s) &&
    !PRESENT_VERB.test(s) &&
    !IRREGULAR_VERB.test(s) &&
    !PRONOUN_SUBJECT.test(s)
  )
    return "no_verb";
  return null;
}

/** True when the sentence reads as prose (see `notProse`). */
export function isProse(sentence: string): boolean {
  return notProse(sentence) === null;
}
