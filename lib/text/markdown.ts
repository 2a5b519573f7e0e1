/**
 * Untrusted text in markdown. Paper text (titles, quoted sentences, excerpts) and what a user typed are inserted into
 * the markdown Lectern writes — the offline answer, the references, a deep review's introduction, an export — and
 * must stay text there: a title holding `![x](http://host/beacon.gif)` must not make every reader load that image,
 * nor `[login](https://evil.example)` become a link, nor `<img …>` become HTML.
 *
 * Bare URLs (`https://…`, `www.…`) are the renderer's to keep as text (GFM finds them in text nodes after parsing,
 * where no escape reaches): components/markdown/untrusted-links.tsx.
 */

/**
 * `text` as markdown that renders as exactly that text, on one line: the characters that open links, images, HTML,
 * code and emphasis are backslash-escaped (CommonMark: any ASCII punctuation may be), and runs of white space become
 * one space (a line break could start a block, such as a link definition, a list or a heading).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\`*_[\]<>&!|~]/g, "\\$&");
}

/**
 * A fenced code block's opening fence at the start of a line (three or more backticks, no backtick in the info
 * string; or tildes). Only unindented fences count: an indented one may belong to a list item, whose end also ends
 * the block — a scanner that missed that would leave the HTML after it alone.
 */
const FENCE_OPEN = /^(`{3,})[^`]*$|^(~{3,})/;
/** A closing fence: indented up to three spaces, then only white space after it. */
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})\s*$/;

/**
 * An inline code span on one line: a backtick run not escaped by a backslash (CommonMark: `\``` is a literal
 * backtick), then anything up to a run of the same length.
 */
const CODE_SPAN = /(?<!\\)(?:\\\\)*(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;

/**
 * Markdown from a model or a stored answer, made safe to hand to any markdown viewer (an export): raw HTML and
 * autolinks (`<…>`) become text (`<` as `&lt;`), and images become their text (`![` as `!\[`), so opening the file
 * loads nothing from anywhere. Fenced code blocks and code spans, which show their content as written, are left
 * alone; where it is unsure, it escapes (a code span over several lines then shows `&lt;`).
 */
export function neutralizeMarkdownHtml(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split("\n")
    .map((line) => {
      if (fence !== null) {
        const close = FENCE_CLOSE.exec(line)?.[1];
        if (close && close[0] === fence[0] && close.length >= fence.length) fence = null;
        return line;
      }
      const open = FENCE_OPEN.exec(line);
      if (open) {
        fence = (open[1] ?? open[2]) as string;
        return line;
      }
      let out = "";
      let pos = 0;
      for (const m of line.matchAll(CODE_SPAN)) {
        const tick = m.index + m[0].indexOf("`");
        out += neutralizeText(line.slice(pos, tick)) + line.slice(tick, m.index + m[0].length);
        pos = m.index + m[0].length;
      }
      return out + neutralizeText(line.slice(pos));
    })
    .join("\n");
}

function neutralizeText(text: string): string {
  return text.replace(/</g, "&lt;").replace(/!\[/g, "!\\[");
}
