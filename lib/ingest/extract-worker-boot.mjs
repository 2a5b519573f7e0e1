// Entry of the extraction worker thread: registers tsx's loader (the worker's code is TypeScript and uses the
// project's `@/` paths), then loads it. Works the same under the tsx CLI, vitest and plain node.
import { register } from "tsx/esm/api";

register();
await import("./extract-worker.ts");
