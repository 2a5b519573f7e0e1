import { describe, expect, it } from "vitest";
import { extractHtml, READABILITY_MAX_DEPTH, READABILITY_MAX_ELEMENTS, SCAN_MAX_DEPTH, scanHtml } from "./extract";

const URL_ = "https://pages.example/article";
const page = (body: string) => `<!doctype html><html><head><title>A page</title></head><body>${body}</body></html>`;

/** Milliseconds `fn` took. */
function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

describe("scanHtml", () => {
  it("counts elements and nesting as the parser builds them (void elements and implied closes included)", () => {
    const scan = scanHtml(page("<div><p>one<p>two<br><img src=x></div><ul><li>a<li>b</ul>"));
    // html, head, title, body, div, p, p, br, img, ul, li, li
    expect(scan.elements).toBe(12);
    // html > body > div > p > br (the second <p> closes the first; br and img close at once)
    expect(scan.depth).toBe(5);
    expect(scan.truncated).toBe(false);
    expect(scan.title).toBe("A page");
    expect(scan.paragraphs).toEqual(["one", "two", "a", "b"]);
  });

  it("leaves out scripts, styles and the elements asked, and reads a page without blocks as one paragraph", () => {
    const scan = scanHtml(page("<nav>Home · About</nav><script>var x = 1</script><main>Just text &amp; more</main>"), {
      skip: new Set(["nav"]),
    });
    expect(scan.paragraphs).toEqual(["Just text & more"]);
  });

  it("stops at its depth limit, keeping what it read", () => {
    const scan = scanHtml(page(`<p>Before the pit.</p>${"<b>".repeat(SCAN_MAX_DEPTH * 4)}never read`));
    expect(scan.truncated).toBe(true);
    expect(scan.depth).toBe(SCAN_MAX_DEPTH + 1);
    expect(scan.paragraphs).toEqual(["Before the pit."]);
  });
});

describe("extractHtml on hostile pages (the server's thread must not be held)", () => {
  const article = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i} of the article, long enough to be read as prose by anyone, with a comma, and more.</p>`,
  ).join("");

  it("2,000 nested <div>s (21 KB; Readability alone took two minutes): the text before them, quickly", () => {
    const html = page(`${article}${"<div>".repeat(2000)}A pit.${"</div>".repeat(2000)}`);
    const { value, ms } = timed(() => extractHtml(html, URL_));
    expect(value.text.split("\n\n")).toHaveLength(6);
    expect(value.text).toContain("Paragraph 5 of the article");
    expect(ms).toBeLessThan(3000);
  });

  it("an article inside 500 nested <div>s: deeper than Readability is given, read from the scan", () => {
    const html = page(`${"<div>".repeat(500)}${article}${"</div>".repeat(500)}`);
    const scan = scanHtml(html);
    expect(scan.depth).toBeGreaterThan(READABILITY_MAX_DEPTH);
    expect(scan.truncated).toBe(false);
    const { value, ms } = timed(() => extractHtml(html, URL_));
    expect(value.text.split("\n\n")).toHaveLength(6);
    expect(ms).toBeLessThan(3000);
  });

  it("2 MB of unclosed <b> (a stack overflow after minutes before): stops at the depth limit at once", () => {
    const html = page(`${article}${"<b>".repeat((2 * 1024 * 1024) / 3)}tail`);
    const { value, ms } = timed(() => extractHtml(html, URL_));
    expect(value.title).toBe("A page");
    expect(value.text).toContain("Paragraph 0 of the article");
    expect(value.text).not.toContain("tail");
    expect(ms).toBeLessThan(3000);
  });

  it("2 MB of flat elements (19 s through Readability): more elements than Readability is given, read from the scan", () => {
    const html = page(`${article}${"<div>x</div>".repeat((2 * 1024 * 1024) / 12)}`);
    const scan = scanHtml(html);
    expect(scan.elements).toBeGreaterThan(READABILITY_MAX_ELEMENTS);
    const { value, ms } = timed(() => extractHtml(html, URL_));
    expect(value.text).toContain("Paragraph 5 of the article");
    expect(ms).toBeLessThan(3000);
  });

  it("a page just under both limits still goes through Readability", () => {
    const nav = `<nav>${"<div>".repeat(READABILITY_MAX_DEPTH - 10)}Menu${"</div>".repeat(READABILITY_MAX_DEPTH - 10)}</nav>`;
    const html = page(
      `${nav}<article><h1>The article</h1>${article}</article><footer><p>Cookie settings.</p></footer>`,
    );
    const scan = scanHtml(html);
    expect(scan.depth).toBeLessThanOrEqual(READABILITY_MAX_DEPTH);
    const got = extractHtml(html, URL_);
    expect(got.text).toContain("Paragraph 0 of the article");
    expect(got.text).not.toMatch(/Menu|Cookie settings/);
  });
});
