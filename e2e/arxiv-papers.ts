import type { StandinPaper } from "../lib/testing/arxiv-standin";
import { makeTestPdf } from "../lib/testing/pdf";

/** The papers the arXiv stand-in serves in e2e (and for trying the CLI by hand). */
export const ARXIV_PAPER = {
  id: "2106.09685",
  version: 2,
  title: "LoRA: Low-Rank Adaptation of Large Language Models",
  authors: ["Edward J. Hu", "Yelong Shen", "Phillip Wallis"],
} as const;

export const ARXIV_SECOND = {
  id: "2005.11401",
  title: "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
  authors: ["Patrick Lewis", "Ethan Perez"],
} as const;

async function pdf(lines: string[]): Promise<Uint8Array> {
  return makeTestPdf({
    pages: [
      `Preprint under review\n${lines[0]}`,
      `${lines[1]} The method is evaluated on several benchmarks and compared with strong baselines.`,
    ],
  });
}

export async function standinPapers(): Promise<StandinPaper[]> {
  return [
    {
      id: ARXIV_PAPER.id,
      title: ARXIV_PAPER.title,
      authors: [...ARXIV_PAPER.authors],
      abstract:
        "We propose Low-Rank Adaptation, or LoRA, which freezes the pre-trained model weights and injects trainable rank decomposition matrices into each layer of the Transformer architecture.",
      categories: ["cs.CL", "cs.AI", "cs.LG"],
      doi: "10.48550/arXiv.2106.09685",
      journalRef: "ICLR 2022",
      versions: [
        {
          version: 1,
          date: "2021-06-17",
          pdf: await pdf(["Low-rank adapters, first version.", "Adapters reduce trainable parameters."]),
        },
        {
          version: 2,
          date: "2021-10-16",
          pdf: await pdf(["Low-rank adapters freeze the weights.", "Rank decomposition matrices are trained."]),
        },
      ],
    },
    {
      id: ARXIV_SECOND.id,
      title: ARXIV_SECOND.title,
      authors: [...ARXIV_SECOND.authors],
      abstract:
        "Retrieval-augmented generation combines a parametric memory with a non-parametric memory accessed by a dense retriever.",
      categories: ["cs.CL", "cs.LG"],
      versions: [
        {
          version: 4,
          date: "2020-05-22",
          pdf: await pdf(["A retriever and a generator are trained jointly.", "Retrieval improves factual answers."]),
        },
      ],
    },
    {
      id: "1706.03762",
      title: "Attention Is All You Need",
      authors: ["Ashish Vaswani", "Noam Shazeer"],
      abstract: "The Transformer is based solely on attention mechanisms, dispensing with recurrence entirely.",
      categories: ["cs.CL", "cs.LG"],
      versions: [
        {
          version: 7,
          date: "2017-06-12",
          pdf: await pdf(["Attention replaces recurrence.", "Multi-head attention attends to positions."]),
        },
      ],
    },
  ];
}
