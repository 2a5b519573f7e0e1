/**
 * What the CLI's tests share: running a command in this process with its output captured, making a given environment
 * this process's (as the settings read it), and holding the library open across commands.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type DbHandle, openDatabase } from "@/db";
import { createTestInstance } from "@/db/testing";
import { getEnv, resetEnvForTests } from "@/lib/env";
import { run } from "./index";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Makes `vars` this process's environment, as the settings read (lib/env.ts) see it. */
export function replaceEnv(vars: Record<string, string | undefined>): void {
  for (const key of Object.keys(process.env)) if (!(key in vars)) delete process.env[key];
  for (const [key, value] of Object.entries(vars)) if (value !== undefined) process.env[key] = value;
  resetEnvForTests();
}

let held: DbHandle | undefined;

/**
 * Opens the library the environment names (DATABASE_URL, else LECTERN_DATA_DIR) and keeps it open: the commands `cli`
 * runs then use it, as one long-lived process would, instead of opening and closing it for each command. An embedded
 * database takes 0.4–1 s (and as much CPU) to open; a test file runs up to 40 commands. The handle is for the test's
 * own reads and writes too: a second opening of an embedded directory is refused by its lock. Tests of the opening
 * itself (the lock, a first start) run the CLI as its own process (cli/cli.test.ts).
 */
export async function holdLibrary(): Promise<DbHandle> {
  if (held) throw new Error("holdLibrary: a library is held already (releaseLibrary first)");
  const env = getEnv();
  held = await openDatabase({ url: env.DATABASE_URL, dataDir: env.dataDir, role: "cli test" });
  return held;
}

/** Closes what holdLibrary opened (if anything). */
export async function releaseLibrary(): Promise<void> {
  const handle = held;
  held = undefined;
  await handle?.close();
}

/** A command run in this process, its stdout and stderr captured (in the held library, when one is). */
export async function cli(...args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, held);
  return { code, stdout, stderr };
}

/** The caller's settings a CLI test must not inherit: Lectern's, the providers' and the database's. */
const FOREIGN_SETTINGS = /^(LECTERN_|OPENAI_|AWS_|TAVILY_|BRAVE_|DATABASE_URL$)/;

export interface CliLibrary {
  /** A temporary directory of the test file's own (removed by `close`). */
  dir: string;
  /** The library's data directory, `<dir>/data` (LECTERN_DATA_DIR). */
  dataDir: string;
  /** The environment the commands run in: the caller's without FOREIGN_SETTINGS, the instance's and `vars`. */
  env: Record<string, string | undefined>;
  /** The held library (holdLibrary), for the test's own reads and writes. */
  handle: DbHandle;
  /** Releases the library, restores the caller's environment, drops the instance's database, removes `dir`. */
  close(): Promise<void>;
}

/**
 * Sets a CLI test file up as one process running the commands: a temporary directory, a migrated instance copied
 * from the run's template in it (createTestInstance: what the commands do is tested, not a first start), that
 * instance's environment made this process's (replaceEnv, with `vars` — which may name files in `dir`) and the library
 * held open (holdLibrary). `close` undoes each step in reverse, in `afterAll`.
 */
export async function openCliLibrary(
  name: string,
  vars: (dir: string) => Record<string, string | undefined> = () => ({}),
): Promise<CliLibrary> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `lectern-cli-${name}-`));
  const dataDir = path.join(dir, "data");
  const saved = { ...process.env };
  let drop = async () => {};
  try {
    const rest = Object.fromEntries(Object.entries(process.env).filter(([k]) => !FOREIGN_SETTINGS.test(k)));
    const env: Record<string, string | undefined> = { ...rest, LECTERN_DATA_DIR: dataDir, NO_COLOR: "1", ...vars(dir) };
    const instance = await createTestInstance(dataDir);
    drop = instance.drop;
    Object.assign(env, instance.env);
    replaceEnv(env);
    const handle = await holdLibrary();
    return {
      dir,
      dataDir,
      env,
      handle,
      close: () => undo(saved, drop, dir),
    };
  } catch (e) {
    await undo(saved, drop, dir).catch(() => {});
    throw e;
  }
}

/** openCliLibrary's steps undone in reverse, each one even when an earlier one fails (the first failure is thrown). */
async function undo(saved: NodeJS.ProcessEnv, drop: () => Promise<void>, dir: string): Promise<void> {
  try {
    await releaseLibrary();
  } finally {
    try {
      replaceEnv(saved);
      await drop();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}
