import type { TestProject } from "vitest/node";
import { prepareTestDatabaseTemplate } from "./testing";

/**
 * vitest's globalSetup: the migrated template that every test file's `createTestDatabase` copies (db/testing.ts),
 * made once per run for the backend the run uses, and removed at its end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { template, dispose } = await prepareTestDatabaseTemplate();
  project.provide("testDatabaseTemplate", template);
  return dispose;
}
