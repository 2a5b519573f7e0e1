import { Console } from "node:console";

/**
 * CLI output rules: with --json, stdout carries exactly one JSON document and everything else (progress, warnings)
 * goes to stderr. Progress bars draw only on a TTY; otherwise they print a line per step.
 */

/** Where a command run in-process (`run` in cli/index.ts with `io`) writes instead of the process's streams. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Runs `fn` with everything written to process.stdout and process.stderr — by the commands, this module and `console`
 * alike — sent to `io`, neither stream a TTY, as when the CLI's output is piped. Commands write to the process's
 * streams as a CLI does; this lets a test run them in its own process and still see exactly what a user's pipe
 * would. One command at a time: the streams are the process's own.
 */
export async function withOutput<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  const streams = [
    [process.stdout, io.stdout],
    [process.stderr, io.stderr],
  ] as const;
  const saved = streams.map(([stream]) => ({ stream, write: stream.write, isTTY: stream.isTTY }));
  const savedConsole = globalThis.console;
  for (const [stream, sink] of streams) {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      sink(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as typeof stream.write;
    stream.isTTY = false;
  }
  // a console of the process's streams, as the CLI's process has (a test runner's console reports elsewhere)
  globalThis.console = new Console({ stdout: process.stdout, stderr: process.stderr });
  try {
    return await fn();
  } finally {
    globalThis.console = savedConsole;
    for (const { stream, write, isTTY } of saved) {
      stream.write = write;
      stream.isTTY = isTTY;
    }
  }
}
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function info(line: string): void {
  process.stderr.write(`${line}\n`);
}

export class ProgressBar {
  private readonly tty = Boolean(process.stderr.isTTY);
  private lastLine = "";
  constructor(private readonly total: number) {}

  update(done: number, label: string): void {
    const width = 28;
    const ratio = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const filled = Math.round(ratio * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    const line = `${bar} ${done}/${this.total} ${label}`;
    if (this.tty) {
      const cols = process.stderr.columns || 100;
      process.stderr.write(`\r\x1b[2K${line.slice(0, cols - 1)}`);
    } else if (line !== this.lastLine) {
      process.stderr.write(`${line}\n`);
    }
    this.lastLine = line;
  }

  /** Prints a line above the bar (a finished item). */
  log(line: string): void {
    if (this.tty) process.stderr.write(`\r\x1b[2K${line}\n`);
    else process.stderr.write(`${line}\n`);
  }

  done(): void {
    if (this.tty) process.stderr.write("\r\x1b[2K");
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["kB", "MB", "GB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}
