import { createHash } from "node:crypto";
import { getPapersByIds } from "@/db/queries/papers";
import type { RetrievedRecord } from "@/db/queries/research";
import { LecternError } from "@/lib/errors";
import { parseQueries } from "@/lib/search/query";
import { searchContent } from "@/lib/search/search";
import { analyzeWithRules, extractKeywords } from "../analysis";
import { type EvidencePassage, judgeCitations, malformedCitations, verifyCitations } from "../citations";
import type { ResearchDeps, RunOptions } from "../orchestrator";
import { buildReferences, formatReferences } from "../references";
import { keywordCoverage, type RerankedResult, rerank } from "../rerank";
import { errorMessage, passageSource, pendingStep, toEvidence } from "../step-kit";
import { citeSentence, evidenceBlock, pickSentences, synthesizeWithLlm } from "../synthesis";
import { applyEvent, type ResearchError, type ResearchEvent, type ResearchRunState, type ResearchStep } from "../types";
import type { KnowledgePoint, Outline } from "./types";

/** Searches run at once (one per knowledge point). */
export const POINT_CONCURRENCY = 4;
/** Candidates per point before re-ranking, and passages kept per point after it. */
export const POINT_CANDIDATES = 20;
export const POINT_KEEP = 10;
/** A point that owns fewer passages than this borrows its best ones from the points that own them. */
export const MIN_POINT_PASSAGES = 1;
/** Evidence characters a section's model prompt may hold (the context budget). */
export const SECTION_EVIDENCE_CHARS = 12_000;

const IMPORTANCE_ORDER = { high: 0, medium: 1, low: 2 } as const;

/** The search queries of a point: topic with keywords, keywords alone, the topic alone (deduplicated). */
export function pointQueries(point: KnowledgePoint): string[] {
  const kw = point.search_keywords.join(" ");
  return [
    ...new Set([`${point.topic} ${kw}`.trim(), kw, point.topic].map((q) => q.replace(/\s+/g, " ").trim())),
  ].filter((q) => q.length > 0);
}

/** Dedup key of a passage across points: DOI and page, else title and page, else a hash of its text. */
export function dedupKey(p: { doi?: string | null; title?: string | null; page: number; text: string }): string {
  if (p.doi) return `doi:${p.doi.toLowerCase()}#${p.page}`;
  if (p.title?.trim()) return `title:${p.title.trim().toLowerCase().replace(/\s+/g, " ")}#${p.page}`;
  return `hash:${createHash("sha256").update(p.text.replace(/\s+/g, " ").trim()).digest("hex").slice(0, 16)}`;
}

/** Runs `fn` over items with at most `limit` at once, keeping order of results. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return out;
}

const SECTION_INSTRUCTIONS =
  "You write one section of a literature review using ONLY the source passages given. Do not use outside knowledge. " +
  "Start with the section heading given (## ...). Cite EVERY factual sentence with the exact citation of its source " +
  "as given, like [1706.03762v5, page 4], at the end of the sentence. No reference list.";

export interface DeepRunInput {
  outline: Outline;
  /** "improve: …" feedback: addressed in every section. */
  feedback?: string;
}

/**
 * Deep research over an outline: each knowledge point searched on its own (in parallel, its own step), passages
 * deduplicated across points, one section per point written in turn (streamed), an introduction and a conclusion,
 * verification of every citation, references. Emits the same events as a quick run.
 */
