import { startResearchInputSchema } from "@/app/(research)/research/schema";
import { errorResponse, guardRoute } from "@/app/access";
import { getDb } from "@/db";
import { consumeRateLimit, RATE_LIMITS } from "@/lib/auth/rate-limit";
import { LecternError } from "@/lib/errors";
import { getResearchDeps } from "@/lib/research/deps";
import type { Runner } from "@/lib/research/lifecycle";
import { runResearch } from "@/lib/research/orchestrator";
import { startRun } from "@/lib/research/runs";
import type { ResearchError } from "@/lib/research/types";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A question and a flag fit in far less; a larger body is refused before it is parsed. */
const MAX_BODY_BYTES = 16 * 1024;

export interface StartedRunResponse {
  run_id: string;
  /** Present when the request waited for the run (the default): how it ended. */
  status?: string;
  duration_ms?: number;
  citations?: number;
  error?: ResearchError;
}

/**
 * `POST /api/research` `{ "question": "…", "web": false }` — a quick research run for scripts (the page uses a
 * streaming server action). Session, the `research:run` role and the per-account run limit as the page has them. Waits
 * for the run and answers how it ended; `?wait=0` answers with its id at once (the run goes on; open `/research/<id>`).
 */
export async function POST(request: Request): Promise<Response> {
  const user = await guardRoute(request, "research:run");
  if (user instanceof Response) return user;
  try {
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
      throw new LecternError("bad_request:input", "The request body is too large.");
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new LecternError("bad_request:input", 'Send JSON: { "question": "…" }.');
    }
    const parsed = startResearchInputSchema.safeParse(body);
    if (!parsed.success) {
      throw new LecternError("bad_request:query", parsed.error.issues[0]?.message ?? "That question cannot be asked.");
    }
    await consumeRateLimit(
      await getDb(),
      `research:${user.id}`,
      RATE_LIMITS.research,
      "You have started many research runs in the last few minutes.",
    );
    const { question, web } = parsed.data;
    const runner: Runner = (deps, q, hooks) => runResearch(deps, q, hooks, { web });
    const run = startRun(await getResearchDeps(), question, { ownerId: user.id, runner });
    const headers = { "Cache-Control": "no-store" };
    if (new URL(request.url).searchParams.get("wait") === "0") {
      return Response.json({ ok: true, data: { run_id: run.runId } satisfies StartedRunResponse }, { headers });
    }
    const data: StartedRunResponse = { run_id: run.runId };
    for await (const e of run.events) {
      if (e.kind === "answer") data.citations = e.citations.length;
      if (e.kind === "run_finished") {
        data.status = e.status;
        data.duration_ms = e.durationMs;
        if (e.error) data.error = e.error;
      }
    }
    return Response.json({ ok: true, data }, { headers });
  } catch (e) {
    return errorResponse(e);
  }
}
