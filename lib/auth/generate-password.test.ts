import { describe, expect, it } from "vitest";
import { generatePassword } from "./generate-password";
import { PASSWORD } from "./server";

describe("generatePassword", () => {
  it("makes four groups of five unambiguous characters, long enough for an account, different every time", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generatePassword();
      expect(p).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{5}(-[a-km-zA-HJ-NP-Z2-9]{5}){3}$/);
      expect(p.length).toBeGreaterThanOrEqual(PASSWORD.min);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });

  it("uses every character of its alphabet (none left out by the rejection of high bytes)", () => {
    const used = new Set(
      Array.from({ length: 400 }, () => generatePassword())
        .join("")
        .replaceAll("-", ""),
    );
    expect(used.size).toBe(56);
  });
});
