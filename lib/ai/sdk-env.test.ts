import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

/** Loads a module in a fresh process (the SDK reads the variable once, when it is first loaded). */
function load(module: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(module)}); console.log("loaded")`,
      ],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe("an empty OPENAI_BASE_URL", () => {
  it("is taken as unset: the model providers load (the SDK alone refuses it)", async () => {
    const sdk = await load("@ai-sdk/openai", { OPENAI_BASE_URL: "" });
    expect(sdk.out).toMatch(/baseURL must be a non-empty string/);
    const ours = await load("./lib/ai/providers.ts", { OPENAI_BASE_URL: "", OPENAI_API_KEY: "" });
    expect(ours).toMatchObject({ code: 0, out: expect.stringContaining("loaded") });
  });
});
