// Loaded into `next start` by `npm run bench:research-browser -- --server-stalls` (NODE_OPTIONS=--import; plain
// JavaScript so that no loader is needed). In the Next.js server process only (not in npx), it appends every stall of
// the event loop longer than 10 ms to the file $LECTERN_BENCH_STALLS, one "startEpochMs durationMs" line each: while
// the loop is stalled, nothing the server has ready (a streamed event) can be written to the socket.
import fs from "node:fs";

const out = process.env.LECTERN_BENCH_STALLS;
const entry = process.argv[1] ?? "";
if (out && /[\\/](\.bin|next[\\/]dist[\\/]bin)[\\/]next$/.test(entry)) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 10) {
      fs.appendFileSync(out, `${(performance.timeOrigin + last).toFixed(1)} ${(now - last).toFixed(1)}\n`);
    }
    last = now;
  }, 1).unref();
}
