import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every export of a "use server" module is an action anyone can call, signed out, with arguments of their choosing
 * (Next.js registers it whether a page uses it or not). So each must check the session and role itself
 * (`requireUser`, app/access.ts, directly or through a helper of its module that does) — except the few a visitor needs before having a session.
 */
const PUBLIC_ACTIONS = new Set(["signInAction", "createOwnerAction", "acceptInviteAction", "signOutAction"]);

function serverModules(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...serverModules(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      if (/^\s*["']use server["'];?/.test(fs.readFileSync(full, "utf8"))) out.push(full);
    }
  }
  return out;
}

/** The module's exported functions and values, each with its text up to the next top-level export. */
function exportsOf(source: string): { name: string; kind: string; body: string }[] {
  const marks = [
    ...source.matchAll(/^export\s+(async\s+function\*?|function\*?|const|let|class|type|interface)\s+(\w+)/gm),
  ];
  return marks.map((m, i) => ({
    kind: (m[1] as string).replace(/\s+/g, " "),
    name: m[2] as string,
    body: source.slice(m.index, marks[i + 1]?.index ?? source.length),
  }));
}

/** The module's own functions (exported or not) that call `requireUser`: an action may check through one of them
 *  ("ownRunId", "authorOf"). */
function guardsOf(source: string): Set<string> {
  const marks = [...source.matchAll(/^(?:export\s+)?(?:async\s+)?function\*?\s+(\w+)/gm)];
  const guards = new Set<string>(["requireUser"]);
  marks.forEach((m, i) => {
    const body = source.slice(m.index, marks[i + 1]?.index ?? source.length);
    if (/\brequireUser\(/.test(body)) guards.add(m[1] as string);
  });
  return guards;
}

/** Whether an export's text calls one of the guards (itself excepted). */
function checks(e: { name: string; body: string }, guards: Set<string>): boolean {
  return [...guards].some((g) => g !== e.name && new RegExp(`\\b${g}\\(`).test(e.body));
}

describe("server actions", () => {
  const root = path.resolve(__dirname);
  const modules = serverModules(root);

  it("finds the app's action modules", () => {
    expect(modules.length).toBeGreaterThanOrEqual(5);
  });

  it("exports from a 'use server' module only actions that check who is asking first", () => {
    const faults: string[] = [];
    for (const file of modules) {
      const source = fs.readFileSync(file, "utf8");
      const guards = guardsOf(source);
      for (const e of exportsOf(source)) {
        if (e.kind === "type" || e.kind === "interface") continue;
        const where = `${path.relative(root, file)}: ${e.name}`;
        if (!e.kind.includes("function")) faults.push(`${where} is not a function`);
        else if (!PUBLIC_ACTIONS.has(e.name) && !checks(e, guards)) faults.push(`${where} never calls requireUser`);
      }
    }
    expect(faults).toEqual([]);
  });

  it("would catch a helper exported beside the actions", () => {
    const source = `"use server";\nexport async function countThing(user: User) {\n  await count(user.id);\n}\nexport async function doAction(x: string) {\n  const user = await requireUser("research:run");\n}\n`;
    const found = exportsOf(source).filter((e) => !checks(e, guardsOf(source)));
    expect(found.map((e) => e.name)).toEqual(["countThing"]);
    // …also when it calls a helper that checks nothing
    const viaHelper = `${source}async function helper() {}\nexport async function other() {\n  await helper();\n}\n`;
    expect(
      exportsOf(viaHelper)
        .filter((e) => !checks(e, guardsOf(viaHelper)))
        .map((e) => e.name),
    ).toEqual(["countThing", "other"]);
  });
});
