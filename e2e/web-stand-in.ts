// The web as the e2e app sees it (started by playwright.config.ts's webServer): a SearXNG JSON API and a few pages,
// one of them disallowed by robots.txt. Usage: npx tsx e2e/web-stand-in.ts <port>
// Relative import: Playwright's webServer runs this outside the `@/` alias.
import { startWebStandIn } from "../lib/web/testing";

const port = Number(process.argv[2] ?? 3107);
const site = await startWebStandIn(port);
console.log(`[web-stand-in] ${site.url}`);
const stop = () => void site.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
