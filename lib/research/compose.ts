/**
 * The offline answer, composed from sentences: every prose sentence of the retrieved passages is a candidate, scored
 * for the question by a weighted sum of features (lib/research/sentence-score.ts: how much of its key terms it covers
 * — terms rare among the candidates weigh more — and how much the sentence before it and its passage cover, the
 * question's phrases it repeats, whether it gives what the question's kind asks for (a reason for "why", a number for
 * "how much"), its passage's retrieval rank, whether it defines or sits on a first page…), with weights fitted on the
 * benchmark's questions (bench/fit-answer-weights.ts). Text that is not prose (labels, author lists, references…:
 * lib/text/prose.ts) is never used. A sentence that leans on the one before it ("To counteract this effect, …") brings
 * that sentence along.
 */
import type { Intent } from "@/lib/search/intent";
import { correctable, isSlipOf } from "@/lib/search/spelling";
import { FOOTNOTE_START } from "@/lib/text/footnotes";
import { joinList } from "@/lib/text/lists";
import { escapeMarkdown } from "@/lib/text/markdown";
import { isProse } from "@/lib/text/prose";
import { escapeRegExp } from "@/lib/text/regexp";
import { respelledTerms, tokenize } from "@/lib/text/terms";
import { type EvidencePassage, quotableSentences } from "./citations";
import { type ScoreWeights, type SentenceFeatures, scoreOf } from "./sentence-score";

export type QuestionKind = "reason" | "quantity" | "comparison" | "mechanism" | "general";

/** Words that say what kind of answer is wanted, not what it is about ("how does X work", "explain Y"). */
const QUESTION_FILLER = new Set(
  [
    "work",
    "explain",
    "describe",
    "mean",
    "main",
    "way",
    "kind",
    "type",
    "role",
    "happen",
    "give",
    "make",
    "get",
    "tell",
  ]
    .flatMap((w) => tokenize(w))
    .filter(Boolean),
);

/** The kind of answer a question (or one part of it) asks for. */
export function questionKind(question: string, intent: Intent = "unknown"): QuestionKind {
  const q = question.toLowerCase();
  if (/\bwhy\b|\bfor what reason\b|\bwhat (?:is|was) the (?:reason|motivation|purpose)\b|\bwhat causes?\b/.test(q)) {
    return "reason";
  }
  if (
    /\bhow (?:much|many|large|big|fast|long|often|well)\b|\bwhat (?:score|accuracy|percentage|fraction|number|size)\b|\bwhich score\b|\bby how\b/.test(
      q,
    )
  ) {
    return "quantity";
  }
  // "which methods improve on BERT?": a comparison, whatever the intent says
  if (
    /\b(?:compare[ds]?|comparison|versus|vs\.?|differ(?:ence|s)?|better|worse|outperform\w*|improv\w* (?:on|upon|over))\b/.test(
      q,
    )
  ) {
    return "comparison";
  }
  if (intent === "performance") return "quantity";
  if (/\bhow (?:does|do|is|are|can)\b|\bmechanism\b|\bwork(?:s)?\b/.test(q)) return "mechanism";
  return "general";
}

const REASON_CUE =
  /\b(?:because|since|in order to|so that|due to|owing to|as a result|this is why|the reason|leads? to|caus(?:e|es|ed|ing)|prevent\w*|avoid\w*|counteract\w*|mitigat\w*|to (?:ensure|reduce|allow|enable|keep|make)|therefore|hence|thus|suspect|explain\w*)\b/i;
const NUMBER = /(?<![\p{L}])\d+(?:[.,]\d+)?\s*(?:%|×|x\b|points?\b|BLEU\b|F1\b)?/u;
/** Numbers that are no quantity: a citation's year or number, the number of a table, figure, section or equation. */
const NOT_QUANTITY =
  /\([^()]*?\b(?:1[89]|20)\d{2}[a-z]?\)|\[[\d,;\s–-]+\]|\b(?:Table|Tab\.|Figure|Fig\.|Section|Sec\.|Eq\.|Equation|Appendix|Algorithm|Chapter)\s*[A-Z]?\d+(?:\.\d+)*/g;
const COMPARATIVE =
  /\b(?:than|compared|outperform\w*|versus|vs\.?|better|worse|higher|lower|whereas|unlike|improv\w+ (?:over|on|upon))\b/i;
const MECHANISM_CUE =
  /\b(?:consists? of|is computed|computes?|maps?|projects?|we (?:use|apply|compute|employ)|by (?:\w+ing)|allows?|is (?:applied|used)|works? by)\b/i;
/** A sentence that leans on the one before it. */
const ANAPHORIC =
  /^(?:This|These|That|Those|Such|It|They|To (?:\w+ ){1,3}(?:this|these|that)|As a result|Therefore|Thus|Hence|Consequently|In this case)\b/;

export interface ComposeOptions {
  intent: Intent;
  keywords: string[];
  /** Words around the question that set its subject but are not what it asks ("why is it scaled" ← "the Transformer's
   *  attention"): their terms count half. */
  context?: string;
  /** Only sentences that give what the question's kind asks for (a reason, a number, a comparison), when any does. */
  answerKindOnly?: boolean;
  /** Sentences in the answer. */
  maxSentences?: number;
  /** Sentences from one paper at most. */
  perPaper?: number;
  /** The best sentences overall taken before each top passage's best one (the rest follow by score). */
  bestFirst?: number;
  /** Sentences not to use (already quoted elsewhere). */
  exclude?: string[];
  /** The scorer's weights (lib/research/sentence-score.ts); absent: the fitted ones. */
  weights?: ScoreWeights;
  /** Hears every candidate's features (bench/fit-answer-weights.ts). */
  onFeatures?: (text: string, passage: EvidencePassage, f: SentenceFeatures) => void;
}

