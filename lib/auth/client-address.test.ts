import { describe, expect, it } from "vitest";
import { clientAddressFrom } from "./client-address";

describe("the client address a sign-in counts against", () => {
  it("is the right-most X-Forwarded-For entry: the one the proxy in front appended", () => {
    expect(clientAddressFrom("203.0.113.7", null)).toBe("203.0.113.7");
    // a client that sends its own header cannot choose the address it is counted under
    expect(clientAddressFrom("198.51.100.1, 203.0.113.7", null)).toBe("203.0.113.7");
    expect(clientAddressFrom("198.51.100.2,203.0.113.7", null)).toBe("203.0.113.7");
    expect(clientAddressFrom("2001:db8::1", null)).toBe("2001:db8::1");
  });

  it("falls back to X-Real-IP, and gives nothing for no header or for text that is no address", () => {
    expect(clientAddressFrom(null, "203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddressFrom("", null)).toBeUndefined();
    expect(clientAddressFrom(null, null)).toBeUndefined();
    expect(clientAddressFrom("x".repeat(500), null)).toBeUndefined();
    expect(clientAddressFrom("1.2.3.4 <script>", null)).toBeUndefined();
  });
});
