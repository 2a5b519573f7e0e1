import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { escapeMarkdown, neutralizeMarkdownHtml } from "./markdown";

const BEACON = "![x](http://127.0.0.1:9/beacon.gif)";
const PHISH = "[login](https://evil.example)";

describe("escapeMarkdown", () => {
  it("escapes what opens links, images, HTML, code and emphasis, on one line", () => {
    expect(escapeMarkdown(`A ${BEACON} and ${PHISH}`)).toBe(
      "A \\!\\[x\\](http://127.0.0.1:9/beacon.gif) and \\[login\\](https://evil.example)",
    );
    expect(escapeMarkdown("<img src=x onerror=alert(1)> & `code` *em* _u_ a|b ~s~")).toBe(
      "\\<img src=x onerror=alert(1)\\> \\& \\`code\\` \\*em\\* \\_u\\_ a\\|b \\~s\\~",
    );
    // a line break could start a link definition or a block
    expect(escapeMarkdown("Title\n[x]: http://evil.example\n# h")).toBe("Title \\[x\\]: http://evil.example # h");
  });

  it("escapes a backslash, so text cannot undo the escape after it", () => {
    expect(escapeMarkdown("\\[a](b)")).toBe("\\\\\\[a\\](b)");
  });

  it("leaves ordinary prose as it is", () => {
    const s = "Scaling the dot products by 1/√d (Vaswani et al., 2017) keeps gradients healthy: 28.4 BLEU.";
    expect(escapeMarkdown(s)).toBe(s);
  });
});

describe("neutralizeMarkdownHtml", () => {
  it("turns raw HTML, autolinks and images into text", () => {
    expect(neutralizeMarkdownHtml(`Hi <img src="http://x/b.gif"> <https://x.org> ${BEACON} ![r][ref]`)).toBe(
      'Hi &lt;img src="http://x/b.gif"> &lt;https://x.org> !\\[x](http://127.0.0.1:9/beacon.gif) !\\[r][ref]',
    );
  });

  it("keeps ordinary markdown, links and citations as written", () => {
    const md = `## Answer\n\nScaling helps [1706.03762v5, page 4]. See ${PHISH}.\n\n- a **b** | c`;
    expect(neutralizeMarkdownHtml(md)).toBe(md);
  });

  it("leaves code as written: fenced blocks and code spans", () => {
    const md = "Use `<b>` or ``a`<i>`b``:\n\n```html\n<img src=x>\n```\n\n~~~\n<p>\n~~~\nthen <b>";
    expect(neutralizeMarkdownHtml(md)).toBe(
      "Use `<b>` or ``a`<i>`b``:\n\n```html\n<img src=x>\n```\n\n~~~\n<p>\n~~~\nthen &lt;b>",
    );
  });

  it("is not fooled by what only looks like code", () => {
    // an escaped backtick opens no code span
    expect(neutralizeMarkdownHtml("\\`<img src=x>`")).toBe("\\`&lt;img src=x>`");
    // a backtick fence whose info string holds a backtick is no fence
    expect(neutralizeMarkdownHtml("``` a`b\n<img src=x>")).toBe("``` a`b\n&lt;img src=x>");
    // an indented fence may belong to a list item that ends before its closing fence
    expect(neutralizeMarkdownHtml("- item\n  ```\n  code\n<img src=x>")).toBe("- item\n  ```\n  code\n&lt;img src=x>");
  });
});

interface Node {
  type: string;
  children?: Node[];
  position?: { start: { offset?: number } };
}

/**
 * The node types a CommonMark + GFM parser (the one react-markdown uses) reads in `markdown`. A bare URL GFM links by
 * itself is `literal-autolink`: no escape reaches those (the renderer keeps them as text).
 */
function nodeTypes(markdown: string): Set<string> {
  const types = new Set<string>();
  const walk = (node: Node) => {
    const at = node.position?.start.offset;
    const literal = node.type === "link" && (at === undefined || !"[<".includes(markdown[at] ?? ""));
    types.add(literal ? "literal-autolink" : node.type);
    for (const c of node.children ?? []) walk(c);
  };
  walk(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as Node);
  return types;
}

describe("as a markdown parser reads them", () => {
  const hostile = [
    BEACON,
    PHISH,
    '<img src="http://127.0.0.1:9/beacon.gif">',
    "<https://evil.example>",
    "[x]: http://evil.example\n\n![y][x]",
    "\\`<img src=x>`",
    "``` a`b\n<img src=x>",
    "- item\n  ```\n  code\n<img src=x>",
    "> quote <b>x</b>\n> ![q](http://x/q.png)",
    "| a | b |\n|---|---|\n| <i>c</i> | ![t](http://x/t.png) |",
    "<!-- comment --> <?php x ?> <![CDATA[x]]>",
    "line \\\n<div>\n\n</div>",
  ];

  it("escaped text has no link, image or HTML", () => {
    for (const text of hostile) {
      const types = nodeTypes(`## ${escapeMarkdown(text)}\n\n- ${escapeMarkdown(text)} [2401.01234v2, page 1]`);
      for (const t of ["link", "linkReference", "image", "imageReference", "html", "definition"]) {
        expect(types.has(t), `${t} in ${JSON.stringify(text)}`).toBe(false);
      }
    }
  });

  it("neutralized markdown has no image or HTML", () => {
    for (const md of hostile) {
      const types = nodeTypes(neutralizeMarkdownHtml(md));
      for (const t of ["image", "imageReference", "html"]) {
        expect(types.has(t), `${t} in ${JSON.stringify(md)}`).toBe(false);
      }
    }
  });
});