export interface PickedSentence {
  /** The sentence as quoted. */
  text: string;
  /** The sentence before it, quoted too when this one leans on it ("To counteract this effect, …"). */
  previous?: string;
  /** The sentence before `previous`, quoted too when that one leans on it in turn ("… error of 9.0% on the test set.
   *  This number significantly outperforms … This result won the 1st place …"). */
  earlier?: string;
  /** The sentence after it, quoted too when it gives the reason a "why" question asks for, or when it leans on this
   *  one ("… are 53.1%, 55.7% and 36.6%. These scores surpass DPR by …"). */
  next?: string;
  passage: EvidencePassage;
  score: number;
  /** Other passages that state the same (near-duplicates merged into this one). */
  alsoIn?: EvidencePassage[];
}

/** Passages of the retrieval's top ranks that each get a sentence in the answer when one bears on the question. */
const TOP_PASSAGES = 8;
/** …when their best sentence scores at least this share of the best sentence's score (0.4 before the fitted scorer;
 *  chosen with it by the fit's leave-one-set-out check, docs/benchmarks.md "A fitted sentence scorer"). */
const TOP_PASSAGE_SHARE = 0.6;

interface Candidate extends PickedSentence {
  rank: number;
  stems: Set<string>;
  order: number;
  /** It gives what the question's kind asks for. */
  cue: boolean;
}

/** A candidate quoted without the sentence two back (quoted elsewhere already), and its terms without that one's. */
function dropEarlier(c: Candidate): void {
  c.earlier = undefined;
  c.stems = new Set([...tokenize(c.text), ...(c.previous ? tokenize(c.previous) : [])]);
}

/** The pick without the sentence two back when that one is quoted elsewhere (`quoted`): it stands on its own there. */
function withoutQuotedEarlier(p: PickedSentence, quoted: ReadonlySet<string>): PickedSentence {
  if (!p.earlier || !quoted.has(p.earlier)) return p;
  const { earlier: _e, ...rest } = p;
  return rest;
}

/** What giving the asked-for kind of answer adds to a sentence's score. */
const KIND_BONUS: Record<QuestionKind, number> = {
  reason: 0.15,
  quantity: 0.12,
  comparison: 0.1,
  mechanism: 0.05,
  general: 0,
};

/** Does the sentence give what a question of this kind asks for? */
function givesKind(kind: QuestionKind, text: string): boolean {
  switch (kind) {
    case "reason":
      return REASON_CUE.test(text);
    case "quantity":
      return NUMBER.test(text.replace(NOT_QUANTITY, " "));
    case "comparison":
      return COMPARATIVE.test(text);
    case "mechanism":
      return MECHANISM_CUE.test(text);
    default:
      return false;
  }
}

/** The key terms of a question: content-word stems, without words that only say what kind of answer is wanted. */
export function questionTerms(question: string, keywords: string[] = []): string[] {
  const terms = [...tokenize(question), ...keywords.flatMap((k) => tokenize(k))];
  return [...new Set(terms.filter((t) => !QUESTION_FILLER.has(t)))];
}

/** Adjacent key-term pairs of the question ("multi head", "key dimension"), as stems. */
function questionPairs(question: string): string[] {
  const stems = tokenize(question);
  const pairs: string[] = [];
  for (let i = 0; i + 1 < stems.length; i++) pairs.push(`${stems[i]} ${stems[i + 1]}`);
  return pairs;
}

/**
 * The prose sentences of the passages, each with the one before it (for sentences that lean on it). A footnote runs
 * from its marker to the end of its page's passage (footnotes sit at the foot of a page), unless a numbered section
 * heading comes first; a passage that starts inside one has its length (`footnoteChars`): none of it is quoted ("Noam
 * proposed scaled dot-product attention…" is a contributions note).
 */
