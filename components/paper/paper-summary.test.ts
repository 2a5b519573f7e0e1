import { describe, expect, it } from "vitest";
import { linkPageCitations } from "./paper-summary";

describe("linkPageCitations", () => {
  it("links (p. N), (pp. N-M) and [p. N] in running text to the viewer page", () => {
    expect(linkPageCitations("A claim (p. 3), more.")).toBe("A claim ([p. 3](?page=3)), more.");
    expect(linkPageCitations("Spans (pp. 4 – 6)")).toBe("Spans ([pp. 4–6](?page=4))");
    expect(linkPageCitations("Marker [p. 12] here")).toBe("Marker [[p. 12](?page=12)] here");
  });

  it("links a key point to its page with its sentence to highlight, keeping the link syntax intact", () => {
    expect(linkPageCitations("- Recall rises (by **10%**) at five. (p. 2)")).toBe(
      "- Recall rises (by **10%**) at five. ([p. 2](?page=2&hl=Recall+rises+%28by+10%25%29+at+five.))",
    );
  });

  it("leaves other text alone", () => {
    const text = "p. 3 without brackets, (see 3), [12]\n\n## Heading";
    expect(linkPageCitations(text)).toBe(text);
  });
});
