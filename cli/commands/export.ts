import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getRun } from "@/db/queries/research";
import { LecternError } from "@/lib/errors";
import { exportBibtex, exportMarkdown } from "@/lib/research/export";
import { info, printJson } from "../output";

const USAGE = "usage: npm run cli -- export <run_id> --format md|bibtex [--json]";

/** Prints a saved run as Markdown (answer and references, citations intact) or BibTeX of its cited papers. */
export async function runExport(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { format: { type: "string", default: "md" }, json: { type: "boolean" } },
  });
  const runId = positionals[0];
  if (!runId) {
    info(USAGE);
    return 2;
  }
  const format = String(values.format);
  if (format !== "md" && format !== "bibtex")
    throw new LecternError("bad_request:input", `--format is md or bibtex.\n${USAGE}`);
  const run = await getRun(handle.db, runId);
  if (!run) throw new LecternError("not_found:run", `No research run with id ${runId}.`);
  if (run.status === "running")
    throw new LecternError("conflict:run", "That run is still going; export it when it has finished.");
  const text = format === "md" ? exportMarkdown(run) : exportBibtex(run.references);
  if (text === null) {
    throw new LecternError("conflict:run", "That run has nothing to export (no answer, and nothing found).");
  }
  if (json) printJson({ run_id: run.runId, format, content: text });
  else process.stdout.write(`${text}\n`);
  return 0;
}
