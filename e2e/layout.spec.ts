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

/** On a phone's width the People page's accounts are cards, not a table that scrolls sideways with its buttons off screen. */
test.describe("people on a phone", () => {
  for (const width of [390, 360]) {
    test(`every account's controls are on a ${width}-pixel screen, and nothing scrolls sideways`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/people");
      const rows = page.getByTestId("person-row");
      await expect(rows.first()).toBeVisible();
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)).toBeLessThanOrEqual(width);
      const list = await page.getByTestId("people-list").boundingBox();
      for (const row of await rows.all()) {
        for (const control of [
          row.getByTestId("person-role"),
          row.getByTestId("person-reset-password"),
          row.getByTestId("person-remove"),
        ]) {
          const box = await control.boundingBox();
          expect(box, (await control.getAttribute("aria-label")) ?? "").not.toBeNull();
          expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual((list?.x ?? 0) + (list?.width ?? 0));
          expect(box?.height ?? 0).toBeGreaterThanOrEqual(40);
        }
      }
      // the email, which the hidden email column would have shown, is in the card
      await expect(rows.first()).toContainText("@");
    });
  }
});
