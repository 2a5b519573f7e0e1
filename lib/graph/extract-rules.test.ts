import { describe, expect, it } from "vitest";
import { notProse } from "../text/prose";
import { acronymDefinitions, extractWithRules, findNames, maskCitations, ownMethodOf } from "./extract-rules";

const paper = (title: string, pages: string[], skip?: { page: number; start: number; end: number }[]) => ({
  id: "p1",
  title,
  abstract: null,
  pages: pages.map((text, i) => ({ pageNumber: i + 1, text })),
  skip,
});

describe("the paper's own method", () => {
  it("comes from the title's head, or an acronym the first pages define from the title's words", () => {
    expect(ownMethodOf(paper("XLNet: Generalized Autoregressive Pretraining", ["Text."]))).toBe("XLNet");
    expect(ownMethodOf(paper("Towards Verifiable Generation: A Benchmark", ["Text."]))).toBeNull();
    expect(
      ownMethodOf(
        paper("Dense Passage Retrieval for Open-Domain Question Answering", [
          "In this work we show that a Dense Passage Retrieval (DPR) method works well.",
        ]),
      ),
    ).toBe("DPR");
  });
});

describe("extractWithRules", () => {
  const pages = [
    "Frobnicator: Fast Widgets for Everyone\n" +
      "Abstract\nWe present the Frobnicator. Frobnicator outperforms Lucene-BM25 and WidgetNet by a wide margin on " +
      "every benchmark we tried in this study.\n" +
      "We use the Adam optimizer with a small learning rate for all of our experiments here.\n" +
      "We evaluate Frobnicator on the WidgetQA dataset and on the GizmoBench benchmark in the same setting.",
    "Related work. Some report that WidgetNet may outperform SparseNet in settings that we do not study.\n" +
      "Baselines do not outperform DenseNet on this widget collection in any of the settings we tried.",
  ];
  const x = extractWithRules(paper("Frobnicator: Fast Widgets for Everyone", pages));

  it("finds improves_on with both objects of a coordinated list, uses, evaluates_on", () => {
    const edges = x.candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);
    expect(x.ownMethod).toBe("Frobnicator");
    expect(edges).toContain("improves_on Frobnicator -> Lucene-BM25");
    expect(edges).toContain("improves_on Frobnicator -> WidgetNet");
    expect(edges).toContain("uses Frobnicator -> Adam");
    expect(edges).toContain("evaluates_on Frobnicator -> WidgetQA");
  });

  it("quotes the sentence from the page, verbatim", () => {
    const c = x.candidates.find((e) => e.target.name === "WidgetNet");
    expect(c?.page).toBe(1);
    expect(pages[0]).toContain(c?.quote as string);
  });

  it("sends hedged claims below the acceptance bar and drops negated ones", () => {
    const hedged = x.candidates.find((c) => c.target.name === "SparseNet");
    expect(hedged?.confidence).toBeLessThan(0.6);
    expect(x.candidates.some((c) => c.target.name === "DenseNet")).toBe(false);
  });

  it("types a name from its context", () => {
    const widgetqa = x.mentions.find((m) => m.entity.name === "WidgetQA");
    expect(widgetqa?.entity.type).toBe("Dataset");
  });

  it("a paper with no claims gives nothing, and the reference list is not read", () => {
    const none = extractWithRules(paper("A Note", ["This note has no claims of any kind about methods at all."]));
    expect(none.candidates).toEqual([]);
    const text = "Frobnicator outperforms WidgetNet on every single benchmark that we have tried so far.";
    const skipped = extractWithRules(paper("Frobnicator: X", [text], [{ page: 1, start: 0, end: text.length }]));
    expect(skipped.candidates).toEqual([]);
  });
});

describe("names and citations", () => {
  it("masks citations and keeps names", () => {
    const masked = maskCitations("DPR (Karpukhin et al., 2020) beats BM25 [12] as Thorne and Vlachos [57] showed.");
    const names = findNames(masked).map((n) => n.name);
    expect(names).toContain("DPR");
    expect(names).toContain("BM25");
    expect(names).not.toContain("Karpukhin");
    expect(names).not.toContain("Thorne");
  });

  it("masks an author and a year, but keeps a benchmark's name with its edition", () => {
    const names = (t: string) => findNames(maskCitations(t)).map((n) => n.name);
    expect(names("As Vaswani et al. 2017, Smith, 2019 and McCann 2017 found, Smith and Jones 2020 agree.")).toEqual([]);
    expect(names("We test FooNet on TREC WebTrack 2012 and TREC Robust 2004.")).toEqual([
      "FooNet",
      "TREC WebTrack 2012",
      "TREC Robust 2004",
    ]);
    expect(names("On the WMT 2014 English-to-German translation task, FooNet wins.")).toContain(
      "WMT 2014 English-to-German",
    );
  });

  it("reads acronym definitions", () => {
    const defs = acronymDefinitions(paper("T", ["We train a Dense Passage Retriever (DPR) on questions."]));
    expect(defs).toEqual([{ short: "DPR", long: "Dense Passage Retriever", page: 1 }]);
  });
});

