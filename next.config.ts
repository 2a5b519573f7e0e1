import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These packages load workers / wasm bundles from their own folders at run time; bundling breaks that.
  serverExternalPackages: ["pdf-parse", "@electric-sql/pglite", "@electric-sql/pglite-pgvector", "pg"],
  experimental: {
    serverActions: { bodySizeLimit: "110mb" },
  },
};

export default nextConfig;
