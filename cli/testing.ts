/**
 * What the CLI's tests share: running a command in this process with its output captured, and making a given
 * environment this process's (as the settings read it).
 */
import { resetEnvForTests } from "@/lib/env";
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

/** A command run in this process, its stdout and stderr captured. */
export async function cli(...args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await run(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
