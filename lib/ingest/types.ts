/** Shapes shared by the ingestion steps: pdf → pages → chunks → summary → embeddings. */

/** The PDF's info dictionary, as far as it is filled in. */
export interface PdfInfo {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creationDate?: Date;
}

export interface ExtractedPdf {
  pageCount: number;
  info: PdfInfo;
  /** Raw text per page, index 0 = page 1 (as pdf.js counts physical pages). */
  pages: string[];
}

/** A chunk of one page. Invariant: `text === pageText.slice(charStart, charEnd)`. */
export interface PageChunk {
  chunkIndex: number;
  text: string;
  charStart: number;
  charEnd: number;
  tokenCount: number;
}

export interface PaperMetadata {
  /** With version when printed, e.g. `1706.03762v5`. */
  arxivId?: string;
  title: string;
  authors: string[];
  abstract?: string;
  /** ISO date `YYYY-MM-DD`. */
  publishedDate?: string;
  year?: number;
  categories: string[];
  doi?: string;
  /** Journal or proceedings; only a trusted source gives it (TrustedMetadata), never the PDF's heuristics. */
  venue?: string;
}

export interface SummarySentence {
  text: string;
  /** 1-based page the sentence came from. */
  page: number;
}

export interface PaperSummary {
  /** Markdown. */
  text: string;
  method: "extractive" | "llm";
  model?: string;
  /** For extractive summaries: the sentences it is made of, with their pages. */
  sentences: SummarySentence[];
}

/** A passage of the summary index. Invariant: `text === summary.text.slice(charStart, charEnd)`. */
export interface SummaryChunk {
  chunkIndex: number;
  text: string;
  charStart: number;
  charEnd: number;
  pages: number[];
}