describe("recall patterns (issue 22)", () => {
  const edgesOf = (title: string, text: string) =>
    extractWithRules(paper(title, [text])).candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);

  it("finds the paper's own method when it is dubbed, spelled by the title's initials, or defined in its voice", () => {
    expect(
      ownMethodOf(paper("Widgets for All", ["A plain alternative, which we dub Sparse GizmoNet: it works."])),
    ).toBe("Sparse GizmoNet");
    const uses = " We run GWSF here. GWSF is fast. GWSF is small. GWSF is cheap. GWSF wins.";
    expect(ownMethodOf(paper("Great Widgets Scale Fast", [`Widgets (GWSF) are made.${uses}`]))).toBe("GWSF");
    expect(
      ownMethodOf(
        paper("On Widgets", [
          "Intro.",
          "More.",
          `We define Folded Widget Rank (FWR) as follows.${uses.replace(/GWSF/g, "FWR")}`,
        ]),
      ),
    ).toBe("FWR");
  });

  it("finds a plain capitalised name introduced in apposition, and a coined term in quotes on the title's topic", () => {
    const often = " Gizmo is fast. Gizmo is small. Gizmo is cheap. Gizmo wins. Gizmo again.";
    expect(
      ownMethodOf(paper("Evaluating Widgets Trained on Code", [`We introduce Gizmo, a widget model.${often}`])),
    ).toBe("Gizmo");
    const named = " FooMo is fast. FooMo is small. FooMo is cheap. FooMo wins. FooMo again.";
    expect(ownMethodOf(paper("Deep Widget Representations", [`We call them FooMo (Foo Models).${named}`]))).toBe(
      "FooMo",
    );
    expect(ownMethodOf(paper("Deep Widget Representations", [`We call this approach FooMo.${named}`]))).toBe("FooMo");
    for (const prep of ["a comparison against", "an analysis using", "an analysis between"])
      expect(ownMethodOf(paper("Deep Widget Learning", [`We present ${prep} FooMo and humans.${named}`]))).toBeNull();
    // the data the experiments are on is not what the paper presents
    expect(
      ownMethodOf(
        paper("Deep Widget Learning", [`We present comprehensive experiments on FooNet to show it.${named}`]),
      ),
    ).toBeNull();
    // no apposition: a section, a figure or a word introduced in passing is no method
    expect(ownMethodOf(paper("Evaluating Widgets Trained on Code", [`We introduce Gizmo here.${often}`]))).toBeNull();
    const folding = " We use folding. The folding works. With folding it is small. Folding is cheap. So folding wins.";
    expect(
      ownMethodOf(paper("Folding the Knowledge in a Widget", [`Our solution, called “folding”, is simple.${folding}`])),
    ).toBe("folding");
    // a coined term off the title's topic is not the paper's method
    expect(
      ownMethodOf(paper("Measuring Widgets", [`Our solution, called “folding”, is simple.${folding}`])),
    ).toBeNull();
  });

  it("reads a sentence whose verb ends a line before a capitalised name", () => {
    expect(edgesOf("Gizmo: X", "We use\nWidgetNet-large as the encoder of every model we train here.")).toContain(
      "uses Gizmo -> WidgetNet-large",
    );
  });

  it("reads based on, using (in the paper's voice only), inspired by, and improvements over", () => {
    expect(
      edgesOf("Gizmo: X", "Our ranking algorithm is based on Widget Mixture Models, a probabilistic approach."),
    ).toContain("uses Gizmo -> Widget Mixture Models");
    expect(
      edgesOf("Gizmo: X", "We verify our method using a pre-trained FooLM-70B LLM on all of the tasks."),
    ).toContain("uses Gizmo -> FooLM-70B");
    expect(
      edgesOf("Gizmo: X", "The WidgetNet team trained their model using BarNet on many of the tasks."),
    ).not.toContain("uses WidgetNet -> BarNet");
    expect(
      edgesOf("Gizmo: X", "Inspired by the success of Widget Learning (Smith et al., 2020), Gizmo refers to a method."),
    ).toContain("extends Gizmo -> Widget Learning");
    expect(
      edgesOf("Gizmo: X", "Gizmo shows strong performance improvements over common WidgetNet variants."),
    ).toContain("improves_on Gizmo -> WidgetNet");
  });

  it("reads comparisons: compare X and Y, compares favourably to, and both objects of 'by N% and'", () => {
    expect(
      edgesOf("Gizmo: X", "Results are shown in Figure 3, where we compare FooNet models and BarNet models."),
    ).toContain("compares_to FooNet -> BarNet");
    expect(
      edgesOf("Gizmo: X", "Gizmo compares favourably to the WidgetNet system on every one of the tasks."),
    ).toContain("compares_to Gizmo -> WidgetNet");
    const both = edgesOf("Gizmo: X", "GizmoLARGE outperforms the baseline FooNet system by +27.1% and BarNet by 8.3%.");
    expect(both).toContain("improves_on GizmoLARGE -> FooNet");
    expect(both).toContain("improves_on GizmoLARGE -> BarNet");
  });

  it("reads evaluation lists a colon or semicolon announces, and experiments with", () => {
    const listed = edgesOf(
      "Gizmo: X",
      "We evaluate our model on four standard tasks used in the literature: FooQA (Smith et al., 2019), BarQA (Jones et al., 2020), BazQA and QuxQA.",
    );
    expect(listed).toEqual(expect.arrayContaining(["evaluates_on Gizmo -> FooQA", "evaluates_on Gizmo -> QuxQA"]));
    expect(edgesOf("Gizmo: X", "We chose to experiment with FooQA and BarQA as reference examples.")).toContain(
      "evaluates_on Gizmo -> BarQA",
    );
    expect(
      edgesOf(
        "Gizmo: X",
        "We evaluate Gizmo on the challenging Multi-Widget reasoning benchmark FooQA in this section.",
      ),
    ).toEqual(["evaluates_on Gizmo -> FooQA"]);
  });

  it("takes lower-case names the paper introduces", () => {
    expect(edgesOf("Gizmo: X", "We also propose a new gadget fusion block that keeps inference light.")).toContain(
      "introduces Gizmo -> gadget fusion block",
    );
    expect(
      edgesOf("Gizmo: X", "We introduce a novel light cross-widget technique that only attends one way."),
    ).toContain("introduces Gizmo -> light cross-widget");
    const two = edgesOf(
      "Gizmo: X",
      "For querying, we introduce two distinct strategies: leaf hopping and branch folding.",
    );
    expect(two).toEqual(["introduces Gizmo -> leaf hopping", "introduces Gizmo -> branch folding"]);
    expect(edgesOf("Gizmo: X", "We propose a simple method that works on all of the benchmarks.")).toEqual([]);
  });

  it("recognises lower-case versioned model names, 'X of Y' names and names the PDF broke at a hyphen", () => {
    expect(findNames("For all runs we use gpt-9.5-turbo to write the summaries.").map((n) => n.name)).toContain(
      "gpt-9.5-turbo",
    );
    expect(findNames("and evaluate on the Wizard of Widgets collection.").map((n) => n.name)).toContain(
      "Wizard of Widgets",
    );
    // the name is written whole (the span still covers the page's text as it is)
    const broken = "We first employ GPT- 7o to rewrite each query.";
    const [gpt] = findNames(broken).filter((n) => n.name.startsWith("GPT"));
    expect(gpt?.name).toBe("GPT-7o");
    expect(broken.slice(gpt?.start, gpt?.end)).toBe("GPT- 7o");
    expect(findNames("on the WMT 2014 English-to -German translation task").map((n) => n.name)).toContain(
      "WMT 2014 English-to-German",
    );
    expect(findNames("Widget-R1 -Distill-Qwen-7B achieves 55.5% on BarQA.").map((n) => n.name)).toContain(
      "Widget-R1-Distill-Qwen-7B",
    );
    // an indented next line; a shared ending is no broken name ("BERT- and GPT-based": BERT, without its hyphen)
    expect(findNames("We use GizmoLM-\n 7B for all runs.").map((n) => n.name)).toContain("GizmoLM-7B");
    const shared = "We compare FooNet- and T5- and BarNet-based widgets.";
    expect(findNames(shared).map((n) => n.name)).toEqual(["FooNet", "T5", "BarNet-based"]);
    const [foo] = findNames(shared);
    expect(shared.slice(foo?.start, foo?.end)).toBe("FooNet");
    expect(findNames("the CoNLL-2003 shared task").map((n) => n.name)).toContain("CoNLL-2003");
  });

  it("drops adjectives made from names and likenesses", () => {
    expect(edgesOf("Gizmo: X", "Gizmo surpasses the best FooNet-based baseline on every task we tried.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "Intuitively, we are using it as a “widget gate” to drop old information.")).toEqual([]);
  });

  it("reads achieves … on D, third-person uses, fine-tuning, and a name that starts the sentence", () => {
    expect(edgesOf("Gizmo: X", "In our runs, FooNet achieves 61.4 accuracy on BarQA with no tuning.")).toContain(
      "evaluates_on FooNet -> BarQA",
    );
    expect(edgesOf("Gizmo: X", "Block-sparse Gizmo lets models scale, achieving 63.1 accuracy on BarQA.")).toEqual([]);
    expect(
      edgesOf("Gizmo: X", "MULTIWIDGET, formerly known as OldWidget, uses the LongFormer for claim checks."),
    ).toContain("uses OldWidget -> LongFormer");
    expect(edgesOf("Gizmo: X", "We fine-tune WidgetNet-Base for two epochs on the curated data.")).toContain(
      "uses Gizmo -> WidgetNet-Base",
    );
    expect(edgesOf("Gizmo: X", "Vision Widgets generally outperform ResNets with the same budget.")).toContain(
      "improves_on Vision Widgets -> ResNets",
    );
    expect(edgesOf("Gizmo: X", "Recent Widgets generally outperform ResNets with the same budget.")).toContain(
      "improves_on Widgets -> ResNets",
    );
  });

  it("leaves out record fields, adjectives from names, and lists with the paper's own method", () => {
    expect(
      edgesOf("Gizmo: X", "For each pair, we compare the selected Title and Authors fields of the two entries."),
    ).toEqual([]);
    expect(edgesOf("Gizmo: X", "The FooNet model uses Gaussian kernels to soft-match the terms.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "We use both the Gizmo and WidgetNet subspace methods in this section.")).toEqual([]);
  });

  it("reads a curly negation, a list's last name as no subject, and a name cut at a parenthesis", () => {
    expect(
      edgesOf("Gizmo: X", "On FooQA, the combination of FooNet+PE doesn’t perform better than FooNet at all."),
    ).toEqual([]);
    const listed = edgesOf(
      "Gizmo: X",
      "Overall it cuts the error by 16%, 5% and 5% on FooQA, BarQA, and BazQA respectively compared to WidgetNet here.",
    );
    expect(listed.filter((e) => e.startsWith("compares_to"))).toEqual([]);
    expect(
      edgesOf(
        "Gizmo: X",
        "With the exception of FooQA, WidgetNet performs consistently better than BarNet on all sets.",
      ),
    ).toContain("improves_on WidgetNet -> BarNet");
    expect(
      edgesOf(
        "Gizmo: X",
        "In addition, we design a new session-level GPO (Gadget Policy Optimization) training method.",
      ),
    ).toContain("introduces Gizmo -> session-level GPO");
  });

  it("reads training corpora, variants, and a relative clause's head as the subject", () => {
    expect(edgesOf("Gizmo: X", "In their setup, FooNet is trained on the WidgetCorpus (800M words) only.")).toContain(
      "uses FooNet -> WidgetCorpus",
    );
    expect(
      edgesOf("Gizmo: X", "All models use the same sizes as FooNet-Base and are trained on WidgetCorpus only."),
    ).not.toContain("uses FooNet-Base -> WidgetCorpus");
    expect(
      edgesOf("Gizmo: X", "In related work, FooNet is a lightweight variant of BarNet for small devices."),
    ).toContain("extends FooNet -> BarNet");
    expect(
      edgesOf("Gizmo: X", "We compare with MultiWidget, which is based on LongWidget, in the last section."),
    ).toContain("uses MultiWidget -> LongWidget");
  });

  it("keeps a corpus the method draws on as used, and a description of its own name out", () => {
    expect(
      edgesOf("Gizmo: X", "For the evidence corpus, we use the WidgetWiki dump provided by the FooQA benchmark here."),
    ).toContain("uses Gizmo -> WidgetWiki");
    expect(
      edgesOf("Gizmo: X", "We use the WidgetWiki dataset to evaluate the performance on document ranking here."),
    ).toContain("evaluates_on Gizmo -> WidgetWiki");
    expect(
      edgesOf("Gizmo: X", "In this work, we present a novel robust widget benchmark called Gizmo for all."),
    ).toEqual([]);
    expect(
      edgesOf("Gizmo: X", "We did observe substantial improvements on FooQA from multitask training here."),
    ).toEqual([]);
  });

  it("splits a name at an em dash, and leaves what the baselines use to the baselines", () => {
    expect(
      edgesOf("Gizmo: X", "We develop Gizmo— Great Widget Optimizer — to save memory on both kinds of device."),
    ).toEqual([]);
    expect(
      edgesOf("Gizmo: X", "We establish two baselines: a frozen model, and a fine-tuned model using WidgetAdapt."),
    ).toEqual([]);
  });

  it("keeps an instrument of the evaluation apart from its data", () => {
    expect(
      edgesOf(
        "Gizmo: X",
        "For text quality evaluation, we use the model “widget-judge-003” with temperature 0 for all.",
      ),
    ).toEqual(["uses Gizmo -> widget-judge-003"]);
    expect(
      edgesOf(
        "Gizmo: X",
        "For our experiments, we utilize the WidgetPy interface of the official evaluation tool here.",
      ),
    ).toEqual(["uses Gizmo -> WidgetPy"]);
    expect(edgesOf("Gizmo: X", "We present both the Gizmo and FooRank methods in the next section.")).toEqual([]);
  });

  it("reads no verb inside a hyphenated name, maps part of a long form to its acronym, and compares what the verb names", () => {
    expect(
      edgesOf(
        "Gizmo: X",
        "We call the model trained in this way Widget Model Self-Improved ∗Work was done during Acme internship.",
      ),
    ).toEqual([]);
    expect(
      edgesOf(
        "OWT: Open Widgets",
        "In this report, we present Open Widget Transformers (OWT), a suite of widget models for all.",
      ).filter((e) => e.startsWith("introduces")),
    ).toEqual([]);
    expect(
      edgesOf("Gizmo: X", "Next, we compare FooNet-S against FooNet on pass@1 and pass@100 in the table."),
    ).toContain("compares_to FooNet-S -> FooNet");
  });

  it("takes no description, nothing 'called' by another name and not the paper's own method as introduced", () => {
    expect(
      edgesOf("Gizmo: X", "Third, we propose a comprehensive automatic evaluation metric covering three aspects."),
    ).toEqual([]);
    expect(
      edgesOf("Gizmo: X", "We design the evaluation metrics from multiple dimensions for all of the tasks."),
    ).toEqual([]);
    expect(
      edgesOf("Gizmo: X", "We developed a Widget-extension PDF reader for scientific papers called Gizmo."),
    ).toEqual([]);
    expect(edgesOf("Gizmo: X", "We introduce the Gizmo network architecture, which combines both kinds.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "We also introduce a self-refinement module that revises the outputs.")).toEqual([
      "introduces Gizmo -> self-refinement module",
    ]);
  });
  it("reads a comparative that says better, not one that says worse, negated or mixed", () => {
    const accepted = (text: string) =>
      extractWithRules(paper("Gizmo: X", [text]))
        .candidates.filter((c) => c.confidence >= 0.6)
        .map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);
    expect(accepted("In our runs, WidgetNet is still 2x more efficient than SparseNet on long inputs.")).toContain(
      "improves_on WidgetNet -> SparseNet",
    );
    expect(accepted("On every split, WidgetNet achieves even higher results than SparseNet in our runs.")).toContain(
      "improves_on WidgetNet -> SparseNet",
    );
    expect(accepted("On every split, WidgetNet reaches higher error than SparseNet in our runs.")).toEqual([]);
    expect(accepted("We found no cases where WidgetNet led to better results than SparseNet in the tests.")).toEqual(
      [],
    );
    expect(
      accepted(
        "WidgetNet is slightly faster than FooNet in the forward pass and slower than FooNet in the backward pass.",
      ),
    ).toEqual([]);
    // the name is what another verb acts on, not the subject of the comparison
    expect(accepted("The Gizmo trains WidgetNet with longer inputs faster than SparseNet trains it.")).toEqual([]);
    // cheaper is better; more errors, compute or assumptions are not
    expect(accepted("In our runs, WidgetNet is far less expensive than SparseNet to serve at scale.")).toContain(
      "improves_on WidgetNet -> SparseNet",
    );
    for (const worse of ["reaches higher WER than", "requires higher FLOPs than", "makes stronger assumptions than"]) {
      expect(accepted(`On every split, WidgetNet ${worse} SparseNet in our runs.`), worse).toEqual([]);
    }
  });

  it("reads an opening “It” as the name that opened the sentence before, quoting both", () => {
    const text =
      "WidgetNet provides the best generalization among its dense counterparts. It\noutperforms SparseNet on 14/18 and FooNet on 17/18 datasets.";
    const c = extractWithRules(paper("Gizmo: X", [text])).candidates.filter((e) => e.relation === "improves_on");
    expect(c.map((e) => `${e.source.name} -> ${e.target.name}`)).toEqual([
      "WidgetNet -> SparseNet",
      "WidgetNet -> FooNet",
    ]);
    // two scores in a short sentence are no table: the claims stay above the acceptance bar
    expect(c.every((e) => e.confidence >= 0.6)).toBe(true);
    expect(c[0]?.quote.startsWith("WidgetNet provides")).toBe(true);
    // a sentence before that names two things leaves "It" ambiguous; two sentences too long for one quote give none
    expect(
      edgesOf("Gizmo: X", "SparseNet is outperformed by WidgetNet on every split. It also outperforms FooNet by far."),
    ).not.toContain("improves_on SparseNet -> FooNet");
    const long = `WidgetNet provides ${"a very general and robust generalization ".repeat(7)}among its counterparts.`;
    expect(edgesOf("Gizmo: X", `${long} It outperforms SparseNet on every split we tried.`)).toEqual([]);
    // an "It" without a name opening the sentence before stays unresolved
    expect(
      edgesOf("Gizmo: X", "Results are strong across the board. It outperforms SparseNet on every split we tried."),
    ).toEqual([]);
  });

  it("takes a lower-case technique a named method uses, not a plain word or a shared modifier", () => {
    expect(edgesOf("Gizmo: X", "WidgetNet [12] uses chain-of-thought to guide the retrieval process.")).toContain(
      "uses WidgetNet -> chain-of-thought",
    );
    expect(edgesOf("Gizmo: X", "WidgetNet employs program executors to provide feedback from tests.")).toContain(
      "uses WidgetNet -> program executors",
    );
    expect(edgesOf("Gizmo: X", "WidgetNet uses information from the retrieved pages to answer.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "WidgetNet uses significantly fewer parameters than the others.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "WidgetNet uses breadth-first and depth-first searches over the tree.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "WidgetNet uses default hyperparameters for all of the runs.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "WidgetNet uses twelve layers in total for the encoder.")).toEqual([]);
  });

  it("takes a lower-case technique a method is better than or compared with, not a plain word", () => {
    expect(edgesOf("Gizmo: X", "WidgetNet performs on-par or better than fine-tuning in model quality.")).toContain(
      "improves_on WidgetNet -> fine-tuning",
    );
    expect(
      edgesOf("Gizmo: X", "WidgetNet scores 2.7 points higher than direct prompting, as Table 2 shows."),
    ).toContain("improves_on WidgetNet -> direct prompting");
    expect(edgesOf("Gizmo: X", "WidgetNet outperforms one-step retrieval on all datasets.")).toContain(
      "improves_on WidgetNet -> one-step retrieval",
    );
    expect(edgesOf("Gizmo: X", "WidgetNet outperforms existing methods by a wide margin.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "WidgetNet performs better than standard training on every task.")).toEqual([]);
  });

  it("reads the data a method outperforms others on, a benchmark against, comparable performance and a resulting model", () => {
    expect(edgesOf("Gizmo: X", "WidgetNet outperforms SparseNet on both FooQA and BarQA.")).toEqual(
      expect.arrayContaining([
        "improves_on WidgetNet -> SparseNet",
        "evaluates_on WidgetNet -> FooQA",
        "evaluates_on WidgetNet -> BarQA",
      ]),
    );
    expect(edgesOf("Gizmo: X", "Finally, we benchmark Gizmo against SparseNet, a strong system.")).toContain(
      "compares_to Gizmo -> SparseNet",
    );
    expect(edgesOf("Gizmo: X", "We find that Gizmo-1B achieves comparable performance to SparseNet.")).toContain(
      "compares_to Gizmo-1B -> SparseNet",
    );
    expect(
      edgesOf("Gizmo: X", "We fine-tune it on curated functions. The resulting model, Gizmo-S, solves more."),
    ).toContain("introduces Gizmo -> Gizmo-S");
    expect(
      edgesOf("Gizmo: X", "We show the effectiveness of Gizmo on three datasets: FooQA, BarQA and BazQA."),
    ).toEqual(expect.arrayContaining(["evaluates_on Gizmo -> FooQA", "evaluates_on Gizmo -> BazQA"]));
  });

  it("reads the paper's other ways of saying it uses something", () => {
    expect(edgesOf("Gizmo: X", "We base our tokenizer on the SparseNet vocabulary.")).toContain(
      "uses Gizmo -> SparseNet",
    );
    expect(edgesOf("Gizmo: X", "We follow the conventions of [3] and use Adam for optimization.")).toContain(
      "uses Gizmo -> Adam",
    );
    expect(edgesOf("Gizmo: X", "We additionally used public code from the FooHub index.")).toContain(
      "uses Gizmo -> FooHub",
    );
    expect(edgesOf("Gizmo: X", "We removed duplicates by filtering documents via MinhashLSH.")).toContain(
      "uses Gizmo -> MinhashLSH",
    );
    // "only" narrows, it does not use: "we only use the Challenge subset (ARC-c)"
    expect(edgesOf("Gizmo: X", "For FooQA, we only use the Challenge subset (FooQA-c) in our experiments.")).toEqual(
      [],
    );
    // what the method does without itself, and the hardware it ran on, are not what it uses
    expect(
      edgesOf("Gizmo: X", "Without our approach, ranking the top results using SparseNet takes 2 seconds."),
    ).toEqual([]);
    expect(edgesOf("Gizmo: X", "We ran the experiments using one GeForce GTX 1080 Ti GPU.")).toEqual([]);
    // a guess is no claim
    const guessed = extractWithRules(
      paper("Gizmo: X", ["We speculate that evaluating via the Davinci API adds filters."]),
    );
    expect(guessed.candidates.every((c) => c.confidence < 0.6)).toBe(true);
  });

  it("reads a term the paper puts in quotes as one it introduces, unless it credits someone else", () => {
    expect(
      edgesOf("Gizmo: X", "In addition, we also use a “next widget prediction” task that pretrains pairs."),
    ).toContain("introduces Gizmo -> next widget prediction");
    expect(edgesOf("Gizmo: X", "We use a “folded widget ranker” (FWR) objective in every layer.")).toContain(
      "introduces Gizmo -> FWR",
    );
    const credited = edgesOf("Gizmo: X", "We use the “Widget Ranker” proposed in [4] for the final ranking step.");
    expect(credited).toContain("uses Gizmo -> Widget Ranker");
    expect(credited).not.toContain("introduces Gizmo -> Widget Ranker");
  });

  it("reads the data a sentence opens with as where the paper's method is evaluated", () => {
    expect(
      edgesOf("Gizmo: X", "For FooQA fact verification, we achieve results within 4% of the best system."),
    ).toContain("evaluates_on Gizmo -> FooQA");
    expect(edgesOf("Gizmo: X", "On BarQA, our model reaches 71.2 exact match.")).toContain(
      "evaluates_on Gizmo -> BarQA",
    );
    // what the paper does for each of several things, or for a model, is no evaluation on it
    expect(edgesOf("Gizmo: X", "For each FooNet, we report the best learning rate.")).toEqual([]);
    expect(edgesOf("Gizmo: X", "For FooQA, we use a batch size of 32.")).not.toContain("evaluates_on Gizmo -> FooQA");
  });

  it("reads what a named method described in apposition does in its relative clause", () => {
    expect(
      edgesOf("Widgets for All", "We compare with Gizmo, a recent system that uses FooNet to reduce the reads."),
    ).toContain("uses Gizmo -> FooNet");
    // a bare "which" is not resolved
    expect(edgesOf("Widgets for All", "Gizmo is fast, which uses FooNet.")).toEqual([]);
  });

  it("reads none of these ordinary sentences as a claim (found in review)", () => {
    const none = [
      // a setting for a model, not an evaluation on it
      "For AdamW, we set the learning rate to 1e-4 and warm up for a thousand steps.",
      "For BERT-large, we report the median of five restarts.",
      // adverbs that say the paper does not (or no longer) use it
      "We rarely use SparseNet in these experiments.",
      "We previously used SparseNet for the first stage.",
      // not techniques the method beats
      "Gizmo outperforms state-of-the-art on all benchmarks.",
      "Gizmo outperforms human annotators by a wide margin.",
      // someone else's resulting model; a service reached
      "In prior work, the resulting model, FooNet, was released to the public.",
      "We access the models via the OpenAI API with default settings.",
    ];
    for (const text of none) expect(edgesOf("Gizmo: X", text), text).toEqual([]);
    // a guess before the subject hedges the claim
    const guessed = extractWithRules(
      paper("Gizmo: X", ["We speculate that WidgetNet outperforms SparseNet on FooQA."]),
    );
    expect(guessed.candidates.length).toBeGreaterThan(0);
    expect(guessed.candidates.every((c) => c.confidence < 0.6)).toBe(true);
    // a list joined by "and" keeps its names as written
    expect(edgesOf("Gizmo: X", "We use Wikipedia and Natural Questions for training.")).toContain(
      "uses Gizmo -> Wikipedia",
    );
  });

  it("gives a participle after a comma the clause's subject, not the data or metric just before it", () => {
    expect(edgesOf("Gizmo: X", "FooNet achieves 55.5% on BarQA, surpassing BazNet.")).toEqual(
      expect.arrayContaining(["improves_on FooNet -> BazNet", "evaluates_on FooNet -> BarQA"]),
    );
    expect(edgesOf("Gizmo: X", "FooNet achieves 55.5% on BarQA, surpassing BazNet.")).not.toContain(
      "improves_on BarQA -> BazNet",
    );
    expect(edgesOf("Gizmo: X", "On BarQA, FooNet scores 80.1 F1, outperforming BazNet by two points.")).toContain(
      "improves_on FooNet -> BazNet",
    );
    expect(edgesOf("Gizmo: X", "We reach 80.1 on BarQA, outperforming BazNet.")).toContain(
      "improves_on Gizmo -> BazNet",
    );
  });

  it("takes the subject after a list the sentence opens with 'Among'", () => {
    expect(
      edgesOf("Gizmo: X", "Among the optimization methods for LLMs, WidgetNet is often compared with SparseNet."),
    ).toContain("compares_to WidgetNet -> SparseNet");
    expect(
      edgesOf(
        "Gizmo: X",
        "Despite its distinctiveness, WidgetNet builds upon the foundational principles of SparseNet.",
      ),
    ).toContain("extends WidgetNet -> SparseNet");
  });
});

describe("lower-case names a citation marks", () => {
  const edgesOf = (text: string) =>
    extractWithRules(paper("Frobnicator: Fast Widgets for Everyone", [text])).candidates.map(
      (c) => `${c.relation} ${c.source.name} -> ${c.target.name}`,
    );

  it("are used techniques, not evaluation data, though the sentence speaks of evaluation", () => {
    const edges = edgesOf(
      "We use nucleus sampling (Holtzman et al., 2020) with top p = 0.95 for all sampling evaluation in this work. " +
        "We employ a residual connection [11] around each of the two sub-layers of the widget stack.",
    );
    expect(edges).toContain("uses Frobnicator -> nucleus sampling");
    expect(edges).toContain("uses Frobnicator -> residual connection");
    expect(edges.some((e) => e.startsWith("evaluates_on"))).toBe(false);
  });

  it("are a task's name when the data is a task", () => {
    expect(
      edgesOf("We now turn to evaluate Frobnicator on open-domain question answering (ODQA; Chen et al. 2017)."),
    ).toContain("evaluates_on Frobnicator -> open-domain question answering");
  });

  it("are not a kind of thing, a setup, nor words before a bare year", () => {
    const edges = edgesOf(
      "We follow the original setup [32] and use prior work [3] for the widget tests in every setting. " +
        "For GizmoQA we use the question-only set from bench collaboration (2022) in all of our runs.",
    );
    expect(edges.some((e) => /setup|prior work|bench collaboration/.test(e))).toBe(false);
  });
});

describe("a method the title does not name", () => {
  const body = (name: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${name} run ${i} scores well.`).join(" ");

  it("is the acronym the first pages define and the paper uses far more than any other", () => {
    const text = `We show that a pure Vision Transformer (ViT) applied to patches works well, unlike convolutional networks (CNNs). ${body("ViT", 60)} ${body("CNNs", 5)}`;
    expect(ownMethodOf(paper("An Image Is Worth Many Words: Transformers at Scale", [text]))).toBe("ViT");
    // used as often as another acronym, or not enough, or unrelated to the title: no method
    const even = `A Vision Transformer (ViT) and convolutional networks (CNNs). ${body("ViT", 60)} ${body("CNNs", 30)}`;
    expect(ownMethodOf(paper("An Image Is Worth Many Words: Transformers at Scale", [even]))).toBeNull();
    const rare = `A Vision Transformer (ViT) is used. ${body("ViT", 20)}`;
    expect(ownMethodOf(paper("An Image Is Worth Many Words: Transformers at Scale", [rare]))).toBeNull();
    expect(ownMethodOf(paper("Measuring Widgets of Objective Landscapes", [text]))).toBeNull();
  });

  it("reads a list whose names carry their version in parentheses", () => {
    const edges = extractWithRules(
      paper("Frobnicator: Fast Widgets for Everyone", [
        "We use GPT4 (gpt-4-0314) and ChatGPT (gpt-3.5-turbo-0301) for our experiments in this widget study.",
      ]),
    ).candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);
    expect(edges).toEqual(["uses Frobnicator -> GPT4", "uses Frobnicator -> ChatGPT"]);
  });

  it("does not use what the paper's baselines are built from", () => {
    const edges = extractWithRules(
      paper("Frobnicator: Fast Widgets for Everyone", [
        "For the baseline CNNs, we use ResNet with group normalization in every run. We use the Adam optimizer with a small learning rate for all of our experiments here.",
      ]),
    ).candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);
    expect(edges).toContain("uses Frobnicator -> Adam");
    expect(edges).not.toContain("uses Frobnicator -> ResNet");
  });
});

describe("comparisons in a result's own words", () => {
  const edgesOf = (text: string) =>
    extractWithRules(paper("Frobnicator: Fast Widgets for Everyone", [text])).candidates.map(
      (c) => `${c.relation} ${c.source.name} -> ${c.target.name}`,
    );

  it("reads 'more harmless than', 'is close to', and a fronted list of the data a named method is evaluated on", () => {
    expect(
      edgesOf("We find that WidgetNet models are significantly more harmless than the GizmoNet models."),
    ).toContain("improves_on WidgetNet -> GizmoNet");
    expect(edgesOf("On the DROP dataset, WidgetNet is close to the GizmoNet approach which uses labels.")).toContain(
      "compares_to WidgetNet -> GizmoNet",
    );
    // (the paper's own method: what another method is evaluated on is read from an evaluation verb only)
    const listed = edgesOf("On ARC-c, OpenBookQA, ANLI-A2 and ANLI-A3, Frobnicator outperforms previous SOTA.");
    for (const d of ["ARC-c", "OpenBookQA", "ANLI-A2", "ANLI-A3"])
      expect(listed).toContain(`evaluates_on Frobnicator -> ${d}`);
  });

  it("does not take a share of cases for a claim that one is better", () => {
    const edges = edgesOf(
      "Evaluators indicated that GizmoNet was more factual than WidgetNet in only 7.1% of cases, while WidgetNet was preferred.",
    );
    expect(edges).not.toContain("improves_on GizmoNet -> WidgetNet");
  });
});

describe("review fixes: names cut from words, cited techniques, fronted lists, long citation runs", () => {
  const edgesOf = (text: string) =>
    extractWithRules(paper("Frobnicator: Fast Widgets for Everyone", [text])).candidates.map(
      (c) => `${c.relation} ${c.source.name} -> ${c.target.name}`,
    );

  it("starts a cited name at a word's start", () => {
    const edges = edgesOf("Frobnicator outperforms Our beam search [4] on every widget benchmark we tried here.");
    expect(edges.some((e) => /-> ur beam search/.test(e))).toBe(false);
    expect(edgesOf("We employ the layer normalization [1] after each of the widget blocks.")).toContain(
      "uses Frobnicator -> layer normalization",
    );
  });

  it("does not take a cited technique for the data a method is evaluated on", () => {
    const edges = edgesOf("We evaluate Frobnicator on nucleus sampling (Holtzman et al., 2020) for the widget runs.");
    expect(edges.some((e) => e.startsWith("evaluates_on"))).toBe(false);
  });

  it("takes the clause's subject after a fronted list of data, though another phrase comes between", () => {
    const edges = edgesOf(
      "On WidgetQA and GizmoBench, in the zero-shot setting of the widget study, Frobnicator achieves 91.2% accuracy.",
    );
    expect(edges).toContain("evaluates_on Frobnicator -> WidgetQA");
    expect(edges).toContain("evaluates_on Frobnicator -> GizmoBench");
  });

  it("reads a sentence of many spaced-out citations at once (no runaway matching)", () => {
    const cite = "(Lewis et al., 2020; Guu et al., 2020; Karpukhin et al., 2020; Izacard and Grave, 2021)";
    const items = ["RAG", "FiD", "REALM", "RETRO", "Atlas", "Self-RAG"].map((n) => `${cite} ${n}`).join(", ");
    expect(edgesOf(`For QA, ${items} and WidgetNet all retrieve passages before they answer.`)).toEqual([]);
  });
});

describe("round 7: own methods without a name in the title, lists and settings of ours, plain words with QA", () => {
  const edgesOf = (title: string, pages: string[]) =>
    extractWithRules(paper(title, pages)).candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);

  it("a blend of a title word that the paper goes on using is its method; one not used enough is not", () => {
    const uses = (n: number) =>
      Array.from({ length: n }, (_, i) => `Our WidNet-${i % 3 ? 50 : 101} runs well and WidNets train fast.`).join(" ");
    const title = "Deep Widening Learning for Gadget Recognition";
    expect(ownMethodOf(paper(title, [uses(30)]))).toBe("WidNet");
    expect(ownMethodOf(paper(title, [uses(10)]))).toBeNull();
    // a blend whose first part begins no title word, or only a form of it ("Deep" of "Deeper"), or a title word that
    // is the blend itself
    expect(ownMethodOf(paper("Deep Learning for Gadget Recognition", [uses(30)]))).toBeNull();
    expect(
      ownMethodOf(paper("Thinking Wider about Gadget Recognition", [uses(30).replace(/WidNet/g, "WideNet")])),
    ).toBeNull();
    expect(ownMethodOf(paper("Widnetting the Gadgets Revisited", [uses(30)]))).toBeNull();
    // a blend the paper cites in its reference list is someone else's
    const refs = "[1] A. Author. WidNet: a large gadget database. 2019.";
    const cited = paper(title, [`${uses(30)}\nReferences\n${refs}`]);
    const start = (cited.pages[0]?.text ?? "").indexOf("[1]");
    expect(ownMethodOf({ ...cited, skip: [{ page: 1, start, end: start + refs.length }] })).toBeNull();
  });

  it("the one model a title names is the paper's subject when the paper names it most", () => {
    const body = (model: string, other: string) =>
      `${Array.from({ length: 35 }, () => `${model} attends here.`).join(" ")} ${Array.from({ length: 10 }, () => `${other} too.`).join(" ")}`;
    const title = "What Does GadgetLM Look At? An Analysis of GadgetLM's Attention";
    expect(ownMethodOf(paper(title, [body("GadgetLM", "SEP")]))).toBe("GadgetLM");
    // a title that improves on the model, or does not study it: the paper's method is another
    expect(
      ownMethodOf(paper("Improving GadgetLM with Self-Supervised Attention", [body("GadgetLM", "SEP")])),
    ).toBeNull();
    expect(ownMethodOf(paper("Rethinking GadgetLM Pre-training", [body("GadgetLM", "SEP")]))).toBeNull();
    // another name the paper uses nearly as often: no clear subject
    expect(
      ownMethodOf(paper(title, [`${body("GadgetLM", "SEP")} ${Array.from({ length: 20 }, () => "SEP.").join(" ")}`])),
    ).toBeNull();
  });

  it("a list of names in a sentence of ours is read, however many capitalised names it has", () => {
    const edges = edgesOf("Gizmo: Widgets", [
      "Following earlier work, we evaluate Gizmo on the following benchmarks: FooQA, Bar-2, Bar-5, BazPedia, AG, Qux-2, and Qux-5.",
    ]);
    expect(edges).toEqual(expect.arrayContaining(["evaluates_on Gizmo -> FooQA", "evaluates_on Gizmo -> Qux-5"]));
    // the people an acknowledgement thanks are no list of ours
    expect(
      edgesOf("Gizmo: Widgets", [
        "We thank Percy Liang, Tatsu Hashimoto, Rishi Bommasani, Ananya Kumar, Sewon Min and Alice Oh for evaluating Gizmo on the FooQA and BarQA benchmarks.",
      ]),
    ).toEqual([]);
    // the same run of names outside our voice is a legend or an author list
    expect(
      edgesOf("Gizmo: Widgets", ["FooQA Bar-2 Bar-5 BazPedia Qux-2 Qux-5 Quux evaluated on WidgetQA here."]),
    ).toEqual([]);
  });

  it("a claim of ours followed by its settings is read up to them", () => {
    const edges = edgesOf("Gizmo: Widgets", [
      "5.3 Optimizer\nWe used the Adam optimizer [20] with β1 = 0.9, β2 = 0.98 and ϵ = 10−9. Then it ends.",
    ]);
    expect(edges).toEqual(["uses Gizmo -> Adam"]);
    // names inside the settings are not objects
    expect(
      edgesOf("Gizmo: Widgets", ["We used the schedule of, WidgetNet = 0.9, β2 = 0.98, ϵ = 10−9 and 1e-4 here."]),
    ).toEqual([]);
  });

  it("a generic abbreviation stays with the plain word it follows, not with a name", () => {
    expect(findNames("Strong performance of Gizmo on Knowledge QA tasks.").map((n) => n.name)).toContain(
      "Knowledge QA",
    );
    expect(findNames("We compare with the GizmoNet QA system here.").map((n) => n.name)).toContain("GizmoNet");
    // only a task's abbreviation: "Llama LLM", "Wikipedia API" are Llama and Wikipedia
    expect(findNames("We prompt the Llama LLM through the Wikipedia API here.").map((n) => n.name)).toEqual([
      "Llama",
      "Wikipedia",
    ]);
  });
});

describe("round 8: baselines named as ours, likeness", () => {
  const edgesOf = (title: string, pages: string[]) =>
    extractWithRules(paper(title, pages)).candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);

  it("the paper's method is compared with what it calls its baseline", () => {
    expect(
      edgesOf("Gizmo: Widgets", [
        "Our baseline model is the biattentive widget network (BWN) from Smith et al. (2017), which held the record.",
      ]),
    ).toContain("compares_to Gizmo -> BWN");
    expect(
      edgesOf("Gizmo: Widgets", [
        "Our baseline, the FooNet sequence model from Chen et al. (2017), uses a biLSTM here.",
      ]),
    ).toContain("compares_to Gizmo -> FooNet");
    // someone else's baseline is not the paper's comparison
    expect(
      edgesOf("Gizmo: Widgets", ["Their baseline model is the BarNet network of Smith et al. (2017) in every run."]),
    ).not.toContain("compares_to Gizmo -> BarNet");
  });

  it("what is added to a model and improves it improves on it; an addition that improves nothing does not", () => {
    expect(
      edgesOf("Gizmo: Widgets", [
        "Overall, adding GizmoLayer to the WidgetNet model improved accuracy by 0.7% on average.",
      ]),
    ).toContain("improves_on GizmoLayer -> WidgetNet");
    expect(
      edgesOf("Gizmo: Widgets", ["Adding GizmoLayer to the WidgetNet model improved nothing we could measure here."]),
    ).not.toContain("improves_on GizmoLayer -> WidgetNet");
    expect(
      edgesOf("Gizmo: Widgets", ["Adding GizmoLayer to the WidgetNet model made training slower in every run."]),
    ).toEqual([]);
  });

  it("a method that scores on data was evaluated on each; 'with scores of' someone else's is not", () => {
    expect(edgesOf("Gizmo: Widgets", ["In our runs, Gizmo scored 80.1 on FooQA and 70.2 on BarQA overall."])).toEqual([
      "evaluates_on Gizmo -> FooQA",
      "evaluates_on Gizmo -> BarQA",
    ]);
    expect(
      edgesOf("Gizmo: Widgets", ["Gizmo outperforms BarNet with scores of 90.8 on FooQA in all our runs."]),
    ).not.toContain("evaluates_on BarNet -> FooQA");
  });

  it("a named method similar to another is compared with it; an unnamed subject is not", () => {
    expect(edgesOf("Gizmo: Widgets", ["MDHA is similar to Convolutional Attention in how it mixes heads."])).toContain(
      "compares_to MDHA -> Convolutional Attention",
    );
    expect(
      edgesOf("Gizmo: Widgets", ["The idea is similar to Convolutional Attention in how it mixes heads."]),
    ).toEqual([]);
  });
});

describe("claims only from prose, with the strict rule for runs of symbols", () => {
  it("reads no claim from a sentence with a run of symbols inside it, which answers may still quote", () => {
    const text =
      "Frobnicator outperforms WidgetNet where W = W0 + BA holds in each of the layers of the model we trained.";
    expect(notProse(text)).toBeNull();
    const x = extractWithRules(paper("Frobnicator: Fast Widgets for Everyone", [text]));
    expect(x.candidates.filter((c) => c.relation === "improves_on")).toEqual([]);
    const plain = extractWithRules(
      paper("Frobnicator: Fast Widgets for Everyone", [
        "Frobnicator outperforms WidgetNet in each of the layers of the model we trained on the data.",
      ]),
    );
    expect(plain.candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`)).toContain(
      "improves_on Frobnicator -> WidgetNet",
    );
  });
});
