import type { SourceClock } from "@/lib/sources/polite";

/** A clock whose time moves only when something sleeps on it (tests). */
export function createFakeClock(start = 1_700_000_000_000): SourceClock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
}
