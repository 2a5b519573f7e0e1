/**
 * CLI output rules: with --json, stdout carries exactly one JSON document and everything else (progress, warnings)
 * goes to stderr. Progress bars draw only on a TTY; otherwise they print a line per step.
 */
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
