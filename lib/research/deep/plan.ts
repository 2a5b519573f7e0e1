import { generateText, type LanguageModel } from "ai";
import { z } from "zod";
import { timeoutSignal } from "@/lib/abort";
import { asksToCompare } from "@/lib/search/intent";
import { parseQueries } from "@/lib/search/query";
import { type ContentResult, type PaperResult, searchContent, searchSummaries } from "@/lib/search/search";
import { escapeRegExp } from "@/lib/text/regexp";
import { tokenize } from "@/lib/text/terms";
import { analyzeWithRules, extractKeywords } from "../analysis";
import { joinedNames, questionParts } from "../compose";
import type { ResearchDeps } from "../deps";
import { parseModelJson } from "../json";
import {
  acronymExpansion,
  candidateStems,
  cleanKeywords,
  collectPhrases,
  type Genericity,
  isGenericStem,
  isGenericTopic,
  isNamedToken,
  type KeyPhrase,
  keyPhrases,
  mentionsTopic,
  NO_LIBRARY,
  type PhraseSource,
  questionTopics,
  rankPhrases,
  sameStem,
  sentenceCase,
  titleCase,
  titleLead,
  topicKeywords,
  topicTerms,
  wordsOf,
} from "./phrases";
import {
  type ClarifyingAnswer,
  type ClarifyingQuestion,
  clarifyingQuestionSchema,
  GENERATED_POINTS,
  type Importance,
  type KnowledgePoint,
  knowledgePointSchema,
  type Outline,
  outlineSchema,
} from "./types";
import { libraryGenericity } from "./vocabulary";

export interface PlanResult<T> {
  value: T;
  method: "llm" | "library" | "fallback";
  /** Why the model's output was not used, when it was not. */
  warning?: string;
}

/** What the library holds about the question: the matching papers and the key phrases of their summaries. */
async function libraryContext(deps: ResearchDeps, question: string) {
  let papers: PaperResult[] = [];
  try {
    papers = await searchSummaries(deps.db, question, deps.embedder, { k: 8, mmrAlpha: 0.5 });
  } catch {
    papers = [];
  }
  const passages = await searchContent(deps.db, question, deps.embedder, { k: 15, mmrAlpha: 0.6 }).catch(() => []);
  const years = papers.map((p) => p.year).filter((y): y is number => typeof y === "number");
  const texts = [...papers.flatMap((p) => p.passages.map((s) => s.text)), ...passages.map((r) => r.text)];
  const phrases = keyPhrases(texts, { max: 12, excludeStems: tokenize(question) });
  // the papers a comparison may choose from: the summaries' matches, then those of the passages found (a question
  // phrased as "how does X compare with Y" may match one paper's summary and the other's passages only)
  const comparable = papers.map((p) => ({ paperId: p.paperId, title: p.title }));
  for (const r of passages) {
    if (!comparable.some((c) => c.paperId === r.paperId)) comparable.push({ paperId: r.paperId, title: r.title });
  }
  return {
    papers,
    comparable,
    yearMin: years.length > 0 ? Math.min(...years) : null,
    yearMax: years.length > 0 ? Math.max(...years) : null,
    phrases,
  };
}

// ---- Clarifying questions -------------------------------------------------------------------------------------------

/** A paper's title as a suggested answer: its first this many characters. */
const OPTION_TITLE_CHARS = 110;

/** Answers that set how the review is made (its scope, depth, years), not what it is about. */
const SCOPE_OPTIONS = ["Only this paper", "Only the closest papers", "Anything related in the library"] as const;
const DEPTH_OPTIONS = ["A short overview", "Technical detail (methods, equations)", "Everything the library holds"];
const FIGURES_OPTIONS = ["Exact figures", "The overall picture"];
const YEARS_OPTIONS = ["All years", "The last 3 years"];
const SETTINGS = new Set([...SCOPE_OPTIONS, ...DEPTH_OPTIONS, ...FIGURES_OPTIONS, ...YEARS_OPTIONS].map(lower));

