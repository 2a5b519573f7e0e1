import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { WEB_SEARCH_HOW_TO_ENABLE } from "@/lib/web/config";
import { webSearchAvailability } from "./data";

const PROVIDER_KEYS = ["LECTERN_SEARXNG_URL", "TAVILY_API_KEY", "BRAVE_SEARCH_API_KEY"];

beforeEach(() => {
  for (const key of PROVIDER_KEYS) vi.stubEnv(key, "");
  resetEnvForTests();
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe("web search as the research page offers it", () => {
  it("tells the owner how to set it up while no provider is configured", () => {
    expect(webSearchAvailability("owner")).toMatchObject({ available: false, howToEnable: WEB_SEARCH_HOW_TO_ENABLE });
  });

  it("tells a member or a viewer nothing of setting it up: only an owner can", () => {
    for (const role of ["member", "viewer"] as const) {
      expect(webSearchAvailability(role)).toMatchObject({ available: false, howToEnable: null });
    }
  });

  it("offers it to every role once a provider is configured", () => {
    vi.stubEnv("LECTERN_SEARXNG_URL", "http://127.0.0.1:8888");
    resetEnvForTests();
    for (const role of ["owner", "member", "viewer"] as const) {
      expect(webSearchAvailability(role)).toMatchObject({ available: true, provider: "SearXNG", howToEnable: null });
    }
  });
});
