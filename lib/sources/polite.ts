/**
 * Spacing requests to an outside service: a gate lets one caller through at a time, each at least `intervalMs` after
 * the one before it started. Time comes from a clock the tests replace, so what they check does not depend on the
 * machine's speed.
 */

export interface SourceClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: SourceClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

export interface IntervalGate {
  /** Resolves when this caller may start its request (in call order). */
  wait(signal?: AbortSignal): Promise<void>;
}

export function createIntervalGate(intervalMs: number, clock: SourceClock): IntervalGate {
  let last = Number.NEGATIVE_INFINITY;
  let queue: Promise<void> = Promise.resolve();
  return {
    wait(signal) {
      const turn = queue.then(async () => {
        signal?.throwIfAborted();
        const due = last + intervalMs - clock.now();
        if (due > 0) await clock.sleep(due, signal);
        last = clock.now();
      });
      // a cancelled caller does not block the ones behind it
      queue = turn.catch(() => {});
      return turn;
    },
  };
}
