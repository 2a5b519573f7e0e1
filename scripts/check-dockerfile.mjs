// check-dockerfile.mjs — a static check of the Dockerfile against docker-compose.yml and the build context, for
// machines that cannot build images (no registry to pull the base image from). Called by scripts/check-deploy.sh.
//   node scripts/check-dockerfile.mjs [Dockerfile] [docker-compose.yml]
// Checks: every instruction is one Docker knows, with arguments; stage names are unique; `FROM <stage>` and
// `COPY --from=<stage>` name an earlier stage; the targets the compose file builds exist; the files copied from the
// build context exist and are not excluded by .dockerignore; the app stage starts `server.js` and the worker stage
// runs a script package.json has. Prints each problem and exits 1 if there is any.
import fs from "node:fs";
import path from "node:path";

const dockerfile = process.argv[2] ?? "Dockerfile";
const composeFile = process.argv[3] ?? "docker-compose.yml";
const root = path.dirname(path.resolve(dockerfile));
const problems = [];
const problem = (line, message) => problems.push(`${dockerfile}${line ? `:${line}` : ""}: ${message}`);

const INSTRUCTIONS = new Set([
  "FROM",
  "RUN",
  "CMD",
  "LABEL",
  "EXPOSE",
  "ENV",
  "ADD",
  "COPY",
  "ENTRYPOINT",
  "VOLUME",
  "USER",
  "WORKDIR",
  "ARG",
  "ONBUILD",
  "STOPSIGNAL",
  "HEALTHCHECK",
  "SHELL",
]);

// instructions, with continuation lines joined and comments and blank lines dropped
const instructions = [];
let pending = null;
for (const [i, raw] of fs.readFileSync(dockerfile, "utf8").split("\n").entries()) {
  const line = raw.trimEnd();
  if (pending === null && (line.trim() === "" || line.trimStart().startsWith("#"))) continue;
  if (pending !== null && line.trimStart().startsWith("#")) continue;
  const text = line.endsWith("\\") ? line.slice(0, -1) : line;
  pending = pending ? { ...pending, text: `${pending.text} ${text.trim()}` } : { line: i + 1, text: text.trim() };
  if (!line.endsWith("\\")) {
    instructions.push(pending);
    pending = null;
  }
}
if (pending) problem(pending.line, "the file ends inside a continued line");

