import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page, Request as PwRequest } from "@playwright/test";
import { makeTestPdf } from "../lib/testing/pdf";
import { expect, test } from "./fixtures";
import { DeepResearchPage } from "./pages/deep-research";
import { LibraryPage } from "./pages/library";
import { PaperPage } from "./pages/paper";
import { ResearchPage } from "./pages/research";
import { SearchPage } from "./pages/search";

/**
 * The attack suite, in a real browser against the production build: what another site's page can make the browser
 * do to Lectern, what a paper's own text can make every reader's browser do, and the headers every page carries.
 * The paper of this file holds the hostile text in its title and on its pages: a remote image (a beacon: a request to
 * 127.0.0.1:9 would tell that host who reads the paper) and a link to a phishing page.
 */

const PAPER_ID = "2403.05555v1";
const BEACON_HOST = "127.0.0.1:9";
const BEACON = `![x](http://${BEACON_HOST}/beacon.gif)`;
const PHISH = "[login](https://evil.example)";
const TITLE = `Tidal Harbour Sensing ${BEACON} ${PHISH}`;
const FILE_NAME = "security-e2e-tidal.pdf";
const PAGES = [
  [
    `arXiv:${PAPER_ID} [physics.ao-ph] 9 Mar 2024`,
    TITLE,
    "Mary Somerville",
    "Abstract",
    `Tidal harbour sensors measure the lunar drift of harbour water ${BEACON} across whole seasons.`,
  ].join("\n"),
  [
    "2 Results",
    `The tidal harbour sensors recorded lunar drift within two millimetres on every mooring ${BEACON} in the winter.`,
    `The tidal harbour sensors recorded lunar drift within three millimetres on every mooring ${PHISH} in the summer.`,
    "The tidal harbour sensors recorded lunar drift on every mooring as the protocol at https://evil.example/bare asks.",
  ].join("\n"),
];
const QUESTION = "What lunar drift did the tidal harbour sensors record on every mooring?";

test.use({
  library: { papers: [{ id: PAPER_ID, fileName: FILE_NAME, title: TITLE, author: "Mary Somerville", pages: PAGES }] },
});

/**
 * Everything a page's content policy refused, and every request for the beacon's host, from the page's first script
 * on: `securitypolicyviolation` events (collected in the page) and the console's CSP messages.
 */
