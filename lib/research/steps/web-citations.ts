import { pendingCard, type StepDefinition } from "../lifecycle";
import { errorMessage } from "../step-kit";
import type { StepOf } from "../types";
import { judgeWebCitations, verifyWebCitations, type WebCitation, type WebEvidence, type WebSource } from "../web";

declare module "@/lib/research/types" {
  interface StepDataByType {
    web_citations: WebCitationsData;
  }
}

export interface WebCitationsData {
  total: number;
  supported: number;
  unsupported: number;
  method: "lexical" | "llm";
  citations: WebCitation[];
  /** The pages the answer cites: the answer's "Web sources". */
  sources: WebSource[];
}

export interface WebCitationsInput {
  body: string;
  sources: WebEvidence[];
}

/**
 * Verification of the answer's `[W1]`… citations against the text fetched from each page (word overlap offline, the
 * model as judge when configured), like the paper citations; unsupported ones are flagged, never dropped.
 */
export const webCitationsStep: StepDefinition<StepOf<"web_citations">, WebCitationsInput, WebCitationsData> = {
  card: () =>
    pendingCard<StepOf<"web_citations">>({
      id: "web_citations",
      type: "web_citations",
      title: "Verifying web citations",
    }),
  async run(ctx, { body, sources }) {
    let citations = verifyWebCitations(body, sources);
    let method: "lexical" | "llm" = "lexical";
    if (ctx.llm && citations.some((c) => c.url)) {
      try {
        citations = await judgeWebCitations(ctx.llm, citations, sources, { signal: ctx.callSignal() });
        method = "llm";
      } catch (e) {
        if (ctx.stopped()) throw e;
        ctx.warn(`The model could not judge the web citations (${errorMessage(e)}); the lexical check stands.`);
      }
    }
    const cited = new Set(citations.map((c) => c.sourceId));
    const citedSources: WebSource[] = sources.filter((s) => cited.has(s.id)).map(({ text: _t, ...s }) => s);
    const supported = citations.filter((c) => c.supported).length;
    const data: WebCitationsData = {
      total: citations.length,
      supported,
      unsupported: citations.length - supported,
      method,
      citations,
      sources: citedSources,
    };
    return {
      result: data,
      patch: {
        title:
          citations.length === 0
            ? "No web citations to check"
            : `Verified ${citations.length} web ${citations.length === 1 ? "citation" : "citations"}: ${supported} supported`,
        reasoning:
          citations.length === 0
            ? "The answer cites no web page."
            : method === "llm"
              ? "Each [W…] citation was checked by the model against the text fetched from its page."
              : "Each [W…] citation was checked word by word against the text fetched from its page; the quote is the page's sentence that supports it best.",
        confidence: citations.length > 0 ? supported / citations.length : null,
        data,
      },
    };
  },
};
