import path from "node:path";
import { z } from "zod";

/**
 * Configuration, validated once. Everything reads settings through `getEnv()`; nothing else touches process.env.
 * Parsed lazily so importing a module never fails on a bad variable that module does not need.
 */
const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const envSchema = z.object({
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  LECTERN_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./.data")),
  LECTERN_MAX_UPLOAD_MB: z.preprocess(emptyToUndefined, z.coerce.number().positive().default(100)),
  OPENAI_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  LECTERN_CHAT_MODEL: z.preprocess(emptyToUndefined, z.string().default("gpt-4o-mini")),
  LECTERN_EMBEDDING_PROVIDER: z.preprocess(
    emptyToUndefined,
    z.enum(["auto", "latent", "hashing", "openai"]).default("auto"),
  ),
  LECTERN_EMBEDDING_MODEL: z.preprocess(emptyToUndefined, z.string().default("text-embedding-3-small")),
  LECTERN_EMBEDDING_DIMENSIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  LECTERN_LLM_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(60_000)),
  /** A whole research run (all steps, all model calls) is stopped after this long. */
  LECTERN_RESEARCH_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(180_000)),
  /** The server runs one offline question at start so the first user's is not slowed by cold caches; "0" skips it. */
  LECTERN_WARMUP: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("1")),
});

export type Env = z.infer<typeof envSchema> & { dataDir: string; maxUploadBytes: number; llmConfigured: boolean };

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration (see .env.example):\n${issues}`);
  }
  const e = parsed.data;
  cached = {
    ...e,
    dataDir: path.resolve(e.LECTERN_DATA_DIR),
    maxUploadBytes: Math.round(e.LECTERN_MAX_UPLOAD_MB * 1024 * 1024),
    // OPENAI_BASE_URL alone is enough for local servers (Ollama, vLLM) that need no key.
    llmConfigured: Boolean(e.OPENAI_API_KEY || e.OPENAI_BASE_URL),
  };
  return cached;
}

/** Tests change process.env between cases; this forgets the cached parse. */
export function resetEnvForTests(): void {
  cached = undefined;
}
