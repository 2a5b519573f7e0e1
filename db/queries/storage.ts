import { inArray } from "drizzle-orm";
import type { Database } from "@/db";
import { papers } from "@/db/schema";

// No `import "server-only"` here: the CLI's sweep runs it outside Next.js.

const BATCH = 1_000;

/** Which of `filePaths` a paper row names (its `file_path`), asked in batches. */
export async function referencedFilePaths(db: Database, filePaths: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < filePaths.length; i += BATCH) {
    const batch = filePaths.slice(i, i + BATCH);
    const rows = await db
      .selectDistinct({ filePath: papers.filePath })
      .from(papers)
      .where(inArray(papers.filePath, batch));
    for (const r of rows) found.add(r.filePath);
  }
  return found;
}
