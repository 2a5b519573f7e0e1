import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getChatModel } from "@/lib/ai/providers";
import { findPerson } from "@/lib/auth/people";
import { can } from "@/lib/auth/roles";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { parseOutline, startDeepRun } from "@/lib/research/deep";
import type { Outline } from "@/lib/research/deep/types";
import { webResearchOf } from "@/lib/research/deps";
import { runResearch } from "@/lib/research/orchestrator";
import { startRun, waitForRun } from "@/lib/research/runs";
import { applyEvent, type ResearchEvent, type ResearchRunState, type ResearchStep } from "@/lib/research/types";
import { WEB_SEARCH_HOW_TO_ENABLE } from "@/lib/web/config";
import { info, printJson } from "../output";

const USAGE =
  'usage: npm run cli -- research "<question>" [--web] [--as <email>] [--json]\n       npm run cli -- research --outline outline.json ["<question>"] [--as <email>] [--json]\n(--as: the run is that account\'s, to open in the app at /research/<run id>; without it the run has no author and only the command line reads it)';

const STARTS: Record<string, string> = {
  outline: "🗺️  Running the outline...",
  framing: "✍️  Writing the introduction and conclusion...",
  analysis: "🧭 Analyzing the question...",
  query_expansion: "🧩 Expanding the search queries...",
  search_summaries: "🔍 Stage 1: Searching summaries for relevant papers...",
  search_content: "📄 Stage 2: Searching the full text of the shortlisted papers...",
  synthesis: "✍️  Synthesizing the answer...",
  verification: "✅ Verifying citations...",
  web_search: "🌐 Deciding on web search...",
  web_citations: "✅ Verifying web citations...",
  formatting: "📚 Formatting references...",
};

/** One line per step change worth telling: its start, then its outcome. */
export function describeStepEvent(step: ResearchStep, previous: ResearchStep | undefined): string | null {
  if (step.status === "in_progress" && previous?.status !== "in_progress") {
    return STARTS[step.id] ?? (step.type === "rag_search" ? `🔍 ${step.title}...` : `✍️  ${step.title}...`);
  }
  if (step.status === "completed") {
    const extra =
      step.id === "query_expansion" && step.queries.length > 0
        ? `\n${step.queries.map((q) => `     · ${q}`).join("\n")}`
        : "";
    return `   ${step.title} (${step.durationMs ?? 0} ms)${extra}`;
  }
  if (step.status === "failed") return `   ✗ ${step.error?.message ?? "failed"}`;
  return null;
}

export function researchJson(state: ResearchRunState) {
  const web = state.steps.find((s) => s.type === "web_citations");
  const webData = web?.type === "web_citations" ? web.data : null;
  return {
    run_id: state.runId,
    status: state.status,
    mode: state.mode,
    model: state.model,
    question: state.question,
    answer_markdown: state.answer,
    citations: state.citations.map((c) => ({
      paper_id: c.paperId,
      page: c.page,
      quote: c.quote,
      claim: c.claim,
      supported: c.supported,
    })),
    references: state.references,
    // the pages the answer cites as [W1]…, and each web citation as checked against its fetched page
    ...(webData
      ? {
          web_sources: webData.sources.map((s) => ({ id: s.id, url: s.url, title: s.title, arxiv_id: s.arxivId })),
          web_citations: webData.citations.map((c) => ({
            id: c.sourceId,
            url: c.url,
            quote: c.quote,
            claim: c.claim,
            supported: c.supported,
          })),
        }
      : {}),
    steps: state.steps.map((s) => ({ type: s.type, id: s.id, status: s.status, duration_ms: s.durationMs })),
    warnings: state.warnings,
    ...(state.error ? { error: state.error } : {}),
    duration_ms: state.durationMs,
  };
}

