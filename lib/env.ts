import { z } from "zod";
import { configurationError, databaseConfigOf, databaseEnvShape, emptyToUndefined } from "@/db/config";
import { type StorageSettings, storageSettingsOf } from "@/lib/storage/settings";

/**
 * Configuration, validated once. Everything reads settings through `getEnv()`; nothing else touches process.env —
 * but the database client, below lib/, which reads its two keys with their schema in db/config.ts (why there: see
 * that file). They are validated here with the rest, from that same schema.
 * Parsed lazily so importing a module never fails on a bad variable that module does not need.
 */
const envSchema = z.object({
  ...databaseEnvShape,
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
  /**
   * The lease of a running research run: its process renews it every third of this; any instance marks a running run
   * whose lease has expired `interrupted` (checking every half of this), so a run a dead process left is seen as
   * ended within 1.5 × this.
   */
  LECTERN_RUN_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).default(30_000)),
  /**
   * A worker beats every half of this on each job it holds; a job whose worker stops beating for this long (a killed
   * worker) is failed and retried by another. pg-boss's floor is 10 s.
   */
  LECTERN_JOB_HEARTBEAT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).default(20)),
  /**
   * Signs the session cookies. Unset: a random secret is made on first use and kept in the database (so every
   * instance on one PostgreSQL shares it); set it to rotate it (everyone signs in again).
   */
  LECTERN_AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  /** The address people reach the app at (https://lectern.lab.example): secure cookies, absolute links, share cards. */
  LECTERN_PUBLIC_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** The server runs one offline question at start so the first user's is not slowed by cold caches; "0" skips it. */
  LECTERN_WARMUP: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("1")),
  /**
   * Whether this app process works the job queue (ingestion, the library step, the storage sweep): `inline` (default;
   * the embedded database always does, one process holds it) or `off` — an app instance of a lab deployment, whose
   * jobs go to `npm run worker` processes.
   */
  LECTERN_WORKER: z.preprocess(emptyToUndefined, z.enum(["inline", "off"]).default("inline")),
  /** Files one worker process ingests at once. */
  LECTERN_WORKER_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(16).default(2)),
  /**
   * Where stored PDFs go: unset, `<LECTERN_DATA_DIR>/pdfs`; `s3://bucket/prefix`, an S3-compatible store reached with
   * the AWS variables below — checked only then, by storageSettingsOf (lib/storage/settings.ts).
   */
  LECTERN_STORAGE_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  AWS_ENDPOINT_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  AWS_REGION: z.preprocess(emptyToUndefined, z.string().optional()),
  AWS_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  AWS_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  AWS_SESSION_TOKEN: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Path-style S3 addresses (`endpoint/bucket/key`): "1" by default with AWS_ENDPOINT_URL, "0" without. */
  LECTERN_S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).optional()),
  /** The arXiv API (Atom feed) used to add papers by id and to search arXiv; tests point it at a local stand-in. */
  LECTERN_ARXIV_API_URL: z.preprocess(emptyToUndefined, z.string().url().default("https://export.arxiv.org/api/query")),
  /** Where arXiv PDFs are downloaded from: `<this>/<id>v<version>`. */
  LECTERN_ARXIV_PDF_URL: z.preprocess(emptyToUndefined, z.string().url().default("https://arxiv.org/pdf")),
  /** A contact address put in the User-Agent of requests to arXiv (arXiv asks heavy users for one). */
  LECTERN_ARXIV_CONTACT: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  /**
   * Web search (the research step that looks beyond the library): a SearXNG instance whose JSON API is on (the
   * default, self-hosted choice), else Tavily or Brave by key. None set: the step is not offered.
   */
  LECTERN_SEARXNG_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  TAVILY_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  LECTERN_TAVILY_URL: z.preprocess(emptyToUndefined, z.string().url().default("https://api.tavily.com")),
  BRAVE_SEARCH_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  LECTERN_BRAVE_URL: z.preprocess(emptyToUndefined, z.string().url().default("https://api.search.brave.com")),
  /** Fetching a result page: the whole exchange (ms), and the most of it read (KB). */
  LECTERN_WEB_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(10_000)),
  LECTERN_WEB_MAX_PAGE_KB: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(2048)),
  /** auto: the research plan adds web search for recent work and weak library evidence; on_request: only when asked. */
  LECTERN_WEB_SEARCH: z.preprocess(emptyToUndefined, z.enum(["auto", "on_request"]).default("auto")),
  /** Tests only: hosts (or addresses) web pages may be fetched from although not public, comma-separated. */
  LECTERN_WEB_ALLOW_HOSTS: z.preprocess(emptyToUndefined, z.string().optional()),
});

export type Env = z.infer<typeof envSchema> & {
  dataDir: string;
  maxUploadBytes: number;
  llmConfigured: boolean;
  /** Where stored PDFs live (lib/storage). */
  storage: StorageSettings;
};

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) throw configurationError(parsed.error.issues);
  const e = parsed.data;
  const storage = storageSettingsOf(e);
  if (!storage.ok) throw configurationError(storage.issues.map((i) => ({ path: [i.key], message: i.message })));
  cached = {
    ...e,
    dataDir: databaseConfigOf(e).dataDir,
    maxUploadBytes: Math.round(e.LECTERN_MAX_UPLOAD_MB * 1024 * 1024),
    // OPENAI_BASE_URL alone is enough for local servers (Ollama, vLLM) that need no key.
    llmConfigured: Boolean(e.OPENAI_API_KEY || e.OPENAI_BASE_URL),
    storage: storage.value,
  };
  return cached;
}

/** Tests change process.env between cases; this forgets the cached parse. */
export function resetEnvForTests(): void {
  cached = undefined;
}
