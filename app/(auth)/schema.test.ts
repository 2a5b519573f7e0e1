import { describe, expect, it } from "vitest";
import { safeNextPath, signInInputSchema } from "./schema";

describe("where sign-in goes next", () => {
  it("keeps a path of this site, written as the URL parser writes it", () => {
    expect(safeNextPath("/research/abc?x=1#top")).toBe("/research/abc?x=1#top");
    expect(safeNextPath("/search?q=low rank")).toBe("/search?q=low%20rank");
    expect(safeNextPath("/papers/Ünïcode")).toBe("/papers/%C3%9Cn%C3%AFcode");
    expect(safeNextPath("/a/../b")).toBe("/b");
  });

  it("never sends anyone to another site", () => {
    for (const p of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/%09/evil.example".replace("%09", "\t"),
      "/\r\n/evil.example",
      "/\u0000/evil.example",
      "https://evil.example/",
      "evil.example",
      "javascript:alert(1)",
      "/\\/evil.example",
      "",
      undefined,
    ]) {
      expect(safeNextPath(p), JSON.stringify(p)).toBe("/");
    }
    // a full-width stop is no dot to the parser here; whatever it is, the result stays on this site
    expect(safeNextPath("/\u3002/x").startsWith("/%E3%80%82")).toBe(true);
  });

  it("is what the sign-in input carries", () => {
    const parsed = signInInputSchema.parse({ email: "a@b.c", password: "x", next: "/\t/evil.example" });
    expect(parsed.next).toBe("/");
  });
});
