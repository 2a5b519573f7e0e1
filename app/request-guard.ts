/**
 * Cross-site request refusal for route handlers, the check Next.js makes for server actions (an `Origin` whose host
 * is not the request's `x-forwarded-host` or `Host` is refused) — route handlers get no such check of their own, so a
 * page on another site could otherwise POST a form (a PDF upload, say) to one, and the browser would send it.
 *
 * What is refused, for every method but GET, HEAD and OPTIONS (which change nothing):
 * - an `Origin` whose host differs from the request's host (another site, or another port on this one), or `null`
 *   (a sandboxed frame, a file:// page);
 * - `Sec-Fetch-Site` other than `same-origin` (or `none`, a user's own navigation): `same-site` is refused too, since
 *   a site ignores the port and an app on another port of 127.0.0.1 is "same-site";
 * - a browser's request without `Origin`: every current browser sends `Origin` on a POST, so `Sec-Fetch-Site`
 *   (sent by the same browsers) without it is not a request to trust.
 *
 * A request with neither header is let through, as Next lets a server action through: it comes from a script or a
 * CLI (`curl -F files=@paper.pdf …`), not from a browser, so it carries no credentials the user did not hand it —
 * there is no victim's browser to borrow, which is what a cross-site request needs.
 */

/** Methods that change nothing, and that a cross-site page may request (as it may link to a page). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The host the request was sent to, as Next compares it for server actions: the proxy's forwarded host first. */
function requestHost(request: Request): string | null {
  const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (forwarded) return forwarded;
  const host = request.headers.get("host");
  if (host) return host;
  try {
    return new URL(request.url).host;
  } catch {
    return null;
  }
}

function originHost(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function refused(message: string): Response {
  return Response.json(
    { ok: false, error: { code: "forbidden:origin", message } },
    { status: 403, headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * Null when the request may proceed; otherwise the 403 response to send. Call it first in every route handler that
 * changes something: `const refusal = checkSameOrigin(request); if (refusal) return refusal;`.
 */
export function checkSameOrigin(request: Request): Response | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site");
  const host = requestHost(request);

  if (origin !== null) {
    const from = originHost(origin);
    if (from === null || host === null || from !== host) {
      const shown = origin.length > 100 ? `${origin.slice(0, 100)}…` : origin;
      return refused(
        `Cross-site request refused: only Lectern's own pages may send this request (it came from ${shown}).`,
      );
    }
  } else if (fetchSite !== null) {
    return refused("Request refused: a browser sent it without an Origin header, so where it came from is unknown.");
  }
  if (fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none") {
    return refused(`Cross-site request refused: only Lectern's own pages may send this request (${fetchSite}).`);
  }
  return null;
}
