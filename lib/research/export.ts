import type { Reference } from "./types";

/** The run as a markdown document: the question, the answer with its citations intact, the references. */
export function exportMarkdown(run: { question: string; answer: string; startedAt: string; runId: string }): string {
  const hasTitle = /^#\s/.test(run.answer.trimStart());
  const head = hasTitle ? "" : `# ${run.question.trim()}\n\n`;
  const footer = `\n\n---\n_Lectern research run ${run.runId}, ${run.startedAt.slice(0, 10)}. Citations are [paper id, page]._\n`;
  return `${head}${run.answer.trim()}${footer}`;
}

function bibEscape(s: string): string {
  return s
    .replace(/([{}&%$#_])/g, "\\$1")
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
        fields.push(["eprint", `{${r.arxivId}}`], ["archivePrefix", "{arXiv}"]);
      }
      if (r.doi) fields.push(["doi", `{${bibEscape(r.doi)}}`]);
      fields.push(["note", `{Lectern id: ${bibEscape(r.paperId)}}`]);
      const type = r.arxivId && !r.doi ? "misc" : "article";
      return `@${type}{${bibKey(r, taken)},\n${fields.map(([k, v]) => `  ${k} = ${v}`).join(",\n")}\n}`;
    })
    .join("\n\n");
}
