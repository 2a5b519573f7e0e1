/**
 * What the search page shows. Plain JSON: it crosses the server/client boundary. The shapes follow lib/search's
 * results, without the fields the page does not use (embeddings never leave the server).
 */
export const searchIndexes = ["content", "summaries"] as const;
export type SearchIndex = (typeof searchIndexes)[number];

export const indexLabels: Record<SearchIndex, string> = {
  content: "Content",
  summaries: "Summaries",
};

export const indexDescriptions: Record<SearchIndex, string> = {
  content: "Passages of the papers' pages",
  summaries: "The papers' summaries, one result per paper",
};

/** The query state, as held by the URL (`/search?q=&index=&papers=&years=&category=&refs=`). */
export interface SearchState {
  q: string;
  index: SearchIndex;
  /** Paper ids to search within; empty means the whole library. */
  papers: string[];
  /** Inclusive. */
  yearFrom: number | null;
  yearTo: number | null;
  /** An arXiv category, e.g. `cs.CL`. */
  category: string | null;
  /** Also search the papers' reference lists, which the content index leaves out by default (summaries have none). */
  refs: boolean;
}

export const emptySearchState: SearchState = {
  q: "",
  index: "content",
  papers: [],
  yearFrom: null,
  yearTo: null,
  category: null,
  refs: false,
};

/** One retriever's own view of a result. */
export interface RetrieverScore {
  /** BM25 for full text, cosine similarity for vectors. */
  score: number;
  /** 1-based rank in that retriever's list. */
  rank: number;
}

/** Why a result ranked where it did. */
export interface Ranking {
  /** Fused (reciprocal rank fusion) score. */
  score: number;
  /** Calibrated relevance in [0, 1]: what the relevance cutoff is compared with. */
  relevance: number;
  fts: RetrieverScore | null;
  /** Full text ranked by proximity (cover density: the query's words close together). */
  proximity?: RetrieverScore | null;
  vector: RetrieverScore | null;
  /** Passages ranked by their best sentence (BM25 over sentences); questions asking for a fact only. */
  sentence?: RetrieverScore | null;
}

/** A passage of a page (the content index). `charStart`/`charEnd` are offsets into the page's stored text. */
export interface PassageHit extends Ranking {
  chunkUid: string;
  paperId: string;
  title: string;
  year: number | null;
  page: number;
  charStart: number;
  charEnd: number;
  /** The section of the paper the passage starts in, outermost heading first ("4 Methodology › 4.2 Crawler"). */
  section: string | null;
  /** Part of the paper's list of references (only found when the search includes them). */
  bibliography: boolean;
  text: string;
}

/** A passage of a paper's summary, with the pages of the paper it came from (empty when unknown). */
export interface SummaryPassageHit extends Ranking {
  chunkUid: string;
  text: string;
  pages: number[];
}

/** A paper found through its summary (the summaries index). */
export interface SummaryHit {
  paperId: string;
  title: string;
  year: number | null;
  authors: string[];
  score: number;
  relevance: number;
  passages: SummaryPassageHit[];
}

/** A word of the query the search looked for under the library's spelling ("atention" as "attention"). */
export interface Respelled {
  written: string;
  searched: string;
}

/** What a search says about its query's words, whichever index it searched. */
export interface QueryWords {
  /** Words searched as the library spells them. */
  respelled?: Respelled[];
  /** Words no page of the library holds… */
  absent?: string[];
  /** …which are all of the query's words. */
  allAbsent?: boolean;
}

export type SearchResponse = QueryWords &
  (
    | { index: "content"; hits: PassageHit[]; tookMs: number }
    | { index: "summaries"; papers: SummaryHit[]; tookMs: number }
  );

/** A paper the picker offers. */
export interface PaperOption {
  id: string;
  title: string;
  year: number | null;
}

/** What the page knows of the library, for the filters and the empty states. */
export interface SearchLibrary {
  /** Papers that can be searched (processed without error). */
  ready: number;
  /** Papers still being processed. */
  processing: number;
  papers: PaperOption[];
  /** The range of the papers' years, for the year filter's hints. */
  years: { min: number; max: number } | null;
  /** The offline embedders are labelled as such: what their vectors measure. */
  embedder: "latent" | "hashing" | "openai";
}
