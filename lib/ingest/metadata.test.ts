import { describe, expect, it } from "vitest";
import { cleanPages } from "@/lib/ingest/clean";
import { extractPdf } from "@/lib/ingest/extract";
import { arxivIdFromFileName, extractMetadata, findArxivStamp, paperIdFor, slugify } from "@/lib/ingest/metadata";
import type { PaperMetadata } from "@/lib/ingest/types";
import { makeTestPdf } from "@/lib/testing/pdf";

const BODY = `1 Introduction
Recurrent neural networks, long short-term memory and gated recurrent neural networks in particular, have been
firmly established as state of the art approaches in sequence modeling and transduction problems such as
language modeling and machine translation. Numerous efforts have since continued to push the boundaries.`;

const ATTENTION_PAGE1 = `Attention Is All You Need
Ashish Vaswani∗
Google Brain
avaswani@google.com
Noam Shazeer∗
Google Brain
noam@google.com
Niki Parmar∗
Google Research
nikip@google.com
Abstract
The dominant sequence transduction models are based on complex recurrent or
convolutional neural networks that include an encoder and a decoder. We propose a new simple network
architecture, the Transformer, based solely on attention mechanisms.
${BODY}
∗Equal contribution.
arXiv:1706.03762v5 [cs.CL] 6 Dec 2017`;

const meta = (page1: string, extra: Partial<Parameters<typeof extractMetadata>[0]> = {}) =>
  extractMetadata({
    pages: [page1, "Second page text about attention and models."],
    info: {},
    fileName: "x.pdf",
    ...extra,
  });

describe("arXiv ids", () => {
  it("reads the stamp anywhere on page 1: id with version, category, date", () => {
    const m = meta(ATTENTION_PAGE1);
    expect(m.arxivId).toBe("1706.03762v5");
    expect(m.categories).toEqual(["cs.CL"]);
    expect(m.publishedDate).toBe("2017-12-06");
    // the year of first submission, from the id (what citations use), not the version's date
    expect(m.year).toBe(2017);
    expect(meta(`arXiv:1810.04805v2 [cs.CL] 24 May 2019\n${ATTENTION_PAGE1}`).year).toBe(2018);
  });

  it("reads old-style ids", () => {
    expect(findArxivStamp("text\narXiv:hep-th/9901001v1 [hep-th] 1 Jan 1999\nmore")).toEqual({
      id: "hep-th/9901001",
      version: "v1",
      category: "hep-th",
      date: "1999-01-01",
    });
    const m = meta(`Some Old Physics Paper Title\narXiv:hep-th/9901001v1 [hep-th] 1 Jan 1999`);
    expect(m.arxivId).toBe("hep-th/9901001v1");
    expect(m.year).toBe(1999);
    expect(paperIdFor(m, "x.pdf")).toBe("hep-th_9901001v1");
  });

  it("ignores impossible ids in stamps", () => {
    expect(findArxivStamp("arXiv:1713.03762v1 [cs.CL] 6 Dec 2017")).toBeUndefined(); // month 13
    expect(findArxivStamp("arXiv:2101.1234v1 [cs.CL] 6 Jan 2021")).toBeUndefined(); // 4 digits after 2015
  });

  it("falls back to the file name", () => {
    expect(arxivIdFromFileName("1706.03762.pdf")).toBe("1706.03762");
    expect(arxivIdFromFileName("/tmp/uploads/1706.03762v2.pdf")).toBe("1706.03762v2");
    expect(arxivIdFromFileName("arXiv-2310.05634v3.pdf")).toBe("2310.05634v3");
    expect(arxivIdFromFileName("hep-th_9901001v1.pdf")).toBe("hep-th/9901001v1");
    expect(arxivIdFromFileName("paper-2024.pdf")).toBeUndefined();
    expect(arxivIdFromFileName("report 1999.12345.pdf")).toBeUndefined(); // 5 digits before 2015
    expect(arxivIdFromFileName("v1.2.3.pdf")).toBeUndefined();
    const m = meta(ATTENTION_PAGE1.replace(/arXiv:.*$/m, ""), { fileName: "2310.05634.pdf" });
    expect(m.arxivId).toBe("2310.05634");
    expect(m.categories).toEqual([]);
    expect(m.publishedDate).toBeUndefined();
    expect(m.year).toBe(2023);
  });

  it("does not take a cited arXiv id for the paper's own", () => {
    const m = meta(`A Paper Title Here\nJane Doe\nAbstract\nWe build on BERT (arXiv:1810.04805). ${BODY}`);
    expect(m.arxivId).toBeUndefined();
  });
});