export function deepRunner(input: DeepRunInput) {
  return async (deps: ResearchDeps, question: string, opts: RunOptions): Promise<ResearchRunState> => {
    const started = performance.now();
    const parent = opts.signal ?? new AbortController().signal;
    const runTimeout = AbortSignal.timeout(deps.runTimeoutMs);
    const signal = AbortSignal.any([parent, runTimeout]);
    const { outline, feedback } = input;
    const points = [...outline.knowledge_points].sort(
      (a, b) => IMPORTANCE_ORDER[a.importance] - IMPORTANCE_ORDER[b.importance],
    );
    const plan: ResearchStep[] = [
      pendingStep("outline", "analysis", `Outline: ${outline.knowledge_points.length} knowledge points`),
      ...points.map((p) => pendingStep(`point_${p.id}`, "rag_search", `Searching: ${p.topic}`, "content")),
      ...points.map((p) => pendingStep(`section_${p.id}`, "synthesis", `Writing: ${p.topic}`)),
      pendingStep("framing", "synthesis", "Writing the introduction and conclusion"),
      pendingStep("verification", "verification", "Verifying citations"),
      pendingStep("formatting", "formatting", "Formatting references"),
    ];
    let state: ResearchRunState | null = null;
    const emit = (e: ResearchEvent) => {
      state = applyEvent(state, e);
      opts.onEvent(e);
    };
    const llm = deps.chatModel;
    emit({
      kind: "run_started",
      runId: opts.runId,
      question,
      mode: llm ? "llm" : "offline",
      model: llm ? (typeof llm === "string" ? llm : llm.modelId) : "extractive",
      startedAt: new Date().toISOString(),
      steps: plan.map((s) => ({ ...s })),
    });
    const current = new Map(plan.map((s) => [s.id, s]));
    const update = (id: string, patch: Partial<ResearchStep>) => {
      const next = { ...(current.get(id) as ResearchStep), ...patch };
      current.set(id, next);
      emit({ kind: "step", step: next });
    };
    const toError = (e: unknown): ResearchError => {
      if (parent.aborted) return { code: "cancelled", message: "The research run was cancelled." };
      if (runTimeout.aborted) {
        return {
          code: "timeout",
          message: `The research run took longer than ${Math.round(deps.runTimeoutMs / 1000)} s and was stopped.`,
          hint: "Remove some knowledge points, or raise LECTERN_RESEARCH_TIMEOUT_MS.",
        };
      }
      if (e && typeof e === "object" && "detail" in e) return (e as { detail: ResearchError }).detail;
      if (e instanceof LecternError && e.kind === "bad_request") return { code: "bad_request", message: e.message };
      return { code: "internal", message: errorMessage(e) };
    };
    const step = async <T>(id: string, fn: () => Promise<{ result: T; patch: Partial<ResearchStep> }>): Promise<T> => {
      const t0 = performance.now();
      update(id, { status: "in_progress", startedAt: new Date().toISOString() });
      try {
        signal.throwIfAborted();
        const { result, patch } = await fn();
        signal.throwIfAborted();
        update(id, { ...patch, status: "completed", durationMs: Math.round(performance.now() - t0) });
        return result;
      } catch (e) {
        const error = toError(e);
        update(id, { status: "failed", durationMs: Math.round(performance.now() - t0), error });
        throw Object.assign(new Error(error.message), { detail: error });
      }
    };
    const warnings: string[] = [];
    const retrieved: RetrievedRecord[] = [];
    const intent = analyzeWithRules(question).intent;
    const filters = { yearFrom: outline.year_from, yearTo: outline.year_to };

    try {
      await step("outline", async () => {
        parseQueries(question);
        return {
          result: null,
          patch: {
            reasoning:
              `${outline.title}. ${outline.search_strategy}`.trim() +
              (outline.year_from || outline.year_to
                ? ` Years ${outline.year_from ?? "…"}–${outline.year_to ?? "…"} only.`
                : "") +
              (feedback ? ` Improving with feedback: “${feedback}”.` : ""),
            queries: points.map((p) => p.topic),
            data: { outline, feedback: feedback ?? null },
          },
        };
      });

      // per-point search, 4 at a time
      const found = await pool(points, POINT_CONCURRENCY, (point) =>
        step(`point_${point.id}`, async () => {
          const queries = pointQueries(point);
          const results = await searchContent(deps.db, queries, deps.embedder, {
            k: POINT_CANDIDATES,
            mmrAlpha: 0.6,
            ...filters,
          });
          const top = rerank(results, { intent, keywords: point.search_keywords }).slice(0, POINT_KEEP);
          return {
            result: top,
            patch: {
              title: `Searched: ${point.topic} (${top.length} passages)`,
              queries,
              sources: top.map(passageSource),
              reasoning: `${queries.length} queries from the topic and its keywords; ${results.length} candidates, re-ranked by keyword coverage, best ${top.length} kept.`,
              confidence: top.length > 0 ? Math.max(...top.map((r) => r.relevance)) : 0,
              data: { point: point.id, candidates: results.length, kept: top.length },
            },
          };
        }).catch((e: unknown) => {
          // one point's failure (e.g. keywords with nothing to search for) does not stop the others
          if (signal.aborted) throw e;
          warnings.push(`The search for “${point.topic}” failed: ${errorMessage(e)}`);
          return [] as RerankedResult[];
        }),
      );
      // deduplicate across points: a passage found by several belongs to the one whose keywords it covers best
      // (the more important point on a tie)
      const paperIds = [...new Set(found.flat().map((r) => r.paperId))];
      const meta = new Map((await getPapersByIds(deps.db, { ids: paperIds })).map((p) => [p.id, p]));
      const owner = new Map<string, { pi: number; coverage: number }>();
      found.forEach((list, pi) => {
        for (const r of list) {
          const key = dedupKey({ doi: meta.get(r.paperId)?.doi, title: r.title, page: r.page, text: r.text });
          const coverage = keywordCoverage((points[pi] as KnowledgePoint).search_keywords, r.text);
          const cur = owner.get(key);
          if (!cur || coverage > cur.coverage) owner.set(key, { pi, coverage });
        }
      });
      const kept = new Set<string>();
      const borrowed = new Set<string>();
      const perPoint = found.map((list, pi) => {
        const own = list.filter((r) => {
          const key = dedupKey({ doi: meta.get(r.paperId)?.doi, title: r.title, page: r.page, text: r.text });
          if (owner.get(key)?.pi !== pi || kept.has(key)) return false;
          kept.add(key);
          return true;
        });
        // a point left with almost nothing (a small library, overlapping topics) shares its best passages instead
        // of saying the library holds nothing on it
        if (own.length >= MIN_POINT_PASSAGES) return own;
        const shared = list.filter((r) => !own.includes(r)).slice(0, 2);
        for (const r of shared) borrowed.add(`${pi}:${r.chunkUid}`);
        return [...own, ...shared];
      });
      const recorded = new Set<string>();
      perPoint.forEach((list, pi) => {
        retrieved.push(
          ...list
            .filter((r) => !recorded.has(r.chunkUid) && recorded.add(r.chunkUid))
            .map((r, i) => ({
              chunkUid: r.chunkUid,
              paperId: r.paperId,
              page: r.page,
              stage: "content" as const,
              rank: pi * 100 + i + 1,
              score: r.rerankScore,
            })),
        );
      });
      opts.onRetrieved?.([...retrieved]);
      const allEvidence = [...new Map(perPoint.flat().map((r) => [r.chunkUid, toEvidence(r)])).values()];
      if (allEvidence.length === 0) {
        throw Object.assign(new Error("no evidence"), {
          detail: {
            code: "no_papers",
            message: `No papers found relevant to query: "${question}". Try refining your search terms.`,
          } satisfies ResearchError,
        });
      }

      // sections, one per point, each streamed as it is written
      const sections: string[] = [];
      const used: string[] = [];
      for (const [pi, point] of points.entries()) {
        const evidence = (perPoint[pi] ?? []).map(toEvidence);
        const text = await step(`section_${point.id}`, async () => {
          const heading = `## ${point.topic}`;
          if (evidence.length === 0) {
            const md = `${heading}\n\n_The library holds no passage on this topic${filters.yearFrom || filters.yearTo ? " in the chosen years" : ""}._`;
            emit({ kind: "answer_delta", text: `${sections.length > 0 ? "\n\n" : ""}${md}` });
            return { result: md, patch: { title: `No evidence for: ${point.topic}`, data: { evidence: 0 } } };
          }
          const offline = () => {
            const picked = pickSentences(`${point.topic} ${point.search_keywords.join(" ")}`, evidence, {
              intent,
              keywords: [...point.search_keywords, ...(feedback ? extractKeywords(feedback) : [])],
              maxSentences: point.importance === "high" ? 5 : point.importance === "medium" ? 4 : 3,
              exclude: used,
            });
            // sentences quoted from borrowed passages stay free for the section that owns them
            const isBorrowed = (p: { passage: EvidencePassage }) => borrowed.has(`${pi}:${p.passage.chunkUid}`);
            used.push(...picked.filter((p) => !isBorrowed(p)).map((p) => p.text));
            return picked.length > 0 ? `${heading}\n\n${picked.map(citeSentence).join(" ")}` : "";
          };
          const sep = sections.length > 0 ? "\n\n" : "";
          if (llm) {
            try {
              emit({ kind: "answer_delta", text: sep });
              const md = await synthesizeWithLlm(llm, question, evidence, {
                signal: AbortSignal.any([signal, AbortSignal.timeout(deps.llmTimeoutMs)]),
                instructions: SECTION_INSTRUCTIONS,
                prompt:
                  `Review question: ${question}\nSection heading: ${heading}\nKeywords: ${point.search_keywords.join(", ")}\n` +
                  (feedback ? `The researcher asked: ${feedback}\n` : "") +
                  `\nSources:\n\n${evidenceBlock(evidence, SECTION_EVIDENCE_CHARS)}\n\nWrite the section.`,
                onDelta: (t) => emit({ kind: "answer_delta", text: t }),
              });
              return {
                result: md.trim(),
                patch: { title: `Wrote: ${point.topic}`, data: { method: "llm", evidence: evidence.length } },
              };
            } catch (e) {
              if (parent.aborted || runTimeout.aborted) throw e;
              warnings.push(
                `Failed to synthesize the section “${point.topic}”: ${errorMessage(e)}. Showing an extractive section.`,
              );
            }
          }
          const md =
            offline() || `${heading}\n\n_No sentence of the retrieved passages addresses this topic directly._`;
          emit({ kind: "answer_delta", text: `${sep}${md}` });
          return {
            result: md,
            patch: { title: `Wrote: ${point.topic}`, data: { method: "extractive", evidence: evidence.length } },
          };
        });
        sections.push(text);
      }

      const { intro, conclusion } = await step("framing", async () => {
        const covered = points.filter((_, i) => (perPoint[i] ?? []).length > 0).map((p) => p.topic);
        const papers = new Set(allEvidence.map((e) => e.paperId)).size;
        const introMd =
          `# ${outline.title}\n\n## Introduction\n\n` +
          `This review answers “${question.trim()}” from ${allEvidence.length} passages of ${papers} ${papers === 1 ? "paper" : "papers"} in your library, ` +
          `in ${covered.length} ${covered.length === 1 ? "topic" : "topics"}: ${covered.join("; ")}.` +
          (feedback ? ` This version also addresses: “${feedback}”.` : "");
        const opts = { intent, keywords: extractKeywords(question), maxSentences: 2 };
        // the strongest evidence not quoted yet; when every good sentence is in a section already, the best one again
        const fresh = pickSentences(question, allEvidence, { ...opts, exclude: used });
        const closing = fresh.length > 0 ? fresh : pickSentences(question, allEvidence, { ...opts, maxSentences: 1 });
        const conclusionMd =
          closing.length > 0
            ? `## Conclusion\n\n${closing.map(citeSentence).join(" ")}`
            : "## Conclusion\n\n_The passages found say little that bears on the question as a whole; see the sections above._";
        return {
          result: { intro: introMd, conclusion: conclusionMd },
          patch: { title: "Wrote the introduction and conclusion", data: { topics: covered.length } },
        };
      });
      const body = [intro, ...sections, conclusion].filter(Boolean).join("\n\n");

      const citations = await step("verification", async () => {
        const malformed = malformedCitations(body);
        if (malformed.length > 0)
          warnings.push(`Some citations could not be read: ${malformed.slice(0, 5).join(", ")}`);
        let checked = verifyCitations(body, allEvidence);
        let method = "lexical";
        if (llm && checked.some((c) => c.chunkUid)) {
          try {
            checked = await judgeCitations(llm, checked, allEvidence, {
              signal: AbortSignal.any([signal, AbortSignal.timeout(deps.llmTimeoutMs)]),
            });
            method = "llm";
          } catch (e) {
            if (signal.aborted) throw e;
            warnings.push(`The model could not judge the citations (${errorMessage(e)}); the lexical check stands.`);
          }
        }
        const supported = checked.filter((c) => c.supported).length;
        return {
          result: checked,
          patch: {
            title: `Verified ${checked.length} citations: ${supported} supported`,
            confidence: checked.length > 0 ? supported / checked.length : null,
            data: { total: checked.length, supported, unsupported: checked.length - supported, method },
          },
        };
      });

      const references = await step("formatting", async () => {
        const cited = [...new Set(citations.map((c) => c.paperId))];
        const refs = buildReferences(
          (await getPapersByIds(deps.db, { ids: cited })).map((p) => ({
            id: p.id,
            title: p.title,
            authors: p.authors,
            arxivId: p.arxivId,
            publishedDate: p.publishedDate,
            year: p.year,
            doi: p.doi,
          })),
        );
        return { result: refs, patch: { title: `Listed ${refs.length} references`, data: { citedPaperIds: cited } } };
      });
      emit({
        kind: "answer",
        markdown: [body, formatReferences(references)].filter(Boolean).join("\n\n"),
        citations,
        references,
        warnings: [...warnings],
      });
      emit({ kind: "run_finished", status: "completed", durationMs: Math.round(performance.now() - started) });
    } catch (e) {
      const error = toError(e);
      emit({
        kind: "run_finished",
        status: error.code === "cancelled" ? "cancelled" : "failed",
        durationMs: Math.round(performance.now() - started),
        error,
      });
    }
    return state as unknown as ResearchRunState;
  };
}
