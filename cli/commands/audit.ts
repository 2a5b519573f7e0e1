import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { readAudit } from "@/lib/auth/audit";
import { LecternError } from "@/lib/errors";
import { printJson } from "../output";

const USAGE = "usage: npm run cli -- audit [--limit N] [--json]   (the latest N entries, newest first; 50 by default)";
const MAX = 10_000;

/** The audit trail, newest first: who uploaded, replaced, corrected or deleted which paper, and changes to people. */
export async function runAudit(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { limit: { type: "string" }, json: { type: "boolean" } },
  });
  const raw = values.limit;
  const limit = raw === undefined ? 50 : typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX) {
    throw new LecternError("bad_request:input", `--limit is a whole number from 1 to ${MAX}.\n${USAGE}`);
  }
  const entries = (await readAudit(handle.db, limit)).map((e) => ({
    id: e.id,
    at: e.at,
    actor: e.actorEmail ?? "unknown",
    action: e.action,
    subject: e.subject,
    detail: e.detail,
  }));
  if (json) {
    printJson({ entries });
    return 0;
  }
  if (entries.length === 0) {
    process.stdout.write("The audit trail is empty.\n");
    return 0;
  }
  const actorWidth = Math.min(40, Math.max(...entries.map((e) => e.actor.length)));
  const actionWidth = Math.max(...entries.map((e) => e.action.length));
  const lines = entries.map((e) => {
    // a role change reads from → to (jsonb keeps keys in its own order)
    const order = (k: string) => (k === "from" ? 0 : k === "to" ? 1 : 2);
    const detail = Object.entries(e.detail)
      .sort(([a], [b]) => order(a) - order(b))
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const when = `${e.at.slice(0, 19).replace("T", " ")}Z`;
    return `${when}  ${e.actor.padEnd(actorWidth)}  ${e.action.padEnd(actionWidth)}  ${e.subject}${detail ? `  ${detail}` : ""}`;
  });
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
