import type { NextConfig } from "next";

// An empty OPENAI_BASE_URL (e.g. `OPENAI_BASE_URL=` in .env, or exported empty to keep a .env value out) makes
// @ai-sdk/openai throw when it is imported. Empty means unset for Lectern (lib/env.ts), so drop such variables here,
// before Next.js starts its build and render workers (they inherit this environment).
for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY"]) {
  if (process.env[key]?.trim() === "") delete process.env[key];
}

const nextConfig: NextConfig = {
  // These packages load workers / wasm bundles from their own folders at run time; bundling breaks that.
  serverExternalPackages: ["pdf-parse", "@electric-sql/pglite", "@electric-sql/pglite-pgvector", "pg"],
  experimental: {
    serverActions: { bodySizeLimit: "110mb" },
  },
};

export default nextConfig;
