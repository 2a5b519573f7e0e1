/**
 * What the CLI's tests share: running a command in this process with its output captured, making a given environment
 * this process's (as the settings read it), and holding the library open across commands.
 */
import { type DbHandle, openDatabase } from "@/db";
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