async function watchPage(page: Page) {
  const violations: string[] = [];
  // reported from every document the page loads (an exposed function outlives navigations; a window variable not)
  await page.exposeFunction("__reportCspViolation", (line: string) => {
    violations.push(line);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCspViolation: (s: string) => void }).__reportCspViolation;
      report(`${location.pathname}: ${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  const beacon: string[] = [];
  const offsite: string[] = [];
  page.on("request", (r: PwRequest) => {
    const url = new URL(r.url());
    if (url.host === BEACON_HOST) beacon.push(r.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && !["data:", "blob:"].includes(url.protocol)) {
      offsite.push(r.url());
    }
  });
  return {
    /** CSP violations seen so far, on every page visited, in the page and on the console. */
    violations: async () => {
      // a violation is reported asynchronously: give the last one time to arrive
      await page.waitForTimeout(300);
      return [...violations];
    },
    beacon,
    offsite,
  };
}

/** A page on another site (another port of 127.0.0.1: "same-site" to the browser, which then sends the cookies). */
async function evilSite(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe("security", () => {
  test("every page carries the security headers, with a fresh script nonce, and no X-Powered-By", async ({ page }) => {
    const nonces = new Set<string>();
    for (const path of ["/", "/search", "/research", `/papers/${PAPER_ID}`, "/s/no-such-share"]) {
      const response = await page.goto(path);
      const headers = response?.headers() ?? {};
      const csp = headers["content-security-policy"] ?? "";
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce, `${path}: ${csp}`).toBeTruthy();
      nonces.add(nonce as string);
      for (const directive of [
        `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp, path).toContain(directive);
      }
      expect(csp).not.toContain("unsafe-eval");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe(
        path.startsWith("/s/") ? "no-referrer" : "strict-origin-when-cross-origin",
      );
      expect(headers["permissions-policy"]).toContain("camera=()");
      expect(headers["permissions-policy"]).toContain("microphone=()");
      expect(headers["permissions-policy"]).toContain("geolocation=()");
      expect(headers["x-powered-by"]).toBeUndefined();
      // Next put the nonce on its own scripts
      if (!path.startsWith("/s/")) {
        expect(await page.locator(`script[nonce]`).count(), path).toBeGreaterThan(0);
      }
    }
    expect(nonces.size).toBe(5);
    const api = await page.request.get("/api/papers");
    expect(api.headers()["x-content-type-options"]).toBe("nosniff");
    expect(api.headers()["x-powered-by"]).toBeUndefined();
  });

  test("library, search, research and the PDF viewer work under the policy: no violation, nothing loaded offsite", async ({
    page,
  }) => {
    const watch = await watchPage(page);

    const library = new LibraryPage(page);
    await library.goto();
    await expect(library.row(PAPER_ID)).toBeVisible();

    const search = new SearchPage(page);
    await search.goto();
    await search.search("lunar drift mooring");
    await expect(search.group(PAPER_ID)).toBeVisible();

    const research = new ResearchPage(page);
    await research.goto();
    await research.ask(QUESTION);
    await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await expect(research.answer).toContainText("lunar drift");
    // a citation opens its page in the sheet (pdf.js in the research page)
    await research.citationChips(PAPER_ID).first().click();
    await expect(research.sheet.locator('[data-testid="pdf-page"] canvas').first()).toBeVisible({ timeout: 30_000 });
    await page.keyboard.press("Escape");

    // deep research: the planner asks its clarifying questions
    const deep = new DeepResearchPage(page);
    await deep.goto();
    await deep.chooseDeep();
    await deep.plan("How do tidal harbour sensors track lunar drift across seasons?");
    await expect(deep.planner).toBeVisible({ timeout: 30_000 });

    const paper = new PaperPage(page);
    await paper.goto(PAPER_ID, { page: 2 });
    await expect(paper.pdfPage(2).locator("canvas")).toBeVisible({ timeout: 30_000 });
    await expect(paper.pdfPage(2).locator(".textLayer")).toContainText("lunar drift");

    expect(await watch.violations()).toEqual([]);
    expect(watch.offsite).toEqual([]);
  });

  test("the sign-in page works under the policy, signed out", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, storageState: undefined });
    try {
      const page = await context.newPage();
      const watch = await watchPage(page);
      await page.goto("/research");
      await expect(page).toHaveURL(/\/sign-in/);
      await page.getByLabel("Email").fill("nobody@e2e.example");
      await page.getByLabel("Password").fill("not the password at all");
      await page.getByTestId("auth-submit").click();
      await expect(page.getByTestId("auth-error")).toBeVisible();
      expect(await watch.violations()).toEqual([]);
      expect(watch.offsite).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a paper's remote image and link stay text: in the summary, the answer and its references", async ({ page }) => {
    const watch = await watchPage(page);

    // the summary (extractive: the paper's own sentences) shows the markdown as written
    const paper = new PaperPage(page);
    await paper.goto(PAPER_ID);
    const summary = page.getByTestId("paper-summary");
    await expect(summary).toContainText(BEACON);
    await expect(paper.title).toContainText(PHISH);
    await expect(summary.locator("img")).toHaveCount(0);
    await expect(page.locator(`img[src*="${BEACON_HOST}"]`)).toHaveCount(0);
    await expect(page.locator('a[href*="evil.example"]')).toHaveCount(0);

    // the offline answer quotes those sentences, as text
    const research = new ResearchPage(page);
    await research.goto();
    await research.ask(QUESTION);
    await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await expect(research.answer).toContainText(BEACON);
    await expect(research.answer).toContainText(PHISH);
    await expect(research.answer.locator("img")).toHaveCount(0);
    await expect(research.answer.locator("a")).toHaveCount(0);
    await expect(research.references.first()).toContainText("Tidal Harbour Sensing");
    await expect(page.locator(`img[src*="${BEACON_HOST}"]`)).toHaveCount(0);
    await expect(page.locator('a[href*="evil.example"]')).toHaveCount(0);
    // nothing was requested from the beacon's host, by any page
    expect(watch.beacon).toEqual([]);
    expect(await watch.violations()).toEqual([]);
  });

  test("another site's form cannot upload a PDF that replaces a paper (cross-site POST refused)", async ({ page }) => {
    const baseURL = test.info().project.use.baseURL as string;
    const forged = await makeTestPdf({
      pages: [`arXiv:${PAPER_ID} [physics.ao-ph] 9 Mar 2024\nForged Replacement Paper\nMallory\nAbstract\nForged.`],
      title: "Forged Replacement Paper",
      author: "Mallory",
    });
    const evil = await evilSite(`<!doctype html><title>Free PDFs</title>
      <form id="f" method="post" action="${baseURL}/api/ingest" enctype="multipart/form-data">
        <input type="file" name="files" id="file">
        <button id="go">Download</button>
      </form>
      <script>
        window.sendByFetch = (bytes) => {
          const form = new FormData();
          form.append("files", new File([new Uint8Array(bytes)], "${PAPER_ID}.pdf", { type: "application/pdf" }));
          return fetch("${baseURL}/api/ingest", { method: "POST", body: form, mode: "no-cors", credentials: "include" })
            .then(() => "sent", (e) => String(e));
        };
      </script>`);
    try {
      await page.goto(evil.url);
      // 1. the classic: a form post (a top-level navigation, with the browser's cookies)
      await page.setInputFiles("#file", {
        name: `${PAPER_ID}.pdf`,
        mimeType: "application/pdf",
        buffer: Buffer.from(forged),
      });
      const formPost = page.waitForResponse((r) => r.url().endsWith("/api/ingest"));
      await page.click("#go");
      const refused = await formPost;
      expect(refused.status()).toBe(403);
      expect((await refused.request().allHeaders()).origin).toBe(evil.url.replace(/\/$/, ""));
      expect(await refused.text()).toContain("Cross-site request refused");

      // 2. the same by fetch (no-cors: the page cannot read the answer, but the request would still be sent)
      await page.goto(evil.url);
      const fetchPost = page.waitForResponse((r) => r.url().endsWith("/api/ingest"));
      expect(
        await page.evaluate(
          (bytes) => (window as unknown as { sendByFetch: (b: number[]) => Promise<string> }).sendByFetch(bytes),
          Array.from(forged),
        ),
      ).toBe("sent");
      expect((await fetchPost).status()).toBe(403);
    } finally {
      await evil.close();
    }

    // the paper is as it was
    const paper = new PaperPage(page);
    await paper.goto(PAPER_ID);
    await expect(paper.title).toContainText("Tidal Harbour Sensing");
    await expect(page.getByText("Forged Replacement Paper")).toHaveCount(0);
  });

  test("a form with a password cannot send it in an address before the page's scripts run", async ({ browser }) => {
    // no scripts at all: what a slow connection shows before hydration
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: { cookies: [], origins: [] } });
    try {
      const page = await context.newPage();
      await page.goto("/sign-in");
      const submit = page.getByTestId("auth-submit");
      await expect(submit).toBeDisabled();
      await expect(page.locator("form").filter({ has: submit })).toHaveAttribute("method", "post");
      await page.getByLabel("Email").fill("owner@e2e.example");
      await page.getByLabel("Password").fill("typed before the scripts ran");
      await page.getByLabel("Password").press("Enter");
      await expect(page).toHaveURL(/\/sign-in$/);
    } finally {
      await context.close();
    }
  });

  test("malformed ids in addresses are a 400 or 404, not a server error", async ({ page }) => {
    const pdf = await page.request.get("/api/papers/%25/pdf");
    expect(pdf.status()).toBe(400);
    const exported = await page.request.get("/research/%25/export");
    expect(exported.status()).toBe(404);
  });
});
