import { generateText, type LanguageModel } from "ai";
import { z } from "zod";
import { timeoutSignal } from "@/lib/abort";
import { parseQueries } from "@/lib/search/query";
import { type PaperResult, searchContent, searchSummaries } from "@/lib/search/search";
import { analyzeWithRules, extractKeywords } from "../analysis";
import type { ResearchDeps } from "../deps";
import { parseModelJson } from "../json";
import { type KeyPhrase, keyPhrases, titleCase } from "./phrases";
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
  const phrases = keyPhrases(texts, { max: 12, exclude: [question] });
  return {
    papers,
    yearMin: years.length > 0 ? Math.min(...years) : null,
    yearMax: years.length > 0 ? Math.max(...years) : null,
    phrases,
  };
}

// ---- Clarifying questions -------------------------------------------------------------------------------------------

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
      options: ["A short overview", "Technical detail (methods, equations)", "Everything the library holds"],
    },
    {
      id: "timerange",
      question: "Should it cover every year, or a recent period only?",
      purpose: "timerange",
      options: ["All years", "The last 3 years"],
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
  if (intent === "comparison" && ctx.papers.length >= 2) {
    out.push({
      id: "scope",
      question: "Which approaches should be compared?",
      purpose: "scope",
      options: ctx.papers.slice(0, 4).map((p) => p.title.slice(0, 110)),
    });
  } else if (ctx.papers.length > 0) {
    out.push({
      id: "scope",
      question: `${ctx.papers.length} of your papers match. Should the review stay with these, or cover anything related?`,
      purpose: "scope",
      options: ["Only the closest papers", "Anything related in the library"],
    });
  }
  out.push({
    id: "depth",
    question:
      intent === "performance"
        ? "Should the review report exact figures (benchmarks, metrics), or the overall picture?"
        : "How deep should the review go?",
    purpose: "depth",
    options:
      intent === "performance"
        ? ["Exact figures", "The overall picture"]
        : ["A short overview", "Technical detail (methods, equations)", "Everything the library holds"],
  });
  if (ctx.yearMin !== null && ctx.yearMax !== null && ctx.yearMax > ctx.yearMin) {
    out.push({
      id: "timerange",
      question: `The matching papers span ${ctx.yearMin}–${ctx.yearMax}. Which years should the review cover?`,
      purpose: "timerange",
      options: [`All (${ctx.yearMin}–${ctx.yearMax})`, `Since ${Math.max(ctx.yearMin, ctx.yearMax - 2)}`],
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
          'timerange) and up to 4 suggested answers. Reply with JSON only: {"questions": [{"id": "q1", "question": ' +
          '"...", "purpose": "focus", "options": ["...", "..."]}]}',
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

/** Phrases grouped by the passages they share: each group becomes one knowledge point. */
function groupPhrases(phrases: KeyPhrase[], maxGroups: number): KeyPhrase[][] {
  const groups: KeyPhrase[][] = [];
  const used = new Set<KeyPhrase>();
  for (const seed of phrases) {
    if (used.has(seed)) continue;
    used.add(seed);
    const group = [seed];
    for (const p of phrases) {
      if (used.has(p) || group.length >= 4) continue;
      let shared = 0;
      for (const d of p.docs) if (seed.docs.has(d)) shared++;
      if (shared / Math.min(p.docs.size, seed.docs.size) >= 0.6) {
        group.push(p);
        used.add(p);
      }
    }
    groups.push(group);
    if (groups.length >= maxGroups) break;
  }
  return groups;
}

function answersText(answers: ClarifyingAnswer[]): string {
  return answers
    .map((a) => a.answer.trim())
    .filter(Boolean)
    .join(". ");
}

/** A year range the answers ask for ("Since 2021", "2019-2023", "All (…)" means none). */
export function yearsFromAnswers(answers: ClarifyingAnswer[]): { year_from?: number; year_to?: number } {
  for (const a of answers) {
    const t = a.answer;
    if (/^\s*all\b/i.test(t)) continue;
    const range = /\b(19\d{2}|20\d{2})\s*(?:–|-|to)\s*(19\d{2}|20\d{2})\b/.exec(t);
    if (range) return { year_from: Number(range[1]), year_to: Number(range[2]) };
    const since = /\b(?:since|from|after)\s+(19\d{2}|20\d{2})\b/i.exec(t);
    if (since) return { year_from: Number(since[1]) };
  }
  return {};
}

/**
 * The offline outline, built from the library: key phrases of the best-matching summaries and passages, grouped by
 * the passages they share into 4–8 topics (more shared passages → higher importance). Returns null when the library
 * holds too little about the question.
 */
export async function outlineFromLibrary(
  deps: ResearchDeps,
  question: string,
  answers: ClarifyingAnswer[] = [],
): Promise<Outline | null> {
  const focus = answersText(answers.filter((a) => !/^\s*all\b/i.test(a.answer)));
  const queries = focus ? [question, `${extractKeywords(question).join(" ")} ${focus}`] : [question];
  const years = yearsFromAnswers(answers);
  const [papers, passages] = await Promise.all([
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
    }).catch(() => []),
  ]);
  const texts = [...papers.flatMap((p) => p.passages.map((s) => s.text)), ...passages.map((r) => r.text)];
  if (texts.length < 2) return null;
  const questionWords = extractKeywords(question);
  const phrases = keyPhrases(texts, { max: 40, exclude: [question] });
  // the question's own phrases lead; then the library's
  const groups = groupPhrases(phrases, GENERATED_POINTS.max);
  // the question's most specific word (the longest) joins each point's keywords, to keep searches on the question
  const anchor = [...questionWords].sort((a, b) => b.length - a.length)[0];
  const points: KnowledgePoint[] = groups.map((g, i) => {
    // a group is named by its best multi-word phrase when it has one ("dense vector index" over "index")
    const name = g.find((p) => p.stems.length > 1) ?? (g[0] as KeyPhrase);
    const importance: Importance =
      i < Math.ceil(groups.length / 3) ? "high" : i < Math.ceil((2 * groups.length) / 3) ? "medium" : "low";
    const keywords = [...new Set([name.text, ...g.map((p) => p.text), ...(anchor ? [anchor] : [])])].slice(0, 6);
    return {
      id: `kp${i + 1}`,
      category: categoryOf(g.map((p) => p.text).join(" ")),
      topic: titleCase(name.text),
      search_keywords: keywords,
      importance,
    };
  });
  // too few topics: one per matching paper, named by its title
  for (const p of papers) {
    if (points.length >= GENERATED_POINTS.min) break;
    if (points.some((k) => k.topic.toLowerCase() === p.title.toLowerCase())) continue;
    points.push({
      id: `kp${points.length + 1}`,
      category: "Papers",
      topic: p.title.slice(0, 200),
      search_keywords: extractKeywords(p.title, 5).length > 0 ? extractKeywords(p.title, 5) : [p.paperId],
      importance: "medium",
    });
  }
  if (points.length < GENERATED_POINTS.min) return null;
  return outlineSchema.parse({
    title: titleCase(question.replace(/[?.!]+\s*$/, "")).slice(0, 300),
    knowledge_points: points.slice(0, GENERATED_POINTS.max),
    search_strategy:
      `Built from ${papers.length} matching paper summaries and ${passages.length} passages: each topic is a group of ` +
      "key phrases that occur in the same passages; each is searched on its own (full text and vectors), most important first.",
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
    const outline = outlineSchema.parse({ ...parsed, ...yearsFromAnswers(answers) });
    return { value: outline, method: "llm" };
  } catch (e) {
    if (signal?.aborted) throw e;
    return fromLibrary(`The model's outline was unusable (${(e as Error).message}); built one from the library.`);
  }
}
