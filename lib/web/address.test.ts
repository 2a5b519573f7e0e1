import { describe, expect, it } from "vitest";
import { embeddedIpv4, isPublicAddress } from "./address";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.1",
    "172.16.5.4",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.254",
    "0.0.0.0",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "198.18.0.1",
    "::",
    "::1",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
    "2001:db8::1",
    // outside 2000::/3: local-use NAT64 (a local translator makes it 10.0.0.1), IPv4-translated, SRv6, reserved
    "64:ff9b:1::a00:1",
    "::ffff:0:7f00:1",
    "5f00::1",
    "100:0:0:1::1",
    "400::1",
    "3fff::1",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "151.101.1.69",
    "100.128.0.1",
    "172.32.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "2002:808:808::",
  ])("allows %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("refuses what is not an address", () => {
    expect(isPublicAddress("localhost")).toBe(false);
    expect(isPublicAddress("")).toBe(false);
  });

  it("reads the IPv4 address inside IPv6 forms", () => {
    expect(embeddedIpv4("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("64:ff9b::a00:1")).toBe("10.0.0.1");
    expect(embeddedIpv4("2002:c0a8:101::1")).toBe("192.168.1.1");
    expect(embeddedIpv4("2606:4700::1111")).toBeNull();
  });
});
