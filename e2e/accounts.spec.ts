import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PaperPage } from "./pages/paper";
import { ResearchPage } from "./pages/research";

/**
 * Accounts, roles and share links, as a lab would use them: the owner (signed in by the setup project) adds a member
 * and a viewer on the People page; the member's run is private to them; the member shares it; the link opens
 * read-only without an account, its citations opening the PDF page; revoking kills the link; a viewer reads but
 * neither uploads nor deletes.
 */
const PAPER_ID = "2403.05555v1";
const TITLE = "Tide Gauges Calibrated by Satellite Altimetry";
const SENTENCE = "Satellite calibration reduces the tide gauge drift to 0.4 millimetres per year.";
const SENTENCE_PAGE = 2;
const QUESTION = "How far does satellite calibration reduce the tide gauge drift?";
const MEMBER = { name: "Max Member", email: "member@e2e.example", password: "member password 123" };
const VIEWER = { name: "Vic Viewer", email: "viewer@e2e.example", password: "viewer password 123" };

test.use({
  library: {
    papers: [
      {
        id: PAPER_ID,
        fileName: "accounts-e2e-tide-gauges.pdf",
        title: TITLE,
        author: "Marie Tharp",
        pages: [
          [
            `arXiv:${PAPER_ID} [physics.ao-ph] 3 Mar 2024`,
            TITLE,
            "Marie Tharp",
            "Abstract",
            "We calibrate coastal tide gauges against satellite altimetry and measure the drift that remains.",
          ].join("\n"),
          ["2 Results", "Each gauge is compared with the altimetry crossing nearest to it.", SENTENCE].join("\n"),
        ],
      },
    ],
  },
});

/** A browser context of its own, without the owner's session, signed in as `who` (or as nobody). */
async function contextFor(browser: Browser, who: { email: string; password: string } | null): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  if (who) {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Password").fill(who.password);
    await page.getByTestId("auth-submit").click();
    await expect(page.getByTestId("user-menu")).toBeVisible();
  }
  return page;
}

async function addPerson(page: Page, person: { name: string; email: string; password: string }, role: string) {
  await page.getByTestId("add-person-email").fill(person.email);
  await page.getByTestId(`add-person-role-${role}`).check();
  await page.getByTestId("add-person-method-password").check();
  await page.getByTestId("add-person-name").fill(person.name);
  await page.getByTestId("add-person-password").fill(person.password);
  await page.getByTestId("add-person-submit").click();
  await expect(page.locator(`[data-testid="person-row"][data-email="${person.email}"]`)).toHaveAttribute(
    "data-role",
    role,
  );
}

