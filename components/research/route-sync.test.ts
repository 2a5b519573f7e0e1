import { describe, expect, it } from "vitest";
import { routeSync, runIdFromPath } from "./route-sync";

const base = {
  pathname: "/research",
  previousPath: "/research",
  ownPath: null,
  renderedRunId: null,
  initialChanged: false,
  refreshedFor: null,
};

describe("runIdFromPath", () => {
  it("reads the run id of a run's address", () => {
    expect(runIdFromPath("/research/q9XhC1v2b3n4m5k6j7h8gA")).toBe("q9XhC1v2b3n4m5k6j7h8gA");
    expect(runIdFromPath("/research")).toBeNull();
    expect(runIdFromPath("/research/a/b")).toBeNull();
    expect(runIdFromPath("/papers/x")).toBeNull();
  });
});

describe("routeSync", () => {
  it("does nothing on first render or for the page's own address change", () => {
    expect(routeSync(base)).toBe("none");
    expect(routeSync({ ...base, pathname: "/research/B", ownPath: "/research/B" })).toBe("none");
    // a refresh of the page while it streams its own run does not replace it
    expect(
      routeSync({
        ...base,
        pathname: "/research/B",
        previousPath: "/research/B",
        ownPath: "/research/B",
        initialChanged: true,
      }),
    ).toBe("none");
  });

  it("shows what the server rendered after a navigation to this page", () => {
    // the header's Research link after a run changed the address
    expect(routeSync({ ...base, previousPath: "/research/B", ownPath: "/research/B" })).toBe("show");
    // a recent run
    expect(routeSync({ ...base, pathname: "/research/A", previousPath: "/research/B", renderedRunId: "A" })).toBe(
      "show",
    );
    // the server rendered again for the same address
    expect(
      routeSync({
        ...base,
        pathname: "/research/A",
        previousPath: "/research/A",
        renderedRunId: "A",
        initialChanged: true,
      }),
    ).toBe("show");
  });

  it("asks the server once when the page holds another address's run", () => {
    const back = { ...base, pathname: "/research/B", previousPath: "/research/A", renderedRunId: "A" };
    expect(routeSync(back)).toBe("refresh");
    expect(routeSync({ ...back, refreshedFor: "/research/B" })).toBe("none");
    expect(routeSync({ ...base, pathname: "/research/B", previousPath: "/research" })).toBe("refresh");
  });
});
