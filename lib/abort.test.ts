import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { isTimeout, timeoutSignal } from "./abort";

describe("timeoutSignal", () => {
  it("aborts with a TimeoutError after its time", async () => {
    const signal = timeoutSignal(20);
    expect(signal.aborted).toBe(false);
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    expect(isTimeout(signal.reason)).toBe(true);
  });

  it("fires even when nothing but the timer holds it and the garbage collector runs", async () => {
    // On Node 20, 0 of 100 `AbortSignal.any([parent, AbortSignal.timeout(50)])` fired across these collections
    // (nodejs/node#57736); a model call under such a limit ran to its end on a loaded CI machine.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const parent = new AbortController();
    let fired = 0;
    for (let i = 0; i < 100; i++) {
      timeoutSignal(50, parent.signal).addEventListener("abort", () => {
        fired++;
      });
    }
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(fired).toBe(100);
  });

  it("takes its parent's reason when the parent aborts first, and is aborted at once under an aborted parent", () => {
    const parent = new AbortController();
    const signal = timeoutSignal(60_000, parent.signal);
    parent.abort(new Error("cancelled"));
    expect(signal.aborted).toBe(true);
    expect(isTimeout(signal.reason)).toBe(false);
    expect((signal.reason as Error).message).toBe("cancelled");
    const late = timeoutSignal(60_000, parent.signal);
    expect(late.aborted).toBe(true);
  });
});