export async function runResearchCommand(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    // --web: search the web too (with a provider configured: LECTERN_SEARXNG_URL, TAVILY_API_KEY or BRAVE_SEARCH_API_KEY)
    options: {
      json: { type: "boolean" },
      outline: { type: "string" },
      web: { type: "boolean" },
      // --as <email>: the run is that account's (it may research), so it opens in the app
      as: { type: "string" },
    },
  });
  let outline: Outline | null = null;
  if (typeof values.outline === "string") {
    let raw: unknown;
    try {
      raw = JSON.parse(await fs.readFile(values.outline, "utf8"));
    } catch (e) {
      throw new LecternError(
        "bad_request:file",
        `Cannot read an outline from ${values.outline}: ${(e as Error).message}`,
      );
    }
    // `outline --json` output ({ question, outline }) or a bare outline
    const wrapped = raw as { question?: unknown; outline?: unknown };
    outline = parseOutline(wrapped && typeof wrapped === "object" && "outline" in wrapped ? wrapped.outline : raw);
    if (!positionals.length && typeof wrapped.question === "string") positionals.push(wrapped.question);
  }
  const question = (positionals.join(" ").trim() || outline?.title) ?? "";
  if (!question) {
    info(USAGE);
    return 2;
  }
  let ownerId: string | null = null;
  if (values.as !== undefined) {
    const email = typeof values.as === "string" ? values.as : "";
    const person = email ? await findPerson(handle.db, { email }) : null;
    if (!person)
      throw new LecternError(
        "not_found:user",
        `--as: there is no account for ${email.trim().toLowerCase() || "(no email given)"}.`,
      );
    if (!can(person.role, "research:run"))
      throw new LecternError("forbidden:role", `--as: ${person.email} is a ${person.role}, who may not research.`);
    ownerId = person.id;
  }
  const env = getEnv();
  const controller = new AbortController();
  const onSigint = () => {
    info("\nCancelling…");
    controller.abort(new Error("cancelled"));
  };
  process.once("SIGINT", onSigint);
  const say = (line: string) => (json ? info(line) : process.stdout.write(`${line}\n`));
  try {
    const deps = {
      db: handle.db,
      embedder: getEmbeddingProvider(env),
      chatModel: getChatModel(env),
      llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
      runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS,
      web: webResearchOf(env),
    };
    if (values.web === true && !deps.web) info(WEB_SEARCH_HOW_TO_ENABLE);
    const web = values.web === true;
    const run = outline
      ? startDeepRun(deps, { question, outline, ownerId }, { signal: controller.signal })
      : startRun(deps, question, {
          signal: controller.signal,
          ownerId,
          runner: (d, q, hooks) => runResearch(d, q, hooks, { web }),
        });
    let state: ResearchRunState | null = null;
    let streaming = false;
    for await (const event of run.events as AsyncIterable<ResearchEvent>) {
      const before: ResearchRunState | null = state;
      state = applyEvent(state, event);
      if (event.kind === "run_started") {
        say(`Research ${event.runId} · ${event.mode === "offline" ? "offline mode (extractive answer)" : event.model}`);
      } else if (event.kind === "step") {
        const prev = before?.steps.find((s) => s.id === event.step.id);
        if (streaming && event.step.id !== "synthesis") {
          if (!json) process.stdout.write("\n");
          streaming = false;
        }
        const line = describeStepEvent(event.step, prev);
        if (line) say(line);
      } else if (event.kind === "answer_delta" && state?.mode === "llm" && !json) {
        // the model's answer as it is written
        streaming = true;
        process.stdout.write(event.text);
      }
    }
    await waitForRun(run.runId);
    if (!state) throw new Error("The run produced no events.");
    const final = state as ResearchRunState;
    if (json) {
      printJson(researchJson(final));
    } else {
      if (final.answer) process.stdout.write(`\n${final.answer}\n`);
      const unsupported = final.citations.filter((c) => !c.supported);
      if (final.citations.length > 0) {
        process.stdout.write(
          `\nCitations: ${final.citations.length - unsupported.length}/${final.citations.length} supported by the cited page.\n`,
        );
      }
      for (const c of unsupported) process.stdout.write(`  ⚠ ${c.marker} ${c.reason ?? ""}\n    “${c.claim}”\n`);
      for (const w of final.warnings) process.stdout.write(`  ⚠ ${w}\n`);
      if (final.error) {
        process.stdout.write(`\n${final.error.message}\n`);
        if (final.error.hint) process.stdout.write(`${final.error.hint}\n`);
      }
      process.stdout.write(`\n${final.status} in ${final.durationMs ?? 0} ms · run ${final.runId}\n`);
    }
    return final.status === "completed" ? 0 : 1;
  } finally {
    process.off("SIGINT", onSigint);
  }
}
