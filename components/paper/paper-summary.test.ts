import { describe, expect, it } from "vitest";
import { linkPageCitations } from "./paper-summary";

describe("linkPageCitations", () => {
  it("links (p. N), (pp. N-M) and [p. N] to the viewer page", () => {
    expect(linkPageCitations("A claim (p. 3).")).toBe("A claim ([p. 3](?page=3)).");
    expect(linkPageCitations("Spans (pp. 4 – 6)")).toBe("Spans ([pp. 4–6](?page=4))");
    expect(linkPageCitations("Marker [p. 12] here")).toBe("Marker [[p. 12](?page=12)] here");
  });
  it("leaves other text alone", () => {
    expect(linkPageCitations("p. 3 without brackets, (see 3), [12]")).toBe("p. 3 without brackets, (see 3), [12]");
  });
});
