// Loaded into `next start` by `npm run bench:load` (NODE_OPTIONS=--import; plain JavaScript so that no loader is
// needed). In the Next.js server process only (not in npx), it measures the event loop's delay with Node's histogram
// (perf_hooks.monitorEventLoopDelay, 10 ms resolution) and appends one line per second to $LECTERN_BENCH_LOOP_DELAY:
// "epochMs p50Ms p99Ms maxMs" of that second, then starts the next second's histogram afresh.
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const out = process.env.LECTERN_BENCH_LOOP_DELAY;
const entry = process.argv[1] ?? "";
if (out && /[\\/](\.bin|next[\\/]dist[\\/]bin)[\\/]next$/.test(entry)) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  setInterval(() => {
    if (h.count > 0) {
      const ms = (ns) => (ns / 1e6).toFixed(1);
      fs.appendFileSync(out, `${Date.now()} ${ms(h.percentile(50))} ${ms(h.percentile(99))} ${ms(h.max)}\n`);
    }
    h.reset();
  }, 1000).unref();
}
