import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where a worker thread's script (a plain .mjs run from disk as it is, not bundled) is: beside the module that starts
 * the thread when it runs from source (tsx, vitest: `moduleUrl` is that module's `import.meta.url`), else under the
 * project directory the server runs in (`next start`: the bundle's own location is `.next/server/…`; the standalone
 * output carries the file there too, next.config.ts). Null when neither exists. `projectDir`: the script's directory
 * in the project ("lib/ingest").
 */
export function threadScript(moduleUrl: string, projectDir: string, name: string): string | null {
  const candidates: string[] = [];
  try {
    const here = fileURLToPath(moduleUrl);
    candidates.push(path.join(/* turbopackIgnore: true */ path.dirname(here), name));
  } catch {
    // not a file URL (a bundle): the project directory below
  }
  candidates.push(path.join(/* turbopackIgnore: true */ process.cwd(), ...projectDir.split("/"), name));
  return candidates.find((c) => fs.existsSync(/* turbopackIgnore: true */ c)) ?? null;
}