function lower(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * The answers that say what the review is about ("Low-rank adaptation", a paper's title, typed words), without the
 * ones that only set how it is made — a preset scope or depth ("Only the closest papers"), a year range ("Since
 * 2021"), "All …" — which, as search words, would pull in passages about "closest" or "overview".
 */
export function topicAnswers(answers: ClarifyingAnswer[]): ClarifyingAnswer[] {
  return answers.filter((a) => {
    const t = a.answer.trim();
    if (!t || /^all\b/i.test(t) || SETTINGS.has(lower(t))) return false;
    return Object.keys(yearsFromAnswers([a])).length === 0 || /\p{L}{4,}/u.test(t.replace(YEAR_WORDS, ""));
  });
}

/**
 * An answer as the outline takes it: the options chosen of a question that takes several, each on its own (one search
 * of four paper titles at once finds the passages of none), and what was written beside them (`rest`). A choice counts
 * only when the answer, the words sent, holds it. An answer to any other question is all `rest`.
 */
export function answerChoices(answer: ClarifyingAnswer): { chosen: string[]; rest: string } {
  let rest = answer.answer;
  const chosen: string[] = [];
  for (const choice of answer.choices ?? []) {
    const found = new RegExp(escapeRegExp(choice), "i").exec(rest);
    if (!found || chosen.some((c) => lower(c) === lower(choice))) continue;
    chosen.push(choice);
    rest = `${rest.slice(0, found.index)};${rest.slice(found.index + found[0].length)}`;
  }
  if (chosen.length === 0) return { chosen, rest: answer.answer };
  const parts = rest
    .split(";")
    .map((t) => t.trim())
    .filter(Boolean);
  return { chosen, rest: parts.join("; ") };
}

/** The words of a year answer ("Since 2021", "2019–2023 only", "The last 3 years"). */
const YEAR_WORDS = /\b(?:since|from|after|to|only|the|last|past|\d+|years?)\b|[–-]/gi;

/** Default questions when nothing better is known (and when the model's JSON is unusable). */
export function defaultClarifyingQuestions(): ClarifyingQuestion[] {
  return [
    {
      id: "focus",
      question: "Which aspect matters most to you?",
      purpose: "focus",
      options: ["Methods and how they work", "Results and numbers", "Limitations and open problems"],
    },
    {
      id: "depth",
      question: "How deep should the review go?",
      purpose: "depth",
      options: DEPTH_OPTIONS,
    },
    {
      id: "timerange",
      question: "Should it cover every year, or a recent period only?",
      purpose: "timerange",
      options: YEARS_OPTIONS,
    },
  ];
}

/** Offline clarifying questions: chosen by the intent and by what the matching papers hold (years, topics). */
export async function clarifyFromLibrary(deps: ResearchDeps, question: string): Promise<ClarifyingQuestion[]> {
  const { intent } = analyzeWithRules(question);
  const ctx = await libraryContext(deps, question);
  const out: ClarifyingQuestion[] = [];
  if (ctx.phrases.length >= 2) {
    out.push({
      id: "focus",
      question: `Your papers on this discuss ${ctx.phrases
        .slice(0, 3)
        .map((p) => `“${p.text}”`)
        .join(", ")}. Which should the review focus on?`,
      purpose: "focus",
      options: [...ctx.phrases.slice(0, 4).map((p) => p.text), "All of them"],
    });
  }
  if ((intent === "comparison" || asksToCompare(question)) && ctx.comparable.length >= 2) {
    out.push({
      id: "scope",
      question: "Which approaches should be compared?",
      purpose: "scope",
      options: ctx.comparable.slice(0, 4).map((p) => p.title.slice(0, OPTION_TITLE_CHARS)),
      // a comparison is of two or more: the researcher picks any of them
      multiple: true,
    });
  } else if (ctx.papers.length > 0) {
    const one = ctx.papers.length === 1;
    out.push({
      id: "scope",
      question: one
        ? "One of your papers matches. Should the review stay with it, or cover anything related?"
        : `${ctx.papers.length} of your papers match. Should the review stay with these, or cover anything related?`,
      purpose: "scope",
      options: [one ? SCOPE_OPTIONS[0] : SCOPE_OPTIONS[1], SCOPE_OPTIONS[2]],
    });
  }
  out.push({
    id: "depth",
    question:
      intent === "performance"
        ? "Should the review report exact figures (benchmarks, metrics), or the overall picture?"
        : "How deep should the review go?",
    purpose: "depth",
    options: intent === "performance" ? FIGURES_OPTIONS : DEPTH_OPTIONS,
  });
  if (ctx.yearMin !== null && ctx.yearMax !== null && ctx.yearMax > ctx.yearMin) {
    out.push({
      id: "timerange",
      question: `The matching papers span ${ctx.yearMin}–${ctx.yearMax}. Which years should the review cover?`,
      purpose: "timerange",
      // (the recent choice is never the whole span again: two years give "Only 2021", not "Since 2020")
      options: [
        `All (${ctx.yearMin}–${ctx.yearMax})`,
        ctx.yearMax - ctx.yearMin === 1 ? `Only ${ctx.yearMax}` : `Since ${Math.max(ctx.yearMin + 1, ctx.yearMax - 2)}`,
      ],
    });
  }
  // 2–4 questions
  const list =
    out.length >= 2 ? out : [...out, ...defaultClarifyingQuestions().filter((d) => !out.some((o) => o.id === d.id))];
  return list.slice(0, 4);
}

const clarifyReplySchema = z.object({ questions: z.array(clarifyingQuestionSchema).min(1).max(6) });

/**
 * 2–4 clarifying questions. With a model: asked in the user's language as JSON, parsed robustly (fences, prose,
 * validation); offline or on any failure: questions from the intent and the library.
 */
export async function generateClarifyingQuestions(
  deps: ResearchDeps,
  question: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<PlanResult<ClarifyingQuestion[]>> {
  parseQueries(question);
  if (deps.chatModel) {
    try {
      const { text } = await generateText({
        model: deps.chatModel,
        instructions:
          "You help a researcher plan a literature review over their own paper library. Ask 2 to 4 short clarifying " +
          "questions, in the language of the researcher's question, each with a purpose (scope, focus, depth or " +
          'timerange) and up to 4 suggested answers; "multiple": true on a question whose answer may be several of ' +
          "them (which approaches to compare), false otherwise. Reply with JSON only: " +
          '{"questions": [{"id": "q1", "question": "...", "purpose": "focus", "options": ["...", "..."], ' +
          '"multiple": false}]}',
        prompt: `Research question: ${question}`,
        temperature: 0.3,
        maxOutputTokens: 600,
        maxRetries: 0,
        abortSignal: timeoutSignal(deps.llmTimeoutMs, signal),
      });
      const { questions } = parseModelJson(text, clarifyReplySchema);
      return { value: questions.slice(0, 4), method: "llm" };
    } catch (e) {
      if (signal?.aborted) throw e;
      const value = await clarifyFromLibrary(deps, question).catch(() => defaultClarifyingQuestions());
      return { value, method: "fallback", warning: `Clarifying questions without the model: ${(e as Error).message}` };
    }
  }
  return { value: await clarifyFromLibrary(deps, question), method: "library" };
}

// ---- Knowledge-point outline ----------------------------------------------------------------------------------------

function categoryOf(text: string): string {
  if (/\b(dataset|corpus|benchmark|data)\b/i.test(text)) return "Datasets and benchmarks";
  if (/\b(accuracy|results?|performance|score|evaluation|f1|bleu|perplexity)\b/i.test(text)) return "Results";
  if (/\b(limitation|challenge|problem|bias|risk|failure)\w*\b/i.test(text)) return "Limitations";
  if (/\b(train|training|pre-?train\w*|fine-?tun\w*|optimi[sz]\w*|loss)\b/i.test(text)) return "Training";
  return "Methods";
}

function answersText(answers: ClarifyingAnswer[]): string {
  return answers
    .map((a) => a.answer.trim())
    .filter(Boolean)
    .join(". ");
}

/**
 * A year range the answers ask for ("Since 2021", "2019-2023", "Only 2021", "The last 3 years" — counted back from
 * `now`'s year; "All (…)" means none).
 */
export function yearsFromAnswers(
  answers: ClarifyingAnswer[],
  now: Date = new Date(),
): { year_from?: number; year_to?: number } {
  for (const a of answers) {
    const t = a.answer;
    if (/^\s*all\b/i.test(t)) continue;
    const range = /\b(19\d{2}|20\d{2})\s*(?:–|-|to)\s*(19\d{2}|20\d{2})\b/.exec(t);
    if (range) return { year_from: Number(range[1]), year_to: Number(range[2]) };
    const since = /\b(?:since|from|after)\s+(19\d{2}|20\d{2})\b/i.exec(t);
    if (since) return { year_from: Number(since[1]) };
    const only = /^\s*(?:only\s+)?(?:in\s+)?(19\d{2}|20\d{2})(?:\s+only)?\s*$/i.exec(t);
    if (only) return { year_from: Number(only[1]), year_to: Number(only[1]) };
    const last = /\b(?:the\s+)?(?:last|past)\s+(\d{1,2})\s+years?\b/i.exec(t);
    if (last) return { year_from: now.getFullYear() - Number(last[1]) + 1 };
  }
  return {};
}

/** The headings of a passage's section path, without their numbering ("4 Our method › 4.2 Applying LoRA"). */
function headingsOf(section: string | null): string[] {
  if (!section) return [];
  return section
    .split("›")
    .map((h) => h.replace(/^\s*(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+/, "").trim())
    .filter((h) => h.length > 2);
}

/** What the outline is built from: the matching papers' titles and summaries, the passages and their headings. */
/** How much a text is about the question: the share of the question's own specific words it uses. */
function questionShare(anchors: string[]): (text: string) => number {
  return (text: string) => {
    if (anchors.length === 0) return 1;
    const have = tokenize(text);
    return anchors.filter((a) => have.some((h) => sameStem(a, h))).length / anchors.length;
  };
}

/** A text's weight for the outline: how much of the question it speaks to (a text using none still counts a little). */
function questionWeight(share: number): number {
  return 0.1 + 0.9 * share ** 2;
}

/** A library phrase is a point only when one of its sources uses this share of the question's own words at least. */
const ON_QUESTION_SHARE = 0.5;

function outlineSources(
  papers: PaperResult[],
  passages: ContentResult[],
  onQuestion: (text: string) => number,
): PhraseSource[] {
  // a source counts by its relevance, and by how many of the question's own specific words it uses
  const sources: PhraseSource[] = [];
  const titles = new Set<string>();
  const headings = new Set<string>();
  const title = (paperId: string, text: string, weight: number) => {
    if (titles.has(paperId)) return;
    titles.add(paperId);
    sources.push({ text, kind: "title", paperId, weight: weight * onQuestion(text) });
  };
  for (const p of papers) {
    title(p.paperId, p.title, p.relevance);
    for (const s of p.passages)
      sources.push({ text: s.text, kind: "passage", paperId: p.paperId, weight: s.relevance });
  }
  for (const r of passages) {
    title(r.paperId, r.title, r.relevance);
    const weight = r.relevance * onQuestion(r.text);
    sources.push({ text: r.text, kind: "passage", paperId: r.paperId, weight });
    for (const h of headingsOf(r.section)) {
      const key = `${r.paperId}#${h.toLowerCase()}`;
      if (headings.has(key)) continue;
      headings.add(key);
      sources.push({ text: h, kind: "heading", paperId: r.paperId, weight });
    }
  }
  return sources;
}

/**
 * How well each paper matches the question: its summary's relevance plus its best passage's (a paper that only one of
 * the two searches finds matches less).
 */
function paperMatch(
  papers: PaperResult[],
  passages: ContentResult[],
  onQuestion: (text: string) => number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of papers) out.set(p.paperId, p.relevance);
  const best = new Map<string, number>();
  for (const r of passages) best.set(r.paperId, Math.max(best.get(r.paperId) ?? 0, r.relevance));
  for (const [id, r] of best) out.set(id, (out.get(id) ?? 0) + r);
  // …and by how many of the question's own words the paper's title, summary and passages use
  for (const [id, m] of out) {
    const paper = papers.find((p) => p.paperId === id);
    const own = [
      paper?.title ?? "",
      ...(paper?.passages.map((s) => s.text) ?? []),
      ...passages.filter((r) => r.paperId === id).map((r) => r.text),
    ];
    out.set(id, m * onQuestion(own.join("\n")));
  }
  return out;
}

/** A knowledge point while the outline is built. */
interface Draft {
  topic: string;
  /** The stems of each name the topic goes by ("LoRA", "low-rank adaptation"). */
  names: string[][];
  keywords: string[];
  docs: Set<number>;
  importance?: Importance;
}

/**
 * Do two phrases name the same topic: the words of one are all in the other ("LoRA" in "LoRA (low-rank adaptation)"),
 * or they share their head — last — word and two words more or half of theirs ("graph retrieval-augmented
 * generation", "retrieval-augmented generation"), unlike "self-correction" and "self-training".
 */
function sameTopic(a: string[], b: string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  if (small.every((s) => large.includes(s))) return true;
  if (a[a.length - 1] !== b[b.length - 1]) return false;
  const shared = small.filter((s) => large.includes(s)).length;
  return shared >= 2 && shared / small.length >= 0.5;
}

/** The same words, in any order. */
function sameStems(a: string[], b: string[]): boolean {
  return new Set(a).size === new Set(b).size && a.every((s) => b.includes(s));
}

/** A paper's name is a point only when the paper matches the question this well, relative to the best match. */
const NAMED_PAPER_MATCH = 0.85;
/** Points at most from the names matching papers lead their titles with. */
const MAX_NAMED_POINTS = 3;
/** A library phrase becomes a point only with at least this share of the best phrase's score. */
const MIN_POINT_SCORE_SHARE = 0.15;

/** Of a part's fitting phrases, how many of the best are weighed for the one that says most of it. */
const PART_PHRASES = 5;

/**
 * What one part of a question is about: the names it writes ("LoRA", "BERT") and the library's best phrase made of
 * its own specific words ("multi-head attention", "retrieval-augmented generation", "deepfake detection"); not a
 * phrase of only generic words. At most one phrase per part, besides its names. A name the sources define as something
 * generic is no subject, as for the library's own phrases: "LLMs (large language models)" in "… RAG for LLMs".
 */
export function partSubjects(
  part: string,
  phrases: KeyPhrase[],
  library: Genericity,
  texts: readonly string[] = [],
): string[] {
  const stems = tokenize(part);
  const names = joinedNames(part).filter((n) => {
    if (isGenericTopic(n, library)) return false;
    // (the sources may define the singular or the plural: "LLM" by "large language models (LLMs)")
    const forms = [n, n.endsWith("s") ? n.slice(0, -1) : `${n}s`];
    const expansion = forms.map((f) => acronymExpansion(f, texts as string[])).find((e) => e !== null) ?? null;
    return !expansion || !isGenericTopic(expansion, library);
  });
  const nameStems = names.flatMap((n) => tokenize(n));
  const fitting = phrases.filter(
    (p) =>
      p.stems.length > 0 &&
      p.stems.every((s) => stems.some((x) => sameStem(s, x))) &&
      p.stems.some((s) => !isGenericStem(s, library)) &&
      !p.stems.every((s) => nameStems.some((x) => sameStem(s, x))) &&
      !isGenericTopic(p.text, library),
  );
  // of the best few, the one that says most of the part ("multi-head attention" rather than "attention heads")
  const phrase = fitting.slice(0, PART_PHRASES).sort((a, b) => b.stems.length - a.stems.length)[0];
  return [...names, ...(phrase ? [phrase.text] : [])];
}

/**
 * The offline outline, built from the library: what the question lists ("self-correction, self-training and
 * verification"), the named methods the best-matching papers lead their titles with ("LoRA"), then the key phrases of
 * the matching titles, headings, summaries and passages (`rankPhrases`) — multi-word or named, never filler, with
 * acronyms as written. Phrases that share the passages of a point become its keywords. Returns null when the library
 * holds too little about the question.
 */
export async function outlineFromLibrary(
  deps: ResearchDeps,
  question: string,
  answers: ClarifyingAnswer[] = [],
): Promise<Outline | null> {
  const split = answers.map((a) => ({ a, ...answerChoices(a) }));
  const focus = answersText(topicAnswers(split.map(({ a, rest }) => ({ ...a, answer: rest }))));
  // the options chosen of a question that takes several (the approaches to compare): each searched, and a point
  const chosen = topicAnswers(split.flatMap(({ a, chosen }) => chosen.map((c) => ({ ...a, answer: c })))).map(
    (a) => a.answer,
  );
  // a question of several parts ("What is X and how is Y trained?") is searched part by part too: one part's topic
  // must not crowd the other's out of the passages
  const parts = questionParts(question).map((p) => p.part);
  const questionKeywords = extractKeywords(question).join(" ");
  const queries = [
    question,
    ...(parts.length > 1 ? parts : []),
    ...(focus ? [`${questionKeywords} ${focus}`] : []),
    ...chosen.map((c) => `${questionKeywords} ${c}`),
  ];
  const years = yearsFromAnswers(answers);
  const questionStems = tokenize(question);
  const [questionWords, papers, passages] = await Promise.all([
    libraryGenericity(deps.db, questionStems),
    searchSummaries(deps.db, queries, deps.embedder, {
      k: 8,
      mmrAlpha: 0.5,
      yearFrom: years.year_from,
      yearTo: years.year_to,
    }).catch(() => [] as PaperResult[]),
    searchContent(deps.db, queries, deps.embedder, {
      k: 24,
      mmrAlpha: 0.6,
      yearFrom: years.year_from,
      yearTo: years.year_to,
    }).catch(() => [] as ContentResult[]),
  ]);
  // the question's words that say what it is about: not filler, not what every paper of the library says
  const anchors = questionStems.filter((s) => !isGenericStem(s, questionWords));
  const share = questionShare(anchors);
  const onQuestion = (text: string) => questionWeight(share(text));
  const sources = outlineSources(papers, passages, onQuestion);
  const sourceShare = sources.map((s) => share(s.text));
  if (sources.filter((s) => s.kind === "passage").length < 2) return null;

  // document frequencies of the candidates' words in the library's summaries tell its common words
  const candidates = collectPhrases(sources);
  const library = await libraryGenericity(deps.db, [...questionStems, ...candidateStems(candidates, 150)]);
  const texts = sources.map((s) => s.text);
  // the question's own subject is what every passage shares; what it lists are its topics, and so are the subjects
  // of its parts when it asks about two things
  const listed = questionTopics(question);
  if (listed.length === 0 && parts.length > 1) {
    const all = rankPhrases(candidates, { max: 200, library });
    for (const part of parts)
      for (const t of partSubjects(part, all.phrases, library, texts)) if (!listed.includes(t)) listed.push(t);
  }
  const listedStems = new Set(listed.flatMap((t) => tokenize(t)));
  const subject = questionStems.filter((s) => !listedStems.has(s));
  const inSubject = (s: string) => subject.some((x) => sameStem(s, x));
  const index = rankPhrases(candidates, { max: 200, excludeStems: subject, library });
  const form = (phrase: string) => wordsOf(phrase).map((w) => (isNamedToken(w) ? w : index.form(w.toLowerCase())));
  const points: Draft[] = [];
  const taken = (stems: string[]) => points.find((p) => p.names.some((n) => sameTopic(n, stems)));

  // 1. what the question lists, as the library writes it; a lone word by the library's best phrase holding it
  for (const item of listed) {
    const stems = tokenize(item);
    const docs = new Set(sources.flatMap((s, i) => (mentionsTopic(topicTerms(item), s.text) ? [i] : [])));
    if (!isGenericTopic(item, library) && docs.size > 0) {
      if (!taken(stems))
        points.push({ topic: form(item).join(" "), names: [stems], keywords: [item], docs, importance: "high" });
      continue;
    }
    const holder = index.phrases.find((p) => stems.every((s) => p.stems.includes(s)) && !taken(p.stems));
    if (holder)
      points.push({
        topic: holder.text,
        names: [holder.stems],
        keywords: [holder.text],
        docs: holder.docs,
        importance: "high",
      });
  }

  // 1b. what the researcher chose to compare: a matching paper (its title was the option) is named by the name its title
  // leads with, or by its title, and its own passages are its sources; any other choice is named as written, where the
  // sources mention it
  const titled = [...papers, ...passages];
  for (const choice of chosen) {
    const key = lower(choice).slice(0, OPTION_TITLE_CHARS);
    const paper = titled.find((p) => lower(p.title).slice(0, OPTION_TITLE_CHARS) === key);
    const lead = paper ? titleLead(paper.title) : null;
    const name = paper ? (lead && !isGenericTopic(lead, library) ? lead : paper.title) : choice;
    const stems = tokenize(name);
    if (stems.length === 0 || taken(stems) || (!paper && isGenericTopic(name, library))) continue;
    const keywords = paper && name !== paper.title ? [name] : topicKeywords(name);
    const docs = new Set(
      sources.flatMap((s, i) =>
        (paper ? s.paperId === paper.paperId : mentionsTopic(topicTerms(name), s.text)) ? [i] : [],
      ),
    );
    if (keywords.length === 0 || docs.size === 0) continue;
    points.push({ topic: name, names: [stems], keywords, docs, importance: "high" });
  }

  // 2. the named methods the best-matching papers lead their titles with, with the expansion their text gives
  // (only the papers that match about as well as the best one: the question is about them)
  const match = paperMatch(papers, passages, onQuestion);
  const bestMatch = Math.max(0, ...match.values());
  let named = 0;
  for (const paper of papers) {
    if (named >= MAX_NAMED_POINTS) break;
    if ((match.get(paper.paperId) ?? 0) < NAMED_PAPER_MATCH * bestMatch) continue;
    const lead = titleLead(paper.title);
    if (!lead || isGenericTopic(lead, library)) continue;
    const leadStems = tokenize(lead);
    if (leadStems.length === 0 || leadStems.every(inSubject) || taken(leadStems)) continue;
    const own = [
      paper.title,
      ...paper.passages.map((s) => s.text),
      ...passages.filter((r) => r.paperId === paper.paperId).map((r) => r.text),
    ];
    const acronym = wordsOf(lead).find(isNamedToken) as string;
    const expansionText = acronymExpansion(acronym, own);
    const docs = new Set(sources.flatMap((s, i) => (mentionsTopic(topicTerms(lead), s.text) ? [i] : [])));
    points.push({
      topic: expansionText && expansionText.toLowerCase() !== lead.toLowerCase() ? `${lead} (${expansionText})` : lead,
      names: [leadStems, ...(expansionText ? [tokenize(expansionText)] : [])],
      keywords: [lead, ...(expansionText ? [expansionText] : [])],
      docs,
    });
    named++;
  }

  // 3. the library's key phrases; one near a point already taken becomes its keyword
  const eligible = index.phrases.flatMap((p): { p: KeyPhrase; topic: string; expansion: string | null }[] => {
    if (wordsOf(p.text).length > 1 || p.stems.length > 1) return [{ p, topic: p.text, expansion: null }];
    // a lone name is a topic when the library defines it ("DPR (dense passage retriever)") — unless that is the
    // question's own subject abbreviated ("RAG"), or something generic ("LLMs (large language models)")
    const expansion = acronymExpansion(p.text, texts);
    if (!expansion || tokenize(expansion).every(inSubject) || isGenericTopic(expansion, library)) return [];
    return [{ p, topic: `${p.text} (${expansion})`, expansion }];
  });
  const best = Math.max(0, ...eligible.map((e) => e.p.score));
  for (const { p, topic, expansion } of eligible) {
    const near = taken(p.stems) ?? (expansion ? taken(tokenize(expansion)) : undefined);
    if (near) {
      // a point named by what an acronym stands for goes by the acronym too: "LoRA (low-rank adaptation)"
      // (only when it stands for the point's name exactly: "MDHA (Multi-DConv-Head attention)" does not rename
      // "multi-head attention")
      if (expansion && near.names.length === 1 && sameStems(near.names[0] as string[], tokenize(expansion))) {
        near.topic = topic;
        near.names.push(p.stems);
        near.keywords.unshift(p.text);
      } else if (near.keywords.length < 4) near.keywords.push(p.text);
      continue;
    }
    if (points.length >= GENERATED_POINTS.max || p.score < best * MIN_POINT_SCORE_SHARE) continue;
    // used where the question is discussed, not only beside it
    if (Math.max(...[...p.docs].map((d) => sourceShare[d] ?? 0)) < ON_QUESTION_SHARE) continue;
    points.push({
      topic,
      names: [p.stems, ...(expansion ? [tokenize(expansion)] : [])],
      keywords: [p.text, ...(expansion ? [expansion] : [])],
      docs: p.docs,
    });
  }
  const phrases = eligible.map((e) => e.p);
  // phrases that occur in the same sources as a point describe it too
  for (const p of phrases) {
    if (points.some((d) => d.keywords.some((k) => k.toLowerCase() === p.text.toLowerCase()))) continue;
    const home = points
      .filter((d) => d.keywords.length < 4 && d.docs.size > 0)
      .map((d) => {
        let shared = 0;
        for (const x of p.docs) if (d.docs.has(x)) shared++;
        return { d, share: shared / Math.min(p.docs.size, d.docs.size) };
      })
      .sort((a, b) => b.share - a.share)[0];
    if (home && home.share >= 0.6) home.d.keywords.push(p.text);
  }

  const drafts = points.slice(0, GENERATED_POINTS.max);
  const ranked = drafts.filter((d) => !d.importance);
  const built: KnowledgePoint[] = drafts.map((d, i) => {
    const r = ranked.indexOf(d);
    const importance: Importance =
      d.importance ??
      (r < Math.ceil(ranked.length / 3) ? "high" : r < Math.ceil((2 * ranked.length) / 3) ? "medium" : "low");
    const keywords = cleanKeywords([...d.keywords], library);
    return {
      id: `kp${i + 1}`,
      category: categoryOf([d.topic, ...d.keywords].join(" ")),
      topic: sentenceCase(d.topic).slice(0, 200),
      search_keywords: (keywords.length > 0 ? keywords : [d.topic]).slice(0, 6),
      importance,
    };
  });
  // too few topics: one per matching paper, named by its title
  for (const p of papers) {
    if (built.length >= GENERATED_POINTS.min) break;
    if (built.some((k) => k.topic.toLowerCase() === p.title.toLowerCase())) continue;
    const kw = cleanKeywords(extractKeywords(p.title, 5), library);
    built.push({
      id: `kp${built.length + 1}`,
      category: "Papers",
      topic: p.title.slice(0, 200),
      search_keywords: kw.length > 0 ? kw : [p.paperId],
      importance: "medium",
    });
  }
  if (built.length < GENERATED_POINTS.min) return null;
  return outlineSchema.parse({
    title: titleCase(question.replace(/[?.!]+\s*$/, "")).slice(0, 300),
    knowledge_points: built.slice(0, GENERATED_POINTS.max),
    search_strategy:
      `Built from ${papers.length} matching paper summaries and ${passages.length} passages: the topics the question ` +
      `lists, ${chosen.length > 0 ? "the approaches chosen to compare, " : ""}the methods the matching papers are ` +
      "named for, and key phrases of their titles, headings and text " +
      "(keywords: phrases found in the same passages); each is searched on its own (full text and vectors), most " +
      "important first.",
    ...years,
  });
}

/** A fixed-shape outline from the question's own words: the last resort when nothing else works. */
export function fallbackOutline(question: string, answers: ClarifyingAnswer[] = []): Outline {
  const kw = extractKeywords(question, 8);
  const base = kw.length > 0 ? kw : ["research"];
  const main = base.slice(0, 3).join(" ");
  const mk = (id: string, category: string, topic: string, extra: string[], importance: Importance) => ({
    id,
    category,
    topic,
    search_keywords: [...new Set([...base.slice(0, 3), ...extra])].slice(0, 6),
    importance,
  });
  return outlineSchema.parse({
    title: titleCase(question.replace(/[?.!]+\s*$/, "")).slice(0, 300) || "Research review",
    knowledge_points: [
      mk("kp1", "Background", `What ${main} is`, ["definition", "introduction"], "high"),
      mk("kp2", "Methods", `How ${main} works`, ["method", "approach", "architecture"], "high"),
      mk("kp3", "Results", `Results of ${main}`, ["results", "evaluation", "accuracy"], "medium"),
      mk("kp4", "Limitations", `Limitations of ${main}`, ["limitations", "challenges", "future work"], "low"),
    ],
    search_strategy: "A default outline from the question's keywords (the library gave too little to build one).",
    ...yearsFromAnswers(answers),
  });
}

const llmOutlineSchema = z.object({
  title: z.string().min(2).max(300),
  knowledge_points: z
    .array(knowledgePointSchema.extend({ id: z.coerce.string().min(1).max(40) }))
    .min(GENERATED_POINTS.min)
    .max(GENERATED_POINTS.max),
  search_strategy: z.string().max(1000).default(""),
});

/**
 * The knowledge-point outline. With a model: JSON validated (4–8 points, unique ids), else the library's outline;
 * offline: the library's outline; the fixed fallback when the library holds too little. Never throws for bad output.
 */
export async function generateOutline(
  deps: ResearchDeps,
  question: string,
  answers: ClarifyingAnswer[] = [],
  { signal }: { signal?: AbortSignal } = {},
): Promise<PlanResult<Outline>> {
  parseQueries(question);
  const fromLibrary = async (warning?: string): Promise<PlanResult<Outline>> => {
    const lib = await outlineFromLibrary(deps, question, answers).catch(() => null);
    return lib
      ? { value: lib, method: "library", ...(warning ? { warning } : {}) }
      : {
          value: fallbackOutline(question, answers),
          method: "fallback",
          warning: warning ?? "The library holds too little on this question for a tailored outline.",
        };
  };
  if (!deps.chatModel) return fromLibrary();
  try {
    const model: LanguageModel = deps.chatModel;
    const { text } = await generateText({
      model,
      instructions:
        "You plan a literature review over a researcher's own paper library. Produce an outline of 4 to 8 knowledge " +
        "points (sub-topics), each with a category, a topic, 2 to 6 search keywords and an importance (high, medium, " +
        'low). Reply with JSON only: {"title": "...", "knowledge_points": [{"id": "kp1", "category": "...", "topic": ' +
        '"...", "search_keywords": ["..."], "importance": "high"}], "search_strategy": "..."}',
      prompt: `Research question: ${question}\n${answers.length > 0 ? `Clarifications:\n${answers.map((a) => `- ${a.question} ${a.answer}`).join("\n")}` : ""}`,
      temperature: 0.3,
      maxOutputTokens: 1200,
      maxRetries: 0,
      abortSignal: timeoutSignal(deps.llmTimeoutMs, signal),
    });
    const parsed = parseModelJson(text, llmOutlineSchema);
    const library = await libraryGenericity(
      deps.db,
      parsed.knowledge_points.flatMap((p) => tokenize(`${p.topic} ${p.search_keywords.join(" ")}`)),
    );
    const checked = validatePoints(parsed.knowledge_points, library);
    if (checked.points.length < GENERATED_POINTS.min) {
      return fromLibrary(
        `The model's outline had too few specific points (${describeChanges(checked)}); built one from the library.`,
      );
    }
    const outline = outlineSchema.parse({
      ...parsed,
      knowledge_points: checked.points,
      ...yearsFromAnswers(answers),
    });
    const changes = describeChanges(checked);
    return { value: outline, method: "llm", ...(changes ? { warning: `The model's outline: ${changes}.` } : {}) };
  } catch (e) {
    if (signal?.aborted) throw e;
    return fromLibrary(`The model's outline was unusable (${(e as Error).message}); built one from the library.`);
  }
}

export interface CheckedPoints {
  points: KnowledgePoint[];
  /** Generic topics renamed from their keywords: [from, to]. */
  renamed: [string, string][];
  /** Generic topics with no specific keyword to be named by. */
  dropped: string[];
}

/**
 * Holds points from elsewhere (a model's outline) to the rules of the library's own: keywords without filler, and no
 * generic topic (`isGenericTopic`: one ordinary word, or filler only) — such a point is renamed by its first specific
 * keyword, or dropped when it has none.
 */
export function validatePoints(points: KnowledgePoint[], library: Genericity = NO_LIBRARY): CheckedPoints {
  const out: KnowledgePoint[] = [];
  const renamed: [string, string][] = [];
  const dropped: string[] = [];
  for (const p of points) {
    const keywords = cleanKeywords(p.search_keywords, library);
    let topic = p.topic.replace(/\s+/g, " ").trim();
    if (isGenericTopic(topic, library)) {
      const name = keywords.find(
        (k) => !isGenericTopic(k, library) && !out.some((o) => o.topic.toLowerCase() === k.toLowerCase()),
      );
      if (!name) {
        dropped.push(topic);
        continue;
      }
      renamed.push([topic, sentenceCase(name)]);
      topic = sentenceCase(name);
    }
    out.push({ ...p, topic, search_keywords: keywords.length > 0 ? keywords : [topic] });
  }
  return { points: out, renamed, dropped };
}

/** "renamed “Data” to “Training data”; dropped “Set”", or "" when nothing changed. */
function describeChanges({ renamed, dropped }: CheckedPoints): string {
  const parts = [
    ...(renamed.length > 0 ? [`renamed ${renamed.map(([a, b]) => `“${a}” to “${b}”`).join(", ")}`] : []),
    ...(dropped.length > 0 ? [`dropped ${dropped.map((d) => `“${d}”`).join(", ")} (no specific topic)`] : []),
  ];
  return parts.join("; ");
}