describe("title", () => {
  it("uses the info title when it looks real", () => {
    const m = meta(ATTENTION_PAGE1, { info: { title: "Attention Is All You Need (camera ready)" } });
    expect(m.title).toBe("Attention Is All You Need (camera ready)");
  });

  it("ignores junk info titles and uses the first page", () => {
    for (const junk of ["Microsoft Word - paper_final.docx", "untitled", "x.pdf", "main.tex", "paper", "  "]) {
      expect(meta(ATTENTION_PAGE1, { info: { title: junk } }).title).toBe("Attention Is All You Need");
    }
    expect(meta(ATTENTION_PAGE1, { info: { title: "nips2017_final" }, fileName: "nips2017_final.pdf" }).title).toBe(
      "Attention Is All You Need",
    );
  });

  it("skips venue headers and stamps, and joins a title wrapped over lines", () => {
    const page = `arXiv:1810.04805v2 [cs.CL] 24 May 2019
Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics, pages 4969–4983
July 5 - 10, 2020. ©2020 Association for Computational Linguistics
4969
BERT: Pre-training of Deep Bidirectional Transformers for
Language Understanding
Jacob Devlin Ming-Wei Chang Kenton Lee Kristina Toutanova
Google AI Language
{jacobdevlin,mingweichang,kentonl,kristout}@google.com
Abstract
We introduce a new language representation model called BERT, which stands for Bidirectional Encoder
Representations from Transformers, designed to pre-train deep bidirectional representations.
${BODY}`;
    const m = meta(page);
    expect(m.title).toBe("BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding");
    expect(m.authors).toEqual(["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"]);
  });

  it("recases an all-caps title the way the paper spells its words", () => {
    const page = `Published as a conference paper at ICLR 2022
LORA: LOW-RANK ADAPTATION OF LARGE LANGUAGE
MODELS
Edward Hu∗ Yelong Shen∗ Phillip Wallis Zeyuan Allen-Zhu
Microsoft Corporation
ABSTRACT
We propose Low-Rank Adaptation, or LoRA, which freezes the pretrained model weights. LoRA reduces the
number of trainable parameters of large language models by 10,000 times.
1 INTRODUCTION
Many applications in natural language processing rely on adapting one large-scale, pre-trained language model.`;
    const m = meta(page);
    expect(m.title).toBe("LoRA: Low-Rank Adaptation of Large Language Models");
    expect(m.authors).toEqual(["Edward Hu", "Yelong Shen", "Phillip Wallis", "Zeyuan Allen-Zhu"]);
  });

  it("stops the title at the author line even without markers", () => {
    const page = `Deep Residual Learning for Image Recognition
Kaiming He Xiangyu Zhang Shaoqing Ren Jian Sun
Microsoft Research
Abstract
Deeper neural networks are more difficult to train. We present a residual learning framework to ease the
training of networks that are substantially deeper than those used previously.
${BODY}`;
    const m = meta(page);
    expect(m.title).toBe("Deep Residual Learning for Image Recognition");
    expect(m.authors).toEqual(["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]);
  });

  it("falls back to the file name when page 1 has nothing usable", () => {
    expect(meta("", { fileName: "my_great_paper.pdf" }).title).toBe("my great paper");
  });
});

describe("authors", () => {
  it("splits the info Author on semicolons or commas", () => {
    expect(meta(ATTENTION_PAGE1, { info: { author: "Kyle Lo ; Lucy Lu Wang ; Mark Neumann" } }).authors).toEqual([
      "Kyle Lo",
      "Lucy Lu Wang",
      "Mark Neumann",
    ]);
    expect(meta(ATTENTION_PAGE1, { info: { author: "Mark Chen, Jerry Tworek and Heewoo Jun" } }).authors).toEqual([
      "Mark Chen",
      "Jerry Tworek",
      "Heewoo Jun",
    ]);
  });

  it("ignores placeholder info authors and reads page 1 instead", () => {
    expect(meta(ATTENTION_PAGE1, { info: { author: "Administrator" } }).authors).toEqual([
      "Ashish Vaswani",
      "Noam Shazeer",
      "Niki Parmar",
    ]);
  });

  it("strips markers, digits and affiliations from comma-separated author lines", () => {
    const page = `XLNet: Generalized Autoregressive Pretraining
for Language Understanding
Zhilin Yang∗1, Zihang Dai∗12, Yiming Yang1, Jaime Carbonell1,
Ruslan Salakhutdinov1, Quoc V. Le2
1Carnegie Mellon University, 2Google Brain
{zhiliny,dzihang}@cs.cmu.edu, qvl@google.com
Abstract
With the capability of modeling bidirectional contexts, denoising autoencoding based pretraining like BERT
achieves better performance than pretraining approaches based on autoregressive language modeling.
${BODY}`;
    const m = meta(page);
    expect(m.title).toBe("XLNet: Generalized Autoregressive Pretraining for Language Understanding");
    expect(m.authors).toEqual([
      "Zhilin Yang",
      "Zihang Dai",
      "Yiming Yang",
      "Jaime Carbonell",
      "Ruslan Salakhutdinov",
      "Quoc V. Le",
    ]);
  });

  it("returns no authors rather than garbage when the block has none", () => {
    const page = `A Study Without Named Authors
Abstract
This paper has no author block at all, only an abstract that is long enough to count as one.
${BODY}`;
    expect(meta(page).authors).toEqual([]);
  });

  it("takes a collective author under the title when no person is named", () => {
    const page = `DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via
Reinforcement Learning
DeepSeek-AI
research@deepseek.com
Abstract
We introduce our first-generation reasoning models, trained via large-scale reinforcement learning.
${BODY}`;
    expect(meta(page).authors).toEqual(["DeepSeek-AI"]);
    // under a title of one long line too (it used to be taken for the title's second line)
    const oneLine = `DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning
DeepSeek-AI
research@deepseek.com
Abstract
We introduce our first-generation reasoning models, trained via large-scale reinforcement learning.
${BODY}`;
    expect(meta(oneLine)).toMatchObject({
      title: "DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning",
      authors: ["DeepSeek-AI"],
    });
    // a line that is not followed by a contact address is not taken for an author
    const subtitle = `A Study of Things
Draft
Abstract
This paper has no author block at all, only an abstract that is long enough to count as one.
${BODY}`;
    expect(meta(subtitle).authors).toEqual([]);
  });
});

describe("abstract, DOI, dates", () => {
  it("takes the text after the Abstract heading up to the first section", () => {
    const m = meta(ATTENTION_PAGE1);
    expect(m.abstract).toBe(
      "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks " +
        "that include an encoder and a decoder. We propose a new simple network architecture, the Transformer, " +
        "based solely on attention mechanisms.",
    );
  });

  it("handles IEEE-style abstracts and stops at Index Terms / Keywords", () => {
    const page = `Retrieval-Augmented Generation for Large
Language Models: A Survey
Yunfan Gao, Yun Xiong
Abstract—Large Language Models (LLMs) showcase impressive capabilities but encounter challenges like
hallucination and outdated knowledge.
Index Terms—Large language model, retrieval-augmented generation
I. INTRODUCTION`;
    const m = meta(page);
    expect(m.title).toBe("Retrieval-Augmented Generation for Large Language Models: A Survey");
    expect(m.abstract).toBe(
      "Large Language Models (LLMs) showcase impressive capabilities but encounter challenges like hallucination and outdated knowledge.",
    );
    expect(meta(page.replace("Index Terms—", "Keywords: ")).abstract?.endsWith("outdated knowledge.")).toBe(true);
  });

  it("drops a footnote mark after the abstract's last sentence", () => {
    const m = meta(ATTENTION_PAGE1.replace("attention mechanisms.", "attention mechanisms.1"));
    expect(m.abstract?.endsWith("attention mechanisms.")).toBe(true);
  });

  it("finds a DOI on page 1", () => {
    expect(meta(`${ATTENTION_PAGE1}\nhttps://doi.org/10.1145/3397271.3401093.`).doi).toBe("10.1145/3397271.3401093");
    expect(meta(ATTENTION_PAGE1).doi).toBeUndefined();
  });

  it("falls back to the PDF creation year", () => {
    const page = ATTENTION_PAGE1.replace(/arXiv:.*$/m, "");
    expect(meta(page, { info: { creationDate: new Date("2019-03-04T10:00:00Z") } }).year).toBe(2019);
    expect(meta(page).year).toBeUndefined();
  });
});

describe("paperIdFor and slugify", () => {
  const base: PaperMetadata = { title: "Attention Is All You Need", authors: [], categories: [] };

  it("prefers the arXiv id with version", () => {
    expect(paperIdFor({ ...base, arxivId: "1706.03762v5" }, "x.pdf")).toBe("1706.03762v5");
  });

  it("else slugs the title, else the file name", () => {
    expect(paperIdFor(base, "x.pdf")).toBe("attention-is-all-you-need");
    expect(paperIdFor({ ...base, title: "Über Ümläute — naïve café" }, "x.pdf")).toBe("uber-umlaute-naive-cafe");
    expect(paperIdFor({ ...base, title: "日本語のタイトル" }, "My Paper (final).pdf")).toBe("my-paper-final");
    expect(paperIdFor({ ...base, title: "" }, "日本.pdf")).toBe("paper");
  });

  it("keeps slugs within 60 characters, cut at a word boundary", () => {
    const slug = slugify(
      "Automatically Correcting Large Language Models: Surveying the Landscape of Diverse Automated Correction Strategies",
    );
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug).toBe("automatically-correcting-large-language-models-surveying-the");
    expect(slugify("a".repeat(100))).toHaveLength(60);
  });
});

describe("on an extracted PDF", () => {
  it("reads title, authors, abstract and arXiv id through extract and clean", async () => {
    const pdf = await makeTestPdf({
      // the standard PDF fonts cannot encode "∗": the ASCII asterisk is the marker here
      pages: [
        ATTENTION_PAGE1.replaceAll("∗", "*"),
        `Second page.\n${BODY}`,
        "Third page with more text about attention.",
      ],
      title: "",
    });
    const extracted = await extractPdf(pdf);
    const m = extractMetadata({ pages: cleanPages(extracted.pages), info: extracted.info, fileName: "upload.pdf" });
    expect(m.arxivId).toBe("1706.03762v5");
    expect(m.title).toBe("Attention Is All You Need");
    expect(m.authors).toEqual(["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"]);
    expect(m.abstract?.startsWith("The dominant sequence transduction models")).toBe(true);
    expect(paperIdFor(m, "upload.pdf")).toBe("1706.03762v5");
  });
});