const stages = []; // { name, line, instructions: [] }
const args = new Set();
for (const ins of instructions) {
  const m = /^(\S+)\s*(.*)$/.exec(ins.text);
  const keyword = m[1].toUpperCase();
  const rest = m[2];
  if (!INSTRUCTIONS.has(keyword)) {
    problem(ins.line, `unknown instruction ${m[1]}`);
    continue;
  }
  if (rest === "") problem(ins.line, `${keyword} without arguments`);
  if (keyword === "ARG" && stages.length === 0) args.add(rest.split("=")[0]);
  if (keyword === "FROM") {
    const from = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
    if (!from) {
      problem(ins.line, `cannot read FROM ${rest}`);
      continue;
    }
    const [, image, name] = from;
    const variable = /^\$\{?(\w+)/.exec(image);
    if (variable && !args.has(variable[1]))
      problem(ins.line, `FROM uses ${variable[1]}, which no ARG before it declares`);
    if (name && stages.some((s) => s.name === name.toLowerCase())) problem(ins.line, `stage ${name} is defined twice`);
    stages.push({ name: name?.toLowerCase(), base: image, line: ins.line, instructions: [] });
    continue;
  }
  if (stages.length === 0) {
    if (keyword !== "ARG") problem(ins.line, `${keyword} before the first FROM`);
    continue;
  }
  stages.at(-1).instructions.push({ ...ins, keyword, rest });
}
if (stages.length === 0) problem(0, "no FROM");

const earlier = (index) => new Set(stages.slice(0, index).map((s) => s.name));
const ignored = readDockerignore(path.join(root, ".dockerignore"));
for (const [index, stage] of stages.entries()) {
  // a base that is not an earlier stage is an image from a registry (stages may not be used before they are defined)
  if (stages.slice(index + 1).some((s) => s.name === stage.base.toLowerCase())) {
    problem(stage.line, `FROM ${stage.base} names a stage defined after it`);
  }
  for (const ins of stage.instructions) {
    if (ins.keyword !== "COPY" && ins.keyword !== "ADD") continue;
    const words = ins.rest.split(/\s+/);
    const from = words.find((w) => w.startsWith("--from="))?.slice("--from=".length);
    const paths = words.filter((w) => !w.startsWith("--"));
    if (paths.length < 2) problem(ins.line, `${ins.keyword} needs a source and a destination`);
    if (from !== undefined) {
      if (!earlier(index).has(from.toLowerCase()))
        problem(ins.line, `--from=${from} is not a stage defined before this one`);
      // a source file of the project that stage copied in (`COPY . .` in /src): it must reach the build context
      for (const source of paths.slice(0, -1)) {
        const inProject = /^\/src\/([^.][^/]*)/.exec(source)?.[1];
        if (!inProject) continue;
        if (!fs.existsSync(path.join(root, inProject))) problem(ins.line, `${inProject} is not in the build context`);
        else if (ignored(inProject)) problem(ins.line, `${inProject} is excluded by .dockerignore`);
      }
      continue;
    }
    for (const source of paths.slice(0, -1)) {
      if (source === ".") continue;
      if (!fs.existsSync(path.join(root, source))) problem(ins.line, `${source} is not in the build context`);
      else if (ignored(source)) problem(ins.line, `${source} is excluded by .dockerignore`);
    }
  }
}

// the compose file's build targets, and what the two Lectern stages run
const compose = fs.existsSync(composeFile) ? fs.readFileSync(composeFile, "utf8") : "";
const targets = new Set([...compose.matchAll(/^\s*target:\s*(\S+)\s*$/gm)].map((m) => m[1].toLowerCase()));
if (compose === "") problem(0, `${composeFile} not found`);
for (const target of targets) {
  if (!stages.some((s) => s.name === target))
    problem(0, `${composeFile} builds target ${target}, which is not a stage`);
}
const lastCmd = (name) =>
  stages
    .find((s) => s.name === name)
    ?.instructions.filter((i) => i.keyword === "CMD")
    .at(-1);
const appCmd = lastCmd("app");
if (!appCmd || !/"server\.js"/.test(appCmd.rest))
  problem(appCmd?.line ?? 0, 'the app stage must run ["node", "server.js"]');
const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts ?? {};
// the worker runs package.json's `worker` script itself (tsx, not through npm: see the Dockerfile), in both files
const workerScript = scripts.worker?.replace(/^tsx /, "node_modules/.bin/tsx ");
const asCommand = (json) => {
  try {
    return JSON.parse(json).join(" ");
  } catch {
    return null;
  }
};
const workerCmd = lastCmd("worker");
if (!scripts.worker) problem(0, 'package.json has no "worker" script');
else if (!workerCmd || asCommand(workerCmd.rest) !== workerScript) {
  problem(
    workerCmd?.line ?? 0,
    `the worker stage must run package.json's worker script as ${JSON.stringify(workerScript?.split(" "))}`,
  );
}
const composeWorker = /^ {2}worker:\n(?: {4}.*\n|\s*#.*\n)*? {4}command:\s*(\[.*\])/m.exec(compose)?.[1];
if (scripts.worker && asCommand(composeWorker ?? "") !== workerScript) {
  problem(0, `${composeFile}: the worker service must run ${JSON.stringify(workerScript?.split(" "))}`);
}
for (const m of compose.matchAll(/command:\s*\["npm",\s*"run",\s*(?:"--silent",\s*)?"([\w:-]+)"/g)) {
  if (!scripts[m[1]]) problem(0, `${composeFile} runs "npm run ${m[1]}", which package.json does not have`);
}

/** A matcher for .dockerignore's patterns (the subset this repository uses: names, globs with *, `!` exceptions). */
function readDockerignore(file) {
  if (!fs.existsSync(file)) return () => false;
  const rules = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const negate = l.startsWith("!");
      const pattern = (negate ? l.slice(1) : l).replace(/^\/+|\/+$/g, "");
      const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}(/.*)?$`);
      return { negate, re };
    });
  return (p) => {
    const normal = p.replace(/^\.\//, "").replace(/\/+$/, "");
    let excluded = false;
    for (const r of rules) if (r.re.test(normal)) excluded = !r.negate;
    return excluded;
  };
}

for (const p of problems) console.error(p);
if (problems.length > 0) process.exit(1);
console.log(
  `${dockerfile}: ${stages.length} stages (${stages.map((s) => s.name ?? "unnamed").join(", ")}), ${instructions.length} instructions, compose targets ${[...targets].join(", ")}: ok`,
);
