import { guardRoute } from "@/app/access";
import { decodeSegment } from "@/app/route-params";
import { getDb } from "@/db";
import { getRun } from "@/db/queries/research";
import { isLecternError, userMessage } from "@/lib/errors";
import { exportBibtex, exportMarkdown } from "@/lib/research/export";
import { runIdSchema } from "../../schema";
import { exportFileName } from "./file-name";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

const FORMATS = {
  md: { type: "text/markdown; charset=utf-8", extension: "md" },
  bibtex: { type: "application/x-bibtex; charset=utf-8", extension: "bib" },
} as const;

function textResponse(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * A finished run as a download: `?format=md` (the answer and references, citations intact) or `?format=bibtex` (the
 * cited papers). A run that ended without an answer (interrupted, say) exports the sources it found. 404 for an unknown
 * run, 409 while it is still running or when it has nothing to export.
 */
export async function GET(request: Request, ctx: Context): Promise<Response> {
  const user = await guardRoute(request, "research:read");
  if (user instanceof Response) return user;
  const format = new URL(request.url).searchParams.get("format") ?? "md";
  if (format !== "md" && format !== "bibtex") return textResponse(400, "The format is md or bibtex.");
  const id = runIdSchema.safeParse(decodeSegment((await ctx.params).id));
  if (!id.success) return textResponse(404, "No such research run.");
  try {
    const run = await getRun(await getDb(), id.data);
    if (!run) return textResponse(404, "No such research run.");
    if (run.ownerId !== user.id) return textResponse(403, "This research run is private to the person who asked it.");
    if (run.status === "running") {
      return textResponse(409, "That run is still going; export it when it has finished.");
    }
    const cited = run.answer.trim() !== "" || run.references.length > 0;
    const body = format === "md" ? exportMarkdown(run) : cited ? `${exportBibtex(run.references)}\n` : null;
    if (body === null) return textResponse(409, "That run has nothing to export (no answer, and nothing found).");
    const { type, extension } = FORMATS[format];
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": type,
        "Content-Disposition": `attachment; filename="${exportFileName(run.question, run.runId, extension)}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (e) {
    if (!isLecternError(e)) console.error("[export]", e);
    return textResponse(isLecternError(e) ? e.status : 500, userMessage(e));
  }
}
