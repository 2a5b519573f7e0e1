import { escapeMarkdown, neutralizeMarkdownHtml } from "@/lib/text/markdown";
import type { Reference, ResearchRunState, RunStatus } from "./types";

type ExportableRun = Pick<ResearchRunState, "question" | "answer" | "startedAt" | "runId" | "status" | "steps">;

const ENDED_WITHOUT_ANSWER: Partial<Record<RunStatus, string>> = {
  interrupted: "The server stopped before this run wrote its answer.",
  cancelled: "This run was cancelled before it wrote its answer.",
  failed: "This run failed before it wrote its answer.",
};

/**
 * The run as a markdown document: the question, the answer with its citations intact, the references. A run that
 * ended without an answer (interrupted, cancelled, failed) exports what it has: the sources its searches found, each
 * as `[PAPER_ID, page N]`. Null when there is nothing to export (a run still going, or one that found nothing).
 *
 * Whatever viewer opens the file shows no HTML and loads nothing: the answer (a model's, or quoted papers') has its
 * raw HTML and images turned into text; the question, titles and excerpts are escaped as text.
 */
export function exportMarkdown(run: ExportableRun): string | null {
  const footer = `\n\n---\n_Lectern research run ${run.runId}, ${run.startedAt.slice(0, 10)}. Citations are [paper id, page]._\n`;
  if (run.answer.trim()) {
    const hasTitle = /^#\s/.test(run.answer.trimStart());
    const head = hasTitle ? "" : `# ${escapeMarkdown(run.question.trim())}\n\n`;
    return `${head}${neutralizeMarkdownHtml(run.answer.trim())}${footer}`;
  }
  const why = ENDED_WITHOUT_ANSWER[run.status];
  if (!why) return null;
  const seen = new Set<string>();
  const found: string[] = [];
  for (const step of run.steps) {
    for (const s of step.sources) {
      const cite = s.page === null ? `[${s.paperId}]` : `[${s.paperId}, page ${s.page}]`;
      if (seen.has(cite)) continue;
      seen.add(cite);
      found.push(
        `- ${escapeMarkdown(s.title || s.paperId)} ${cite}${s.excerpt ? `: “${escapeMarkdown(s.excerpt)}”` : ""}`,
      );
    }
  }
  if (found.length === 0) return null;
  return `# ${escapeMarkdown(run.question.trim())}\n\n_${why} The sources its searches found:_\n\n${found.join("\n")}${footer}`;
}

/**
 * Text as a BibTeX field's content: LaTeX's special characters escaped, so a title cannot run commands when the
 * bibliography is typeset (`\\input`, `\\write18`) nor unbalance the braces; `<` and `>` as LaTeX's own commands, so
 * a tool that shows the entry as HTML finds no tag either.
 */
const BIB_SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
};

function bibEscape(s: string): string {
  return s
    .replace(/[\\~^<>{}&%$#_]/g, (c) => BIB_SPECIAL[c] ?? `\\${c}`)
    .replace(/\s+/g, " ")
    .trim();
}

/** A BibTeX key: first author's family name, year, first title word (`vaswani2017attention`). */
export function bibKey(r: Reference, taken: Set<string>): string {
  const family = (r.authors[0] ?? "anon").trim().split(/\s+/).pop() ?? "anon";
  const year = /\d{4}/.exec(r.published ?? "")?.[0] ?? "nd";
  const word = r.title.toLowerCase().match(/[a-z]{3,}/)?.[0] ?? "paper";
  const base = `${
    family
      .normalize("NFKD")
      .replace(/[^A-Za-z]/g, "")
      .toLowerCase() || "anon"
  }${year}${word}`;
  let key = base;
  for (let i = 0; taken.has(key); i++) key = `${base}${String.fromCharCode(97 + (i % 26))}`;
  taken.add(key);
  return key;
}

/** BibTeX entries of the cited papers: arXiv papers as @misc with eprint, others as @article; DOI when known. */
export function exportBibtex(refs: Reference[]): string {
  const taken = new Set<string>();
  return refs
    .map((r) => {
      const fields: [string, string][] = [
        ["title", `{${bibEscape(r.title)}}`],
        ["author", `{${r.authors.map(bibEscape).join(" and ") || "Unknown"}}`],
      ];
      const year = /\d{4}/.exec(r.published ?? "")?.[0];
      if (year) fields.push(["year", `{${year}}`]);
      if (r.arxivId) {
        fields.push(["eprint", `{${bibEscape(r.arxivId)}}`], ["archivePrefix", "{arXiv}"]);
      }
      if (r.doi) fields.push(["doi", `{${bibEscape(r.doi)}}`]);
      fields.push(["note", `{Lectern id: ${bibEscape(r.paperId)}}`]);
      const type = r.arxivId && !r.doi ? "misc" : "article";
      return `@${type}{${bibKey(r, taken)},\n${fields.map(([k, v]) => `  ${k} = ${v}`).join(",\n")}\n}`;
    })
    .join("\n\n");
}
