import { searchFor } from "@/app/(search)/search/search-for";
import { guardRoute } from "@/app/access";
import { statusOfCode } from "@/lib/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/search?q=…&index=content|summaries&papers=id,id&yearFrom=&yearTo=&category=&refs=1` — the search page's
 * search for scripts: the `library:read` role and the per-account search limit, the same checks and results.
 */
export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, "library:read");
  if (user instanceof Response) return user;
  const p = new URL(request.url).searchParams;
  const num = (k: string) => (p.get(k) ? Number(p.get(k)) : undefined);
  const input = {
    q: p.get("q") ?? "",
    index: p.get("index") ?? "content",
    ...(p.get("papers") ? { papers: (p.get("papers") as string).split(",").filter(Boolean) } : {}),
    ...(num("yearFrom") !== undefined ? { yearFrom: num("yearFrom") } : {}),
    ...(num("yearTo") !== undefined ? { yearTo: num("yearTo") } : {}),
    ...(p.get("category") ? { category: p.get("category") } : {}),
    refs: p.get("refs") === "1",
  };
  const result = await searchFor(user, input);
  const status = result.ok ? 200 : statusOfCode(result.error.code);
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (!result.ok && result.error.code.startsWith("rate_limited")) headers["Retry-After"] = "60";
  return Response.json(result, { status, headers });
}