function candidateSentences(evidence: EvidencePassage[]) {
  const out: {
    text: string;
    previous: string | null;
    earlier: string | null;
    next: string | null;
    passage: EvidencePassage;
    rank: number;
  }[] = [];
  evidence.forEach((passage, index) => {
    const rank = passage.rank ?? index;
    let previous: string | null = null;
    let footnote = false;
    for (const s of quotableSentences(passage.text)) {
      // a passage cut from inside a footnote: its first characters are the footnote's
      if (s.start < (passage.footnoteChars ?? 0)) {
        previous = null;
        continue;
      }
      if (s.afterHeading) footnote = false;
      // (a sentence's space before its full stop is not the answer's: "… by 1 √dk ." would not end a claim)
      const text = s.text.replace(/\s+([.!?])$/, "$1");
      if (FOOTNOTE_START.test(text)) footnote = true;
      // starts mid-sentence, or ends the passage unfinished (a chunk boundary: "… following the same experimental
      // set-"), or only announces what follows ("… in three different ways:"), or asks rather than tells ("If so,
      // what is a good rank …?"), or is not prose: never quoted
      const cut = s.last && !/[.!?]["”’)\]]*$/.test(text);
      const asks = /\?["”’)\]]*$/.test(text);
      const usable =
        !footnote &&
        !cut &&
        !asks &&
        !NOT_A_FINDING.test(text) &&
        !/:$/.test(text) &&
        /^[\p{Lu}\p{N}"“]/u.test(text) &&
        text.length <= 480 &&
        isProse(text);
      const last = out[out.length - 1];
      // a sentence that opens a paragraph of its own ("Resolving Dimension Mismatches: We …") is not the one before's
      // explanation
      if (
        usable &&
        last &&
        last.passage === passage &&
        last.text === previous &&
        !s.afterHeading &&
        !RUN_IN_HEADING.test(text)
      )
        last.next = text;
      if (usable) {
        const before = s.afterHeading || RUN_IN_HEADING.test(text) ? null : previous;
        // the sentence before, when it leans on its own one before ("This number …" after "… 9.0% on the test set.")
        const leaning = before && last && last.passage === passage && last.text === before && ANAPHORIC.test(before);
        out.push({
          text,
          previous: before,
          earlier: leaning ? last.previous : null,
          next: null,
          passage,
          rank,
        });
      }
      previous = usable ? text : null;
    }
  });
  return out;
}

/**
 * Sentences that state no finding: thanks and funding ("We thank Yi Tay for the guidance on …", "Finally, we thank …",
 * also after the heading "Acknowledgments"), and announcements of what the paper does next or how it is laid out ("We
 * now explain these modifications and then …", "The rest of this paper is organized as follows").
 */
const NOT_A_FINDING =
  /^(?:(?:Acknowledge?ments?|ACKNOWLEDGE?MENTS?):?\s+)?(?:(?:Finally|Lastly|Also|Additionally|In addition),?\s+)?(?:(?:[Ww]e|[Tt]he authors?|I)\s+(?:would\s+(?:also\s+)?like\s+to\s+|'d\s+like\s+to\s+|wish\s+to\s+|also\s+|further\s+|gratefully\s+)?(?:thanks?\b|acknowledges?\s+(?:the\s+)?(?:support|funding|financial|members|help|assistance|computing|compute|grants?)\b|acknowledges?\s+(?:\p{Lu}[\p{L}\d.&-]*,?\s+(?:and\s+)?){1,6}for\b)|(?:[Tt]his|[Tt]he|[Oo]ur)\s+(?:work|research|project|material)\s+(?:was|is|has\s+been)\s+(?:\w+\s+)?(?:supported|funded|sponsored)\b|(?:[Ww]e|[Tt]he authors?)\s+are\s+(?:grateful|indebted|thankful)\b|We\s+now\s+(?:explain|describe|present|turn|introduce|discuss|detail)\b|(?:The\s+)?(?:rest|remainder)\s+of\s+(?:this|the)\s+(?:paper|article|section)\b|This\s+(?:paper|article)\s+is\s+(?:organi[sz]ed|structured)\b)/u;

/** A paragraph's run-in heading: a few capitalised words and a colon before its first sentence. */
const RUN_IN_HEADING = /^(?:\p{Lu}[\p{L}\d-]*\s+){0,5}\p{Lu}[\p{L}\d-]*(?:\s*\([^)]{1,20}\))?:\s/u;

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / Math.max(1, a.size + b.size - inter);
}

/**
 * The evidence sentences that best answer the question, best first: scored as described at the top of this file;
 * near-duplicates merged (the better one kept, the other's passage cited beside it).
 */
export function pickSentences(question: string, evidence: EvidencePassage[], opts: ComposeOptions): PickedSentence[] {
  const { intent, keywords, maxSentences = 10, perPaper = 5, bestFirst = 0, exclude = [], context = "" } = opts;
  const excluded = new Set(exclude);
  const sentences = candidateSentences(evidence).filter((s) => !excluded.has(s.text));
  const tokens = sentences.map((s) => tokenize(s.text));
  // a term's weight: rarer among the candidates → more telling (a smoothed inverse document frequency)
  const df = new Map<string, number>();
  for (const t of tokens) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  // the question's British spellings as the passages write them ("memorised" → "memorized")
  const respelled = respelledTerms(`${question} ${context} ${keywords.join(" ")}`, (t) => df.has(t));
  const as = (t: string) => respelled.get(t) ?? t;
  const focus = [...new Set(questionTerms(question, keywords).map(as))];
  const around = [...new Set(questionTerms(context).map(as))].filter((t) => !focus.includes(t));
  const wanted = [...focus, ...around];
  if (wanted.length === 0) return [];
  const kind = questionKind(question, intent);
  const pairs = new Set(questionPairs(question).map((p) => p.split(" ").map(as).join(" ")));
  const namedStems = namedTerms(question)
    .map((n) => tokenize(n).map(as))
    .filter((n) => n.length > 0);
  const aroundSet = new Set(around);
  const weights = new Map(
    wanted.map((w) => [
      w,
      Math.log(1 + (sentences.length + 1) / (1 + (df.get(w) ?? 0))) * (aroundSet.has(w) ? 0.5 : 1),
    ]),
  );
  const weight = (w: string) => weights.get(w) ?? 0;
  const total = wanted.reduce((sum, w) => sum + weight(w), 0);
  const maxWeight = Math.max(...wanted.map(weight));
  const coverageOf = (have: Set<string>) => wanted.reduce((sum, w) => sum + (have.has(w) ? weight(w) : 0), 0) / total;
  // the coverage of each candidate's passage and of the sentence before it, once per passage and per sentence
  const passageStems = new Map<EvidencePassage, Set<string>>();
  sentences.forEach((s, i) => {
    const set = passageStems.get(s.passage) ?? new Set<string>();
    for (const t of tokens[i] as string[]) set.add(t);
    passageStems.set(s.passage, set);
  });
  const passageCoverage = new Map([...passageStems].map(([p, stems]) => [p, coverageOf(stems)]));
  const tokensOf = new Map(sentences.map((s, i) => [s.text, tokens[i] as string[]]));
  const sentenceCoverage = new Map<string, number>();
  const coverageOfSentence = (text: string) => {
    let c = sentenceCoverage.get(text);
    if (c === undefined) {
      c = coverageOf(new Set(tokensOf.get(text) ?? tokenize(text)));
      sentenceCoverage.set(text, c);
    }
    return c;
  };
  const candidates: Candidate[] = [];
  sentences.forEach((s, i) => {
    const toks = tokens[i] as string[];
    const stems = new Set(toks);
    const matched = wanted.filter((w) => stems.has(w));
    // it must bear on what the question asks, not only on the subject around it
    if (!matched.some((w) => focus.includes(w))) return;
    const coverage = matched.reduce((sum, w) => sum + weight(w), 0) / total;
    let phrase = 0;
    for (let j = 0; j + 1 < toks.length; j++) if (pairs.has(`${toks[j]} ${toks[j + 1]}`)) phrase += 0.08;
    // proximity: the matches close together (a dense span) rather than spread over a long sentence
    const at = toks.flatMap((t, j) => (matched.includes(t) ? [j] : []));
    const span = at.length > 1 ? (at[at.length - 1] as number) - (at[0] as number) + 1 : toks.length;
    const proximity = at.length > 1 ? (0.05 * at.length) / span : 0;
    // a finding followed by its explanation ("… outperforms it without scaling. We suspect that …") gives the reason
    const reasonAfter =
      kind === "reason" && !givesKind(kind, s.text) && s.next && givesKind(kind, s.next) ? s.next : null;
    const cue = givesKind(kind, s.text) || reasonAfter !== null;
    const rankPrior = 0.2 / (1 + s.rank * 0.2);
    const leans = s.previous && ANAPHORIC.test(s.text) ? s.previous : null;
    const earlier = leans ? s.earlier : null;
    const f: SentenceFeatures = {
      coverage,
      phrase: Math.min(0.16, phrase),
      proximity,
      kindCue: cue ? KIND_BONUS[kind] : 0,
      rankPrior,
      focusShare: matched.filter((w) => focus.includes(w)).length / focus.length,
      named:
        namedStems.length === 0 ? 0 : namedStems.filter((n) => n.every((t) => stems.has(t))).length / namedStems.length,
      length: Math.log(1 + toks.length) / 4,
      density: matched.length / Math.max(1, toks.length),
      ourVoice: /\b(?:we|our)\b/i.test(s.text) ? 1 : 0,
      number: NUMBER.test(s.text.replace(NOT_QUANTITY, " ")) ? 1 : 0,
      reason: REASON_CUE.test(s.text) ? 1 : 0,
      comparative: COMPARATIVE.test(s.text) ? 1 : 0,
      firstPage: s.passage.page === 1 ? 1 : 0,
      pageContext: s.passage.pageContext ? 1 : 0,
      leans: leans ? 1 : 0,
      topRank: s.rank === 0 ? 1 : 0,
      idfMax: Math.max(0, ...matched.map(weight)) / maxWeight,
      phraseRaw: phrase,
      prevCoverage: s.previous ? coverageOfSentence(s.previous) : 0,
      passageCoverage: passageCoverage.get(s.passage) ?? 0,
      rankLinear: Math.min(s.rank, 20) / 20,
      bracketCite: /\[\d+(?:[,–-]\s*\d+)*\]|\(\p{Lu}[\p{L}-]+(?: et al\.)?,? (?:19|20)\d{2}\)/u.test(s.text) ? 1 : 0,
      definition: /^(?:[\w-]+\s+){0,6}(?:is|are|refers to|denotes)\s+(?:a|an|the)\b/i.test(s.text) ? 1 : 0,
    };
    if (opts.onFeatures) opts.onFeatures(s.text, s.passage, f);
    candidates.push({
      text: s.text,
      ...(leans ? { previous: leans } : {}),
      ...(earlier ? { earlier } : {}),
      ...(reasonAfter ? { next: reasonAfter } : {}),
      passage: s.passage,
      rank: s.rank,
      score: scoreOf(f, opts.weights),
      cue,
      stems: leans ? new Set([...stems, ...tokenize(leans), ...(earlier ? tokenize(earlier) : [])]) : stems,
      order: i,
    });
  });
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  if (opts.answerKindOnly && KIND_BONUS[kind] > 0 && candidates.some((c) => c.cue)) {
    candidates.splice(0, candidates.length, ...candidates.filter((c) => c.cue));
  }
  const picked: Candidate[] = [];
  const perPaperCount = new Map<string, number>();
  const take = (c: Candidate): void => {
    if (picked.length >= maxSentences || picked.includes(c)) return;
    // the sentence two back is already quoted (on its own, or before another): this one goes without it
    if (c.earlier && picked.some((p) => quotedIn(p).includes(c.earlier as string))) dropEarlier(c);
    const twin = picked.find((p) => jaccard(p.stems, c.stems) > 0.6);
    if (twin) {
      // the same statement in another passage: cited beside the better one when it is nearly word for word
      if (jaccard(twin.stems, c.stems) >= 0.8 && twin.passage.chunkUid !== c.passage.chunkUid) {
        const same = (e: EvidencePassage) => e.paperId === c.passage.paperId && e.page === c.passage.page;
        if (!same(twin.passage) && !(twin.alsoIn ?? []).some(same)) twin.alsoIn = [...(twin.alsoIn ?? []), c.passage];
      }
      return;
    }
    // a sentence already quoted beside another one, or the other way round; but a sentence that leans on one quoted
    // on its own ("These scores surpass DPR by …" after "RAPTOR's F-1 Match scores are …") is quoted after it, as
    // its continuation, rather than left out
    if (picked.some((p) => overlaps(p, c))) {
      const host = c.previous ? picked.find((p) => p.text === c.previous && !p.next && onSamePage(p, c)) : null;
      // (the host's terms stay its own: a near-duplicate of its sentence elsewhere is still merged into it)
      if (host && !picked.some((p) => quotedIn(p).includes(c.text))) host.next = c.text;
      return;
    }
    if ((perPaperCount.get(c.passage.paperId) ?? 0) >= perPaper) return;
    picked.push(c);
    perPaperCount.set(c.passage.paperId, (perPaperCount.get(c.passage.paperId) ?? 0) + 1);
  };
  // the best sentences overall (`bestFirst` of them), then the retrieval's best passages each speak (by their best
  // sentence, unless it bears on the question much less than the best one): the search ranked whole passages with the
  // library's statistics, which a sentence's own word overlap cannot see; then the rest by score
  // ("much less": below TOP_PASSAGE_SHARE of the best score when that is positive; the fitted score has no intercept,
  // so a best score ≤ 0 is possible, and then the same relative gap is measured below it)
  const best = candidates[0]?.score ?? 0;
  const floor = best - (1 - TOP_PASSAGE_SHARE) * Math.abs(best);
  for (const c of candidates.slice(0, bestFirst)) take(c);
  for (let rank = 0; rank < TOP_PASSAGES; rank++) {
    const own = candidates.find((c) => c.rank === rank);
    if (own && own.score >= floor) take(own);
  }
  for (const c of candidates) take(c);
  picked.sort((a, b) => b.score - a.score || a.order - b.order);
  return picked.map(({ stems: _s, order: _o, cue: _c, rank: _r, ...p }) => p);
}

export function citationOf(paperId: string, page: number): string {
  return `[${paperId}, page ${page}]`;
}

/**
 * A numbered reference citation in the paper's text: "[3]", "[3 ]", "[12, 15]", "[4–6]" — not an interval or a
 * vector ("[0, 1]", "within [1, 5]"): its first number is not 0, and no word that takes a range comes before it.
 */
const NUMBERED_REFERENCE = /(\S*)(\s*)\[\s*[1-9]\d{0,2}(?:\s*[,–-]\s*\d{1,3})*\s*\]/g;
const RANGE_TAKING = /^(?:to|in|within|into|from|between|range|ranges|interval|intervals|of|over|on|as|is|are|=|∈)$/i;

/** Words after which a number is a quantity or a label, not a footnote marker ("of 4", "Table 4", "k = 4"). */
const NUMBER_TAKING =
  /^(?:of|to|by|than|from|with|and|or|at|in|on|for|is|are|was|were|be|size|sizes|table|figure|fig|section|sec|eq|equation|appendix|chapter|step|steps|layer|layers|top|rank|version|about|around|only|first|last|nearly|almost|over|under|below|above|between|up)$/i;

/** A numbered section heading in capitals run into the sentence after it ("V. AUGMENTATION PROCESS IN RAG In the …"). */
const RUN_IN_CAPS_HEADING =
  /^(?:[IVXLC]+\.|\d+(?:\.\d+)*\.?|[A-Z]\.)\s+(?:[\p{Lu}\d-]+\s+)*?[\p{Lu}-]{2,}\s+(?=\p{Lu}\p{Ll})/u;

/**
 * A sentence of a paper as the answer quotes it: without the paper's own reference markers ("… values of dk [3 ].")
 * and footnote markers — a number of one of its page's footnotes after a lower-case word and before the sentence's
 * punctuation ("… extremely small gradients 4."), or run into a lower-case word once on its page ("… BERT code15 and",
 * `footnoteGlued`) — which in the answer would read as a stray number or a broken citation, nor a numbered heading in
 * capitals run into it. A number inside the sentence ("Llama 2 on", "we used 2 GPUs") stays: the words stay the paper's.
 */
export function quotable(text: string, passage: Pick<EvidencePassage, "footnoteNumbers" | "footnoteGlued">): string {
  let out = text
    .replace(NUMBERED_REFERENCE, (m, word: string, space: string) =>
      RANGE_TAKING.test(word) ? m : `${word}${space && !word ? space : ""}`,
    )
    .replace(RUN_IN_CAPS_HEADING, "");
  const numbers = passage.footnoteNumbers ?? [];
  if (numbers.length > 0) {
    // (a whole lower-case word before it: "Table 4." is a label, "extremely small gradients 4." a marker)
    const marker = new RegExp(
      String.raw`(?<![\p{L}\p{N}])(\p{Ll}{3,})([)”"’]?) (?:${numbers.join("|")})(?=[.,;:!?](?:\s|$)|$)`,
      "gu",
    );
    out = out.replace(marker, (m, word: string, close: string) => (NUMBER_TAKING.test(word) ? m : `${word}${close}`));
  }
  for (const token of passage.footnoteGlued ?? []) {
    const glued = new RegExp(
      String.raw`(?<![\p{L}\p{N}])(${escapeRegExp(token.word)})${token.number}(?=[\s.,;:!?]|$)`,
      "gu",
    );
    out = out.replace(glued, "$1");
  }
  // (the space a removed marker leaves before a sentence's punctuation; "!" opening "![x](…)" is not punctuation)
  return out === text ? text : out.replace(/\s+([.,;:!?])(?=\s|$)/g, "$1").trim();
}

/** A quoted sentence with its citations, as markdown: the paper's text stays text (no link, image or HTML of its own). */
export function citeSentence(s: PickedSentence): string {
  const cites = [s.passage, ...(s.alsoIn ?? [])].map((p) => citationOf(p.paperId, p.page));
  const own = citationOf(s.passage.paperId, s.passage.page);
  const quote = (text: string) => escapeMarkdown(quotable(text, s.passage));
  const before = quotedBefore(s)
    .map((t) => `${quote(t)} ${own} `)
    .join("");
  const after = s.next ? ` ${quote(s.next)} ${own}` : "";
  return `${before}${quote(s.text)} ${cites.join(" ")}${after}`;
}

/** The parts of a question that ask different things ("How does X work and why is it scaled?" → two). */
export function questionParts(question: string): { part: string; context: string }[] {
  const q = question.trim();
  const at = /,?\s+(?:and|but)\s+(?=(?:why|how|what|which|when|where|whether|does|do|is|are)\b)/i.exec(q);
  if (!at) return [{ part: q, context: "" }];
  const first = q.slice(0, at.index).trim();
  const second = q.slice(at.index + at[0].length).trim();
  // the second part's pronouns ("why is it scaled") refer to the first part's subject: its terms set the context
  return [
    { part: first, context: "" },
    { part: second, context: first },
  ];
}

/** A word of a question, one letter long too ("a" ends a run of capitalised words): hyphens and dots inside. */
const NAME_WORD = /[\p{L}\p{N}][\p{L}\p{N}\-.]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

/**
 * The named things a question asks about: quoted phrases, acronyms and names written with capitals or digits
 * ("LoRA", "GLUE", "GPT-3", "HotpotQA"), capitalised words inside the sentence. Plain words are left out: a question
 * paraphrases its evidence, so "footprint" missing from the passages says nothing.
 */
export function namedTerms(question: string): string[] {
  const out: string[] = [];
  for (const m of question.matchAll(/["“]([^"”]{2,80})["”]/g)) out.push(m[1] as string);
  const words = [...question.normalize("NFKC").matchAll(/[\p{L}\p{N}][\p{L}\p{N}\-.]*[\p{L}\p{N}]/gu)];
  words.forEach((m, i) => {
    // a compound's lower-case half is not part of the name ("LLM-written" names "LLM"; "GPT-3", "RAG-Token" stay)
    const w = (m[0] as string)
      .replace(/'s$/, "")
      .split("-")
      .filter((part, _, all) => all.length === 1 || !/^\p{Ll}+$/u.test(part))
      .join("-");
    if (!w) return;
    const named = /\p{Lu}.*\p{Lu}|\p{L}.*\d|\d.*\p{L}/u.test(w) || (i > 0 && /^\p{Lu}\p{Ll}/u.test(w));
    if (named && !out.includes(w)) out.push(w);
  });
  return out;
}

/**
 * The names a question (or a part of one) writes, adjacent capitalised words joined into one ("Constitutional AI",
 * "Vision Transformer"; `namedTerms` gives "AI" and "Constitutional" apart).
 */
export function joinedNames(text: string): string[] {
  const named = new Set(namedTerms(text));
  const words = [...text.normalize("NFKC").matchAll(NAME_WORD)].map((m) => (m[0] as string).replace(/'s$/, ""));
  const out: string[] = [];
  let run: string[] = [];
  const end = () => {
    if (run.length > 1) out.push(run.join(" "));
    else if (run.length === 1 && named.has(run[0] as string)) out.push(run[0] as string);
    run = [];
  };
  words.forEach((w, i) => {
    if (named.has(w) || (i > 0 && /^\p{Lu}/u.test(w))) run.push(w);
    else end();
  });
  end();
  // a quoted phrase or a compound's name that `namedTerms` found inside a word stays a name of its own
  for (const n of named) if (!out.some((o) => o.split(" ").includes(n))) out.push(n);
  return out;
}

/**
 * Which of the question's terms the evidence mentions (its named terms first, then its keywords), and which of its
 * named terms it never does.
 */
export function termCoverage(
  question: string,
  keywords: string[],
  evidence: EvidencePassage[],
): { found: string[]; missing: string[] } {
  const text = new Set(evidence.flatMap((e) => tokenize(e.text)));
  const mentioned = (k: string) => {
    const stems = tokenize(k).filter((t) => !QUESTION_FILLER.has(t));
    return stems.length > 0 && stems.every((t) => text.has(t));
  };
  const named = namedTerms(question);
  const found = [...named, ...keywords.filter((k) => !named.some((n) => n.toLowerCase() === k.toLowerCase()))].filter(
    mentioned,
  );
  const missing = named.filter((k) => tokenize(k).length > 0 && !mentioned(k));
  return { found, missing };
}

/**
 * Whether a text names a sibling of one of the `asked` names (each as its stems) without naming that one: a specific
 * name that shares a word with it, and each has a word the other lacks ("English-to-French" beside "English-to-German",
 * "GPT-2" beside "GPT-3", "BERT-Base" beside "BERT-Large").
 */
function namesSiblingOf(text: string, asked: string[][]): boolean {
  if (asked.length === 0) return false;
  const stems = new Set(tokenize(text));
  const names = namedTerms(text)
    .filter((t) => SPECIFIC_NAME.test(t))
    .map((n) => tokenize(n));
  return asked.some(
    (a) =>
      !a.every((t) => stems.has(t)) &&
      // (a name the asked one extends, "XLNet" of "XLNet-Large", or one that extends it, is no sibling)
      names.some((n) => n.some((t) => a.includes(t)) && n.some((t) => !a.includes(t)) && a.some((t) => !n.includes(t))),
  );
}

/** A name that says which thing among its kind: an acronym, or a name with digits or capitals inside ("WMT",
 *  "GPT-3", "English-to-German", "DeepSeek-R1"), or a quoted phrase of several words. */
const SPECIFIC_NAME = /\p{Lu}.*\p{Lu}|\d|\s/u;

/**
 * What the question is specifically about that the evidence never mentions — its quoted phrases and its names written
 * with capitals inside or digits ("ERA5", "ECMWF", "GPT-3"; a plain capitalised word such as an author's name does not
 * count) — when the evidence mentions none of them; else null. A question whose every specific subject is absent from
 * the passages found for it is not answered by them, however many of its common words they share.
 */
export function absentSubjects(question: string, evidence: EvidencePassage[]): string[] | null {
  const specific = namedTerms(question).filter((t) => SPECIFIC_NAME.test(t));
  if (specific.length === 0) return null;
  const { missing } = termCoverage(question, [], evidence);
  if (!specific.every((t) => missing.includes(t))) return null;
  // …and the passages are about something else: much of the question's other vocabulary is not in them either (a
  // question on the library's topic whose one named benchmark was not found still gets the answer it can have)
  const text = new Set(evidence.flatMap((e) => tokenize(e.text)));
  const named = new Set(specific.flatMap((t) => tokenize(t)));
  const terms = questionTerms(question).filter((t) => !named.has(t));
  const covered = terms.filter((t) => text.has(t)).length / Math.max(1, terms.length);
  return covered < ABSENT_TOPIC_COVERAGE ? specific : null;
}

/**
 * The question's words no paper of the library contains, when they say the library is not about it: at least two of
 * them, and at least a tenth of the question's search terms (one unknown word is a typo or a paraphrase), in a library
 * of at least `minPassages` passages (a handful of papers lacks plain words such as "method" or "improve"), and the
 * passages found cover little of the question's other words (two typos in a question the library answers do not end
 * it) — or, whatever the passages cover, when three or more are unknown and they are a third of its terms: the
 * question's own subject is then what the library lacks, and the words it shares with the library are the general
 * ones ("How accurately do convolutional networks classify skin lesions as melanoma from dermoscopic images…", 5 of
 * 13). Fewer beside a question the passages answer leave it answered ("Why are the dot products scaled by the square
 * root of the key dimension on neuromorphic Loihi chips?", 3 of 10). A word only a few passages of the library hold
 * (`rare`) that none of the passages found holds (in its own spelling or the American one) counts with them where the
 * passages' coverage decides, once three words are missing and at least one is in no paper ("Can a learned cardinality
 * estimator … histogram … workload drift?"); it never ends a question by its count alone (chatty words are rare too:
 * "layman", "jargon"). An unknown word that is a misspelling of a word of the passages by search's rules ("retreival",
 * "diffrence") counts as a typo there, not as a subject. Else null.
 */
export function absentFromLibrary(
  question: string,
  evidence: EvidencePassage[],
  { absent, rare = [], terms, passages }: { absent: string[]; rare?: string[]; terms: number; passages: number },
  minPassages = ABSENT_WORDS_MIN_PASSAGES,
): string[] | null {
  if (passages < minPassages) return null;
  const text = new Set(evidence.flatMap((e) => tokenize(e.text)));
  // (a rare word the passages hold in its American spelling is not missing from them: "behaviour", "behavior")
  const respelled = respelledTerms(rare.join(" "), (t) => text.has(t));
  const unseen = rare.filter((w) => tokenize(w).every((t) => !text.has(respelled.get(t) ?? t)));
  const missing =
    absent.length >= 2 || (absent.length >= 1 && absent.length + unseen.length >= 3) ? [...absent, ...unseen] : absent;
  if (missing.length < 2 || missing.length < 0.1 * terms) return null;
  // (a word a typing slip away from a word of the passages found is a typo of it, not a subject the library lacks:
  // "diffrence betwen retreival")
  const vocabulary = new Set(evidence.flatMap((e) => e.text.toLowerCase().match(/\p{L}{2,}/gu) ?? []));
  const unknownWords = absent.filter((w) => !typoOfWordIn(w, vocabulary));
  if (unknownWords.length >= ABSENT_WORDS_DECISIVE && 3 * unknownWords.length >= terms) return absent;
  // (the rest is the question without its words in no paper: a rare word left in it, which the passages lack, counts
  // against their coverage, as before rare words counted at all)
  const unknown = new Set(absent.flatMap((w) => tokenize(w)));
  const rest = questionTerms(question).filter((t) => !unknown.has(t));
  const covered = rest.filter((t) => text.has(t)).length / Math.max(1, rest.length);
  return covered < ABSENT_TOPIC_COVERAGE ? missing : null;
}

/** A misspelling of a word of the vocabulary, by search's rules (lib/search/spelling.ts): seven letters or more, written
 *  in lower case, one typing slip from a word of the passages and not that word with letters added or cut at an end
 *  ("GAN", "ViT" or "tpu" are no typos of "an", "it" or "gpu"). */
function typoOfWordIn(word: string, vocabulary: ReadonlySet<string>): boolean {
  if (!correctable(word)) return false;
  for (const v of vocabulary) if (isSlipOf(word, v)) return true;
  return false;
}

/** About ten papers' passages: the least library whose vocabulary says what it is not about (the 40-paper corpus has
 *  1,934). */
export const ABSENT_WORDS_MIN_PASSAGES = 500;

/** Unknown words that are not typos: this many end a question whose passages cover its other words (no answerable
 *  question of the benchmark's sixteen sets has more than two, docs/benchmarks.md). */
const ABSENT_WORDS_DECISIVE = 3;

/** Below this share of the question's other key terms in the passages, an absent subject means an absent topic. */
const ABSENT_TOPIC_COVERAGE = 0.7;

/** The sentences a pick quotes before its own, in order (the one it leans on, and the one that leans on in turn). */
export function quotedBefore(p: PickedSentence): string[] {
  return [p.earlier, p.previous].filter((t): t is string => Boolean(t));
}

/** The sentences a pick quotes, in order (what a later section must not quote again). */
export function quotedIn(p: PickedSentence): string[] {
  return [...quotedBefore(p), p.text, ...(p.next ? [p.next] : [])];
}

/** Two picks from one page of one paper. */
function onSamePage(a: PickedSentence, b: PickedSentence): boolean {
  return a.passage.paperId === b.passage.paperId && a.passage.page === b.passage.page;
}

/** Two picks that quote a sentence in common. */
function overlaps(a: PickedSentence, b: PickedSentence): boolean {
  const inA = new Set(quotedIn(a));
  return quotedIn(b).some((t) => inA.has(t));
}

/**
 * The quick answer's sentences, chosen without a per-paper quota — a question about one paper gets that paper's best
 * sentences, not five of it and then weaker ones from others; the top passages' own best sentences still bring in the
 * other papers retrieval ranked high. Eight (was ten with a quota of five): on the benchmark's 116 questions the
 * answers cite as many sentences as before (891 against 882), docs/benchmarks.md "Round 4".
 */
const ANSWER_SENTENCES = 8;
/** The best sentences overall that lead, before the top passages each speak (2 before the fitted scorer, which ranks
 *  evidence sentences higher: docs/benchmarks.md "A fitted sentence scorer"). */
const ANSWER_BEST_FIRST = 4;

/**
 * The offline answer: the sentence that answers most directly first (one per part of a multi-part question), then the
 * supporting sentences grouped by paper, every sentence quoted exactly and cited with its paper and page; and, when the
 * retrieved passages never mention some of the question's key terms, a line that says so. Empty when no sentence of
 * the evidence bears on the question.
 */
export function synthesizeExtractive(question: string, evidence: EvidencePassage[], opts: ComposeOptions): string {
  const picked = pickSentences(question, evidence, {
    maxSentences: ANSWER_SENTENCES,
    perPaper: ANSWER_SENTENCES,
    bestFirst: ANSWER_BEST_FIRST,
    ...opts,
  });
  if (picked.length === 0) return "";
  const direct: PickedSentence[] = [];
  const parts = questionParts(question);
  for (const { part, context } of parts) {
    // each part of a multi-part question is answered from its own words (the question's keywords span all parts)
    const keywords = parts.length > 1 ? [] : opts.keywords;
    const lead = {
      ...opts,
      keywords,
      context,
      maxSentences: 3,
      bestFirst: ANSWER_BEST_FIRST,
      answerKindOnly: true,
    };
    const leads = new Set(direct.flatMap(quotedIn));
    const options = pickSentences(part, evidence, lead)
      .map((p) => withoutQuotedEarlier(p, leads))
      .filter((p) => !direct.some((d) => overlaps(d, p)));
    // the lead is not about a sibling of a name the question asks about: "… BLEU … on WMT 2014 English-to-German?" is
    // not led by the English-to-French score (it scored higher for following the German one on its page), nor a
    // question on GPT-3 by a GPT-2 figure — when one of the best options is free of such a name
    const asked = namedTerms(part)
      .filter((t) => SPECIFIC_NAME.test(t))
      .map((n) => tokenize(n))
      .filter((n) => n.length > 0);
    const best = options.find((p) => !namesSiblingOf(quotedIn(p).join(" "), asked)) ?? options[0];
    if (best) direct.push(best);
  }
  if (direct.length === 0) direct.push(picked[0] as PickedSentence);
  // a lead sentence keeps the sentence that leans on it in the answer's pick, as its continuation
  for (const d of direct) {
    if (d.next) continue;
    const after = picked
      .filter((p) => onSamePage(p, d))
      .map((p) => (p.text === d.text ? p.next : p.previous === d.text ? p.text : undefined))
      .find((t) => t !== undefined);
    if (after && !direct.some((o) => quotedIn(o).includes(after))) d.next = after;
  }
  const inLead = new Set(direct.flatMap(quotedIn));
  const others = picked.map((c) => withoutQuotedEarlier(c, inLead)).filter((c) => !direct.some((d) => overlaps(d, c)));
  const sections = [`## Answer\n\n${direct.map(citeSentence).join(" ")}`];
  const { found, missing } = termCoverage(question, opts.keywords, evidence);
  if (found.length > 0 && missing.length > 0) {
    sections.push(
      `_The library's passages discuss ${escapeMarkdown(joinList(found.slice(0, 3)))} but none mentions ${escapeMarkdown(joinList(missing))}._`,
    );
  }
  if (others.length > 0) {
    const byPaper = new Map<string, PickedSentence[]>();
    for (const c of others) byPaper.set(c.passage.paperId, [...(byPaper.get(c.passage.paperId) ?? []), c]);
    const parts = [...byPaper.values()].map((items) => {
      const title = escapeMarkdown((items[0] as PickedSentence).passage.title.trim());
      return `### ${title}\n\n${items.map((c) => `- ${citeSentence(c)}`).join("\n")}`;
    });
    sections.push(`## Supporting evidence\n\n${parts.join("\n\n")}`);
  }
  return sections.join("\n\n");
}
