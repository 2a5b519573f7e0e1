import path from "node:path";
import { z } from "zod";

/**
 * The database's own configuration: DATABASE_URL (a PostgreSQL server), else the embedded database in
 * LECTERN_DATA_DIR.
 *
 * Why these two keys are defined here and not only in lib/env.ts: db/ imports nothing from lib/ but types and errors
 * (the layers point app → components → lib → db), yet the process-wide client (`getDbHandle`, db/index.ts) has to find
 * the database by itself — pages, actions and the research orchestrator ask for it without arguments. Passing the
 * settings in from every caller would touch dozens of files for nothing, and a module that lib/ fills in at start
 * would make the client depend on who ran first. So the keys' schema lives in this module, below lib/, and
 * lib/env.ts builds its schema from it: each key is defined once, `getEnv()` still answers both (nothing that reads
 * them changed), and the client reads them here, when it opens.
 */

/** Empty strings count as unset (an `.env` line `DATABASE_URL=` means "no server"). */
export const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const databaseEnvShape = {
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  LECTERN_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./.data")),
  /** "0": the embedded database runs in the calling thread instead of its own (db/pglite-thread.ts). */
  LECTERN_PGLITE_THREAD: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).optional()),
};

export interface DatabaseConfig {
  /** PostgreSQL URL; when absent, embedded PGlite is used. */
  url: string | undefined;
  /** The library's data directory (absolute): the embedded database and the stored PDFs. */
  dataDir: string;
}

/** The settings, from the validated keys. */
export function databaseConfigOf(env: { DATABASE_URL?: string; LECTERN_DATA_DIR: string }): DatabaseConfig {
  return { url: env.DATABASE_URL, dataDir: path.resolve(env.LECTERN_DATA_DIR) };
}

/** The error of an invalid configuration, worded once for both readers (this module and lib/env.ts). */
export function configurationError(issues: readonly { path: PropertyKey[]; message: string }[]): Error {
  const lines = issues.map((i) => `  ${i.path.map(String).join(".")}: ${i.message}`).join("\n");
  return new Error(`Invalid configuration (see .env.example):\n${lines}`);
}

/** Reads and validates the database's settings from the environment (the client calls it once per opening). */
export function readDatabaseConfig(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const parsed = z.object(databaseEnvShape).safeParse(env);
  if (!parsed.success) throw configurationError(parsed.error.issues);
  return databaseConfigOf(parsed.data);
}