test.describe
  .serial("accounts and sharing", () => {
    let runId = "";
    let shareUrl = "";

    test("a visitor without a session is sent to sign in, and a wrong password is refused", async ({ browser }) => {
      const page = await contextFor(browser, null);
      await page.goto("/research");
      await expect(page).toHaveURL(/\/sign-in\?next=%2Fresearch/);
      await expect(page.getByTestId("user-menu")).toHaveCount(0);
      await page.getByLabel("Email").fill("owner@e2e.example");
      await page.getByLabel("Password").fill("not the password");
      await page.getByTestId("auth-submit").click();
      await expect(page.getByTestId("auth-error")).toHaveText("That email and password do not match an account.");
      await page.context().close();
    });

    test("the owner adds a member and a viewer on the People page", async ({ page }) => {
      await page.goto("/");
      await page.getByTestId("user-menu").click();
      await page.getByTestId("nav-people").click();
      await expect(page.getByTestId("people-page")).toBeVisible();
      await addPerson(page, MEMBER, "member");
      await addPerson(page, VIEWER, "viewer");
      await expect(page.locator('[data-testid="audit-row"][data-action="person.added"]')).toHaveCount(3);
    });

    test("the member's run is theirs: not in the viewer's list, its address refused to the viewer", async ({
      browser,
    }) => {
      const member = await contextFor(browser, MEMBER);
      const research = new ResearchPage(member);
      await research.goto();
      await research.ask(QUESTION);
      await expect(member).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/);
      await expect(research.run).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
      await expect(research.citationChips(PAPER_ID, SENTENCE_PAGE).first()).toBeVisible();
      runId = new URL(member.url()).pathname.split("/").pop() ?? "";

      const viewer = await contextFor(browser, VIEWER);
      await viewer.goto("/research");
      await expect(viewer.getByTestId("research-viewer")).toBeVisible();
      await expect(viewer.getByTestId("research-question")).toHaveCount(0);
      await expect(viewer.getByTestId("recent-runs")).not.toContainText(QUESTION);
      await viewer.goto(`/research/${runId}`);
      await expect(viewer.getByTestId("run-private")).toBeVisible();
      await expect(viewer.getByText(QUESTION)).toHaveCount(0);
      // the export is refused too
      const exported = await viewer.request.get(`/research/${runId}/export?format=md`);
      expect(exported.status()).toBe(403);
      await member.context().close();
      await viewer.context().close();
    });

    test("the member shares the run; the link opens read-only without an account, citations open the PDF page", async ({
      browser,
    }) => {
      const member = await contextFor(browser, MEMBER);
      await member.goto(`/research/${runId}`);
      await member.getByTestId("research-share").click();
      await expect(member.getByTestId("share-dialog")).toBeVisible();
      await member.getByTestId("share-create").click();
      shareUrl = await member.getByTestId("share-url").inputValue();
      expect(shareUrl).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
      await expect(member.getByTestId("share-link")).toHaveCount(1);
      await member.context().close();

      const anonymous = await contextFor(browser, null);
      const response = await anonymous.goto(shareUrl);
      expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
      await expect(anonymous.getByTestId("shared-run")).toBeVisible();
      await expect(anonymous.getByTestId("research-run-question")).toHaveText(QUESTION);
      // a snapshot: no controls that change anything, no way into the library
      for (const id of ["research-cancel", "research-feedback", "research-share", "research-delete-run", "user-menu"]) {
        await expect(anonymous.getByTestId(id)).toHaveCount(0);
      }
      await expect(anonymous.getByTestId("nav-library")).toHaveCount(0);
      // the wordmark leads back to the shared run, not to the sign-in page
      await expect(anonymous.getByTestId("wordmark")).toHaveAttribute(
        "href",
        new URL(shareUrl, "http://localhost").pathname,
      );
      await expect(anonymous.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);

      const research = new ResearchPage(anonymous);
      await research.citationChips(PAPER_ID, SENTENCE_PAGE).first().click();
      await expect(research.sheet).toBeVisible();
      await research.sheet.getByTestId("citation-open-paper").click();
      await expect(anonymous).toHaveURL(new RegExp(`/s/[A-Za-z0-9_-]+/papers/${PAPER_ID}\\?page=${SENTENCE_PAGE}`));
      const paper = new PaperPage(anonymous);
      await expect(paper.viewer).toHaveAttribute("data-page", String(SENTENCE_PAGE));
      await expect(paper.highlights(SENTENCE_PAGE).first()).toBeVisible({ timeout: 30_000 });
      // the library itself stays closed to the link
      await anonymous.goto(`/papers/${PAPER_ID}`);
      await expect(anonymous).toHaveURL(/\/sign-in/);
      await anonymous.context().close();
    });

    test("revoking the link kills it at once", async ({ browser }) => {
      const member = await contextFor(browser, MEMBER);
      await member.goto(`/research/${runId}`);
      await member.getByTestId("research-share").click();
      await member.getByTestId("share-revoke").click();
      await member.getByTestId("share-revoke-confirm").click();
      await expect(member.getByTestId("share-link")).toHaveAttribute("data-state", "revoked");
      await member.context().close();

      const anonymous = await contextFor(browser, null);
      const response = await anonymous.goto(shareUrl);
      expect(response?.status()).toBe(404);
      await expect(anonymous.getByTestId("share-not-found")).toBeVisible();
      await anonymous.context().close();
    });

    test("a viewer reads the library but cannot upload or delete, in the page or by request", async ({ browser }) => {
      const viewer = await contextFor(browser, VIEWER);
      await viewer.goto("/");
      await expect(viewer.getByTestId("paper-title-link").filter({ hasText: TITLE })).toBeVisible();
      await expect(viewer.getByTestId("drop-zone")).toHaveCount(0);
      await expect(viewer.getByTestId("delete-paper-button")).toHaveCount(0);
      const upload = await viewer.request.post("/api/ingest", {
        multipart: { files: { name: "x.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 x") } },
        headers: { origin: new URL(viewer.url()).origin },
      });
      expect(upload.status()).toBe(403);
      expect((await upload.json()).error.code).toBe("forbidden:role");
      await viewer.goto("/people");
      await expect(viewer.getByTestId("people-forbidden")).toBeVisible();
      await viewer.context().close();
    });

    test("a viewer replaying the owner's server action by its id is refused, and so is a 1 MB argument", async ({
      page,
      browser,
    }) => {
      // the owner's own request to the metadata action, captured (and stopped) on its way out
      await page.goto(`/papers/${PAPER_ID}`);
      await page.getByTestId("metadata-edit").click();
      let captured: { url: string; headers: Record<string, string>; body: string } | null = null;
      await page.route("**/*", async (route) => {
        const request = route.request();
        const action = request.headers()["next-action"];
        if (request.method() === "POST" && action) {
          captured = { url: request.url(), headers: request.headers(), body: request.postData() ?? "" };
          return route.abort();
        }
        return route.continue();
      });
      await page.getByLabel("Title").fill("Renamed by whoever replays this");
      await page.getByTestId("metadata-save").click();
      await expect.poll(() => captured).not.toBeNull();
      await page.unroute("**/*");
      const { url, headers, body } = captured as unknown as {
        url: string;
        headers: Record<string, string>;
        body: string;
      };
      const replayHeaders = {
        "next-action": headers["next-action"] ?? "",
        "content-type": headers["content-type"] ?? "text/plain;charset=UTF-8",
        accept: "text/x-component",
        origin: new URL(url).origin,
      };

      const viewer = await contextFor(browser, VIEWER);
      const replay = await viewer.request.post(url, { headers: replayHeaders, data: body });
      expect(await replay.text()).toContain("forbidden:role");
      // a 1 MB argument from a signed-in member: refused before the action reads it (Next's body limit), no crash
      const member = await contextFor(browser, MEMBER);
      const huge = body.replace("Renamed by whoever replays this", "x".repeat(1_100_000));
      const big = await member.request.post(url, { headers: replayHeaders, data: huge });
      expect(big.status()).toBeGreaterThanOrEqual(400);
      expect(await big.text()).not.toMatch(/at .+\.js:\d+/);
      // nothing changed, and the server still answers
      await page.goto(`/papers/${PAPER_ID}`);
      await expect(page.getByTestId("paper-title")).toHaveText(TITLE);
      await viewer.context().close();
      await member.context().close();
    });
  });
