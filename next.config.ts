import { createRequire } from "node:module";
import path from "node:path";
import type { NextConfig } from "next";

// An empty OPENAI_BASE_URL (e.g. `OPENAI_BASE_URL=` in .env, or exported empty to keep a .env value out) makes
// @ai-sdk/openai throw when it is imported. Empty means unset for Lectern (lib/env.ts), so drop such variables here,
// before Next.js starts its build and render workers (they inherit this environment).
for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY"]) {
  if (process.env[key]?.trim() === "") delete process.env[key];
}

/**
 * The container build (Dockerfile) sets LECTERN_BUILD_STANDALONE=1 for Next's standalone output: `.next/standalone`
 * with a `server.js` and only the node_modules files the build traced. Other builds leave it off: `next start` warns
 * that it "does not work with output: standalone" (it does serve, but the warning would mislead), and `npm run app`
 * and the e2e build have no use for the copy.
 */
const standalone = process.env.LECTERN_BUILD_STANDALONE === "1";

/**
 * Files read at run time that tracing cannot see: pdf.js (pdf-parse's own copy) loads its worker by a computed
 * import, so the standalone output lacks it and every PDF fails with "The PDF reader failed to start"; the extraction
 * threads' script (lib/ingest/extract-pool.ts), the BibTeX reader's (lib/sources/bibtex-reader.ts) and the embedded
 * database's thread script (db/pglite-thread.ts) are started from disk by path.
 */
function standaloneIncludes(): string[] {
  const fromProject = createRequire(path.join(process.cwd(), "package.json"));
  const fromPdfParse = createRequire(fromProject.resolve("pdf-parse"));
  return [
    path.relative(process.cwd(), fromPdfParse.resolve("pdfjs-dist/legacy/build/pdf.worker.mjs")),
    "lib/ingest/pdf-read.mjs",
    "lib/sources/bibtex-read.mjs",
    "db/pglite-host.mjs",
  ];
}

const nextConfig: NextConfig = {
  ...(standalone ? { output: "standalone", outputFileTracingIncludes: { "/*": standaloneIncludes() } } : {}),
  // No gzip: research events stream from a server action, and a gzip stream holds each flushed event until a later
  // turn of the event loop — which an embedded PGlite search held for 150–200 ms while the database ran in the server's
  // thread (it has a thread of its own now; the search's own work still runs here). Measured with
  // `npm run bench:research-browser`: first step card p50 325 ms with compression, 124 ms without (PGlite). The app is
  // served locally; behind a reverse proxy, let the proxy compress.
  compress: false,
  // These packages load workers / wasm bundles from their own folders at run time; bundling breaks that. The BibTeX
  // parser is imported from disk by its thread's script (lib/sources/bibtex-read.mjs): left external, the build traces
  // it into the standalone output's node_modules.
  serverExternalPackages: [
    "pdf-parse",
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "pg",
    "pg-boss",
    "@retorquere/bibtex-parser",
  ],
  // No `X-Powered-By: Next.js`: it tells a scanner which exploits to try, and nothing else needs it.
  poweredByHeader: false,
  // `npm test` type-checks the whole project (`tsc --noEmit`) before it builds for the e2e suite, so that build
  // (scripts/e2e-server.sh) skips Next's second check of the same code. Every other build checks types.
  typescript: { ignoreBuildErrors: process.env.LECTERN_BUILD_SKIP_TYPECHECK === "1" },
  // Server actions take questions, outlines and edits (a few KB); files go to /api/ingest, which streams them to disk.
  // Next buffers an action's whole body before the action runs, so its limit stays Next's default.
  experimental: {
    serverActions: { bodySizeLimit: "1mb" },
    // A build in a fresh CI checkout has no cache to reuse, and writing one costs it 10–20 s on 2 cores
    // (scripts/e2e-server.sh sets this in CI only: local rebuilds keep their cache).
    ...(process.env.LECTERN_BUILD_NO_CACHE === "1" ? { turbopackFileSystemCacheForBuild: false } : {}),
  },
  // The headers that need no nonce, on every response (pages, route handlers, static files). The CSP, with its
  // per-request nonce, and the Referrer-Policy (no-referrer on share pages) come from proxy.ts, for pages.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "x-content-type-options", value: "nosniff" },
          {
            key: "permissions-policy",
            value:
              "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=(), " +
              "midi=(), magnetometer=(), gyroscope=(), accelerometer=(), display-capture=(), browsing-topics=()",
          },
          // legacy browsers' frame-ancestors 'none'
          { key: "x-frame-options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
