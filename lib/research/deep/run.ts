import { getPapersByIds } from "@/db/queries/papers";
import { escapeMarkdown } from "@/lib/text/markdown";
import { analyzeWithRules } from "../analysis";
import type { EvidencePassage } from "../citations";
import { markFootnotes } from "../footnotes";
import { executeRun, type Runner, StepError } from "../lifecycle";
import type { RerankedResult } from "../rerank";
import { errorMessage, toEvidence } from "../step-kit";
import { answerMarkdown, formattingStep } from "../steps/formatting";
import { NO_PAPERS_HINT, NO_PAPERS_MESSAGE } from "../steps/search-summaries";
import { verificationStep } from "../steps/verification";
import { webCitationsStep } from "../steps/web-citations";
import { webSearchStep } from "../steps/web-search";
import { composeWebSection, webReasonBeforeSearch, webSourcesMarkdown } from "../web";
import { assignPassages, pool } from "./evidence";
import { framingStep } from "./steps/framing";
import { outlineStep } from "./steps/outline";
import { pointSearchStep } from "./steps/point-search";
import { RELATIONS_HEADING, relationsStep } from "./steps/relations";
import { sectionStep } from "./steps/section";
import type { Outline } from "./types";

/** Searches run at once (one per knowledge point). */
export const POINT_CONCURRENCY = 4;

const IMPORTANCE_ORDER = { high: 0, medium: 1, low: 2 } as const;

export interface DeepRunInput {
  outline: Outline;
  /** "improve: …" feedback: addressed in every section. */
  feedback?: string;
}

/**
 * Deep research over an outline: each knowledge point searched on its own (in parallel, its own step), passages
 * deduplicated across points, one section per point written in turn (streamed), "How these works relate" from the
 * knowledge graph (the relations the evidence's papers state between methods and models), an introduction and a
 * conclusion, verification of every citation, references. Same lifecycle and events as a quick run.
 *
 * With a web search provider (deps.web), the plan searches the web as the quick run's does — for recent work, and in
 * `auto` mode when the points' evidence is weak — and the review gets a "From the web" section of quoted page
 * sentences cited `[W1]`…, checked against the fetched pages.
 */
export function deepRunner({ outline, feedback }: DeepRunInput): Runner {
  const points = [...outline.knowledge_points].sort(
    (a, b) => IMPORTANCE_ORDER[a.importance] - IMPORTANCE_ORDER[b.importance],
  );
  const years = { yearFrom: outline.year_from, yearTo: outline.year_to };
  return (deps, question, hooks) => {
    const web = deps.web ?? null;
    const webReason = web ? webReasonBeforeSearch(question, { asked: false, mode: web.mode }) : null;
    const webPlanned = web !== null && (web.mode === "auto" || webReason !== null);
    return executeRun(deps, question, hooks, {
      plan: [
        outlineStep.card(outline),
        ...points.map((p) => pointSearchStep.card(p)),
        ...(webPlanned ? [webSearchStep.card()] : []),
        ...points.map((p) => sectionStep.card(p)),
        relationsStep.card(),
        framingStep.card(),
        verificationStep.card(),
        ...(webPlanned ? [webCitationsStep.card()] : []),
        formattingStep.card(),
      ],
      timeoutHint: "Remove some knowledge points, or raise LECTERN_RESEARCH_TIMEOUT_MS.",
      async body(run) {
        const intent = analyzeWithRules(question).intent;
        await run.step(outlineStep, { outline, points, feedback }, outline);
        const found = await pool(points, POINT_CONCURRENCY, (point) =>
          run.step(pointSearchStep, { point, intent, years }, point).catch((e: unknown): RerankedResult[] => {
            // one point's failure (e.g. keywords with nothing to search for) does not stop the others
            if (run.stopped()) throw e;
            run.warn(`The search for “${point.topic}” failed: ${errorMessage(e)}`);
            return [];
          }),
        );
        const papers = await getPapersByIds(deps.db, { ids: [...new Set(found.flat().map((r) => r.paperId))] });
        const doi = new Map(papers.map((p) => [p.id, p.doi]));
        const assigned = assignPassages(points, found, (id) => doi.get(id));
        run.record(assigned.retrieved);
        // passages that start inside a footnote of their page quote nothing of it (lib/research/footnotes.ts)
        const marked = new Map(
          (await markFootnotes(deps.db, assigned.all, (m) => run.warn(m))).map((e) => [e.chunkUid, e]),
        );
        const withNotes = (e: EvidencePassage) => marked.get(e.chunkUid) ?? e;
        const evidence = { ...assigned, all: assigned.all.map(withNotes) };
        const webPages =
          web && webPlanned
            ? await run.step(webSearchStep, {
                web,
                reason: webReason,
                passages: found
                  .flat()
                  .sort((a, b) => b.relevance - a.relevance)
                  .map((r) => ({ ...toEvidence(r), relevance: r.relevance })),
              })
            : [];
        if (evidence.all.length === 0 && webPages.length === 0) {
          throw new StepError({ code: "no_papers", message: NO_PAPERS_MESSAGE, hint: NO_PAPERS_HINT });
        }

        const quoted: string[] = [];
        const sections: string[] = [];
        const covered: string[] = [];
        for (const [pi, point] of points.entries()) {
          const input = {
            point,
            evidence: (evidence.perPoint[pi] ?? []).map(toEvidence).map(withNotes),
            borrowed: evidence.borrowed[pi] ?? new Set<string>(),
            quoted,
            first: pi === 0,
            intent,
            feedback,
            yearsLimited: Boolean(years.yearFrom || years.yearTo),
          };
          const section = await run.step(sectionStep, input, point);
          sections.push(section.markdown);
          if (section.covered) covered.push(point.topic);
        }
        const relations = await run.step(relationsStep, {
          evidence: evidence.all,
          topics: outline.knowledge_points.flatMap((p) => [p.topic, ...p.search_keywords]),
        });
        const framing = { outline, covered, evidence: evidence.all, quoted, intent, feedback };
        const { intro, conclusion } = await run.step(framingStep, framing);
        const fromWeb =
          webPages.length > 0
            ? composeWebSection(question, webPages, { intent, keywords: [], libraryAnswered: covered.length > 0 })
            : "";
        const body = [intro, ...sections, relations.markdown, fromWeb, conclusion].filter(Boolean).join("\n\n");
        // the claims under a section's heading should bear on its knowledge point; the relations, on the works they name
        const topics = new Map(
          points.map((p) => [escapeMarkdown(p.topic), { text: p.topic, keywords: p.search_keywords }] as const),
        );
        if (relations.edges.length > 0) {
          const works = [...new Set(relations.edges.flatMap((e) => [e.source.name, e.target.name]))];
          topics.set(RELATIONS_HEADING, { text: `${question} ${works.join(" ")}`, keywords: works });
        }
        const verified = await run.step(verificationStep, {
          body,
          evidence: [...relations.evidence, ...evidence.all],
          topics,
        });
        const webChecked = webPlanned
          ? await run.step(webCitationsStep, { body: verified.body, sources: webPages })
          : null;
        const references = await run.step(formattingStep, verified.citations);
        const markdown = [answerMarkdown(verified.body, references), webSourcesMarkdown(webChecked?.sources ?? [])]
          .filter(Boolean)
          .join("\n\n");
        return { markdown, citations: verified.citations, references };
      },
    });
  };
}
