/**
 * The arXiv stand-in as a process, for Playwright (a second webServer in playwright.config.ts) and for trying the CLI
 * by hand: `npx tsx e2e/arxiv-standin-server.ts 3199` then LECTERN_ARXIV_API_URL=http://127.0.0.1:3199/api/query
 * LECTERN_ARXIV_PDF_URL=http://127.0.0.1:3199/pdf. It serves the papers of e2e/arxiv-papers.ts.
 */
// Relative imports: Playwright and plain tsx do not resolve the `@/` alias.
import { startArxivStandin } from "../lib/testing/arxiv-standin";
import { standinPapers } from "./arxiv-papers";

const port = Number(process.argv[2] ?? process.env.ARXIV_STANDIN_PORT ?? 3199);
const standin = await startArxivStandin(await standinPapers(), { port });
process.stderr.write(`[arxiv-standin] ${standin.apiUrl} (PDFs at ${standin.pdfUrl})\n`);
const stop = () => void standin.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
