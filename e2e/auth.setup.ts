import { expect, test as setup } from "@playwright/test";
import { OWNER, OWNER_STATE } from "./fixtures";

/**
 * Signs in once for the whole suite, as a user would: the fresh instance's first visit asks for the owner account;
 * an instance that has one already (a server reused locally) gets the sign-in form instead. The signed-in state is
 * saved for every spec (playwright.config.ts: the `chromium` project's storageState).
 */
setup("create the owner account (or sign in) through the UI", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/(setup|sign-in)/);
  if (new URL(page.url()).pathname === "/setup") {
    await expect(page.getByRole("heading", { name: "Create the owner account" })).toBeVisible();
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByTestId("auth-submit").click();
  } else {
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByTestId("auth-submit").click();
  }
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await page.context().storageState({ path: OWNER_STATE });
});
