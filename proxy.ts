import { type NextRequest, NextResponse } from "next/server";

/**
 * Security headers for every page, with a Content-Security-Policy whose script nonce is new on every request, as
 * Next documents it (node_modules/next/dist/docs/01-app/02-guides/content-security-policy.md): Next reads the nonce
 * from the request's CSP header and puts it on its own scripts; `'strict-dynamic'` lets those load the app's chunks
 * (and pdf.js its worker); an injected `<script>` has no nonce and does not run. Pages must render per request for
 * that (the root layout reads the request's headers, which makes every page dynamic).
 *
 * - styles: `'unsafe-inline'` — React, Radix and next-themes set inline styles; a style nonce would disable it;
 * - images: the app's own, and `data:`/`blob:` (pdf.js) — nothing remote, so no markdown or paper can plant a beacon;
 * - connections: the app only; workers: the app's and `blob:` (the pdf.js worker);
 * - no plugins, no `<base>`, forms post only to the app, and no other site may frame a page (clickjacking);
 * - dev (`next dev`) adds `'unsafe-eval'`, which React uses there for its error overlays (not in production).
 *
 * The paths left out: route handlers under /api (JSON, NDJSON and PDFs, not pages — and a proxy would make Next buffer
 * their request bodies, uploads included: experimental.proxyClientMaxBodySize), static files, and prefetches (no
 * document). The headers that need no nonce are set for every path, pages included, in next.config.ts.
 */

export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Share pages (`/s/<token>`) send no referrer at all: a link followed from a shared answer must not carry the share's
 * secret address to another site. Other pages send only their origin to other sites.
 */
export function referrerPolicy(pathname: string): string {
  return pathname === "/s" || pathname.startsWith("/s/") ? "no-referrer" : "strict-origin-when-cross-origin";
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  response.headers.set("referrer-policy", referrerPolicy(request.nextUrl.pathname));
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static/|_next/image|favicon\\.ico$|icon\\.svg$|og-image\\.png$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
