import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getChatModel } from "@/lib/ai/providers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { generateOutline } from "@/lib/research/deep";
import { info, printJson } from "../output";

const USAGE = 'usage: npm run cli -- outline "<question>" [--json]   (edit it, then: research --outline file.json)';

/** Prints the knowledge-point outline of a question; `--json` gives `{ question, outline, method }` to edit and rerun. */
export async function runOutline(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { json: { type: "boolean" } },
  });
  const question = positionals.join(" ").trim();
  if (!question) {
    info(USAGE);
    return 2;
  }
  const env = getEnv();
  const r = await generateOutline(
    {
      db: handle.db,
      embedder: getEmbeddingProvider(env),
      chatModel: getChatModel(env),
      llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
      runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS,
    },
    question,
  );
  if (r.warning) info(`Note: ${r.warning}`);
  if (json) {
    printJson({ question, outline: r.value, method: r.method });
    return 0;
  }
  const o = r.value;
  const lines = [
    `${o.title}  (${r.method === "llm" ? "from the model" : r.method === "library" ? "built from your library" : "default outline"})`,
    "",
  ];
  for (const p of o.knowledge_points) {
    lines.push(`  [${p.importance}] ${p.topic} — ${p.category}`, `      keywords: ${p.search_keywords.join(", ")}`);
  }
  if (o.year_from || o.year_to) lines.push("", `  years: ${o.year_from ?? "…"}–${o.year_to ?? "…"}`);
  lines.push("", o.search_strategy, "", "Save with --json, edit, then: npm run cli -- research --outline file.json");
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
