import { afterEach, describe, expect, it, vi } from "vitest";
import { withIdleTimeout } from "./synthesis";

/** A source that yields `n` items, one every `everyMs`, then (with `hang`) never settles again. */
async function* ticking(n: number, everyMs: number, hang = false): AsyncGenerator<number> {
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, everyMs));
    yield i;
  }
  if (hang) await new Promise(() => {});
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("withIdleTimeout", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets a source that keeps sending run past the limit in total", async () => {
    vi.useFakeTimers();
    const done = collect(withIdleTimeout(ticking(10, 150), 200, undefined));
    await vi.advanceTimersByTimeAsync(10 * 150);
    await expect(done).resolves.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("fails a source that goes quiet mid-stream, even one that never settles, and aborts its call", async () => {
    vi.useFakeTimers();
    const idle = new AbortController();
    const seen: number[] = [];
    const done = (async () => {
      for await (const x of withIdleTimeout(ticking(2, 50, true), 200, undefined, idle)) seen.push(x);
    })();
    const outcome = expect(done).rejects.toThrow(/sent nothing for 200 ms/);
    await vi.advanceTimersByTimeAsync(100 + 200);
    await outcome;
    expect(seen).toEqual([0, 1]);
    expect(idle.signal.aborted).toBe(true);
  });

  it("fails at once when the run's signal aborts", async () => {
    vi.useFakeTimers();
    const run = new AbortController();
    const done = collect(withIdleTimeout(ticking(1, 10, true), 60_000, run.signal));
    const outcome = expect(done).rejects.toThrow(/cancelled by the user/);
    await vi.advanceTimersByTimeAsync(10);
    run.abort(new Error("cancelled by the user"));
    await outcome;
  });
});
