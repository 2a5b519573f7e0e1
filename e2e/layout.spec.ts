import { expect, test } from "./fixtures";

/**
 * On a phone's width (320 CSS pixels, the narrowest in common use) no page is wider than the screen: the header's
 * sections scroll within it, tables scroll within their cards, long labels wrap.
 */
test.describe("layout", () => {
  test.use({ viewport: { width: 320, height: 700 } });

  for (const path of [
    "/",
    "/research",
    "/research/deep",
    "/search?q=attention",
    "/graph",
    "/graph/review",
    "/people",
  ]) {
    test(`${path} fits a 320-pixel screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator("#main")).toBeVisible();
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
        .toBe(0);
    });
  }
});
