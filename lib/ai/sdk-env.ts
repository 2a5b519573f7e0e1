/**
 * Imported (for its effect) before `@ai-sdk/openai`, whose module creates a default provider when it is loaded and
 * throws if OPENAI_BASE_URL is set but empty ("baseURL must be a non-empty string") — which took down every command,
 * though Lectern's own configuration (lib/env.ts) treats an empty value as unset, as `OPENAI_BASE_URL=` in a .env file
 * means. An empty value is removed here, so the SDK sees it unset too. The one write to process.env, and why.
 */
for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY"] as const) {
  if (process.env[key]?.trim() === "") delete process.env[key];
}
