/**
 * Which graph library draws the knowledge graph: `npm run bench:graph-render -- [--nodes 1000] [--edges 3000]
 * [--rounds 3] [--frames 120] [--json]`.
 *
 * The same synthetic graph (seeded: `nodes` entities, `edges` relations between them, positions from a
 * ForceAtlas2 run computed once here, so no library's own layout is timed) is drawn by @xyflow/react, cytoscape
 * and sigma + graphology in Debian's Chromium (the full browser, `/usr/bin/chromium`: `bash scripts/setup-browser.sh
 * --full`; the flags of playwright.config.ts; headless,
 * no GPU: WebGL falls back to SwiftShader, as `--enable-unsafe-swiftshader` allows), 1280×800. For each library:
 *
 * - bundle added: each drawing page bundled with esbuild (minified, browser, production React), minus a page that
 *   only imports React for React Flow (the app has React already): raw and gzip bytes, CSS included;
 * - time to first render: from navigation start (the bundle loaded and run) and from the library's first call, to
 *   the frame after everything is drawn (cytoscape's and sigma's first `render`, React Flow's every edge in the DOM);
 * - frame time while panning and zooming: `frames` animation frames, each moving the camera a step (pan, zoom in,
 *   zoom out) through the library's own API, timed by requestAnimationFrame: mean, p95 and max frame interval, and
 *   how many frames took longer than 50 ms. A browser draws at most 60 frames a second: 16.7 ms is the floor.
 *
 * Each library in a fresh page, `rounds` times (the median of each figure is reported). Prints a markdown table, or
 * JSON with --json (progress on stderr).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { build } from "esbuild";
import Graph from "graphology";
import forceAtlas2 from "graphology-layout-forceatlas2";
import playwrightConfig from "../playwright.config";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARIES = ["xyflow", "cytoscape", "sigma"] as const;
type Library = (typeof LIBRARIES)[number];

interface Args {
  nodes: number;
  edges: number;
  rounds: number;
  frames: number;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { nodes: 1000, edges: 3000, rounds: 3, frames: 120, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => Number(argv[++i]);
    if (a === "--nodes") args.nodes = next();
    else if (a === "--edges") args.edges = next();
    else if (a === "--rounds") args.rounds = next();
    else if (a === "--frames") args.frames = next();
    else if (a === "--json") args.json = true;
    else throw new Error(`Unknown argument: ${a}`);
  }
  return args;
}

/** mulberry32: a small seeded generator, so every run draws the same graph. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BenchGraph {
  nodes: { id: string; label: string; x: number; y: number; type: number }[];
  edges: { id: string; source: string; target: string; relation: number }[];
}

/**
 * A graph shaped like a literature's: a few hubs (BERT, ImageNet) with many edges, most entities with one or two.
 * Targets are drawn by preferential attachment; positions from 200 ForceAtlas2 iterations, scaled to ±1000.
 */
function syntheticGraph(nodeCount: number, edgeCount: number): BenchGraph {
  const rand = random(22);
  const g = new Graph({ multi: false, type: "directed" });
  for (let i = 0; i < nodeCount; i++) g.addNode(`n${i}`, { x: rand() * 100, y: rand() * 100 });
  const degree = new Array<number>(nodeCount).fill(1);
  let total = nodeCount;
  const pick = () => {
    let r = rand() * total;
    for (let i = 0; i < nodeCount; i++) {
      r -= degree[i] as number;
      if (r <= 0) return i;
    }
    return nodeCount - 1;
  };
  const edges: BenchGraph["edges"] = [];
  while (edges.length < edgeCount) {
    const s = Math.floor(rand() * nodeCount);
    const t = pick();
    if (s === t || g.hasEdge(`n${s}`, `n${t}`)) continue;
    g.addEdge(`n${s}`, `n${t}`);
    degree[t] = (degree[t] as number) + 1;
    total++;
    edges.push({ id: `e${edges.length}`, source: `n${s}`, target: `n${t}`, relation: Math.floor(rand() * 6) });
  }
  forceAtlas2.assign(g, { iterations: 200, settings: forceAtlas2.inferSettings(g) });
  let maxAbs = 1;
  g.forEachNode((_, a) => {
    maxAbs = Math.max(maxAbs, Math.abs(a.x), Math.abs(a.y));
  });
  const nodes = g.mapNodes((id, a) => ({
    id,
    label: `Entity ${id.slice(1)}`,
    x: Math.round((a.x / maxAbs) * 1000),
    y: Math.round((a.y / maxAbs) * 1000),
    type: Number(id.slice(1)) % 6,
  }));
  return { nodes, edges };
}

// ---- the pages: each reads window.BENCH_GRAPH, draws it, then answers window.benchReady / window.benchCamera -----

const COLORS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2"];

const COMMON = `
const COLORS = ${JSON.stringify(COLORS)};
const graph = window.BENCH_GRAPH;
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
function done(t0) { nextFrame().then(() => { window.benchResult = { sinceStart: performance.now(), sinceInit: performance.now() - t0 }; }); }
`;

const ENTRIES: Record<Library | "baseline", string> = {
  baseline: `import { createRoot } from "react-dom/client"; import { createElement } from "react";
    createRoot(document.getElementById("root")).render(createElement("div", null, "React"));`,
  cytoscape: `import cytoscape from "cytoscape";
    ${COMMON}
    const t0 = performance.now();
    const cy = cytoscape({
      container: document.getElementById("root"),
      layout: { name: "preset" },
      elements: [
        ...graph.nodes.map((n) => ({ data: { id: n.id, label: n.label, color: COLORS[n.type] }, position: { x: n.x, y: n.y } })),
        ...graph.edges.map((e) => ({ data: { id: e.id, source: e.source, target: e.target } })),
      ],
      style: [
        { selector: "node", style: { label: "data(label)", "background-color": "data(color)", width: 12, height: 12, "font-size": 8 } },
        { selector: "edge", style: { width: 1, "line-color": "#94a3b8", "target-arrow-shape": "triangle", "target-arrow-color": "#94a3b8", "curve-style": "bezier" } },
      ],
    });
    cy.one("render", () => done(t0));
    window.benchCamera = (zoom, x, y) => cy.viewport({ zoom: zoom * 0.4, pan: { x: 640 + x, y: 400 + y } });`,
  sigma: `import Graph from "graphology"; import Sigma from "sigma";
    ${COMMON}
    const t0 = performance.now();
    const g = new Graph({ type: "directed" });
    for (const n of graph.nodes) g.addNode(n.id, { label: n.label, x: n.x, y: n.y, size: 4, color: COLORS[n.type] });
    for (const e of graph.edges) g.addEdgeWithKey(e.id, e.source, e.target, { type: "arrow", size: 1, color: "#94a3b8" });
    const sigma = new Sigma(g, document.getElementById("root"), { renderEdgeLabels: false });
    // the constructor draws synchronously (refresh → render), so it has drawn by now
    done(t0);
    window.benchCamera = (zoom, x, y) => sigma.getCamera().setState({ ratio: 1 / zoom, x: 0.5 + x / 2000, y: 0.5 + y / 2000 });`,
  xyflow: `import { createElement } from "react"; import { createRoot } from "react-dom/client";
    import { ReactFlow, ReactFlowProvider, useReactFlow } from "@xyflow/react"; import "@xyflow/react/dist/style.css";
    ${COMMON}
    const t0 = performance.now();
    const nodes = graph.nodes.map((n) => ({ id: n.id, position: { x: n.x, y: n.y }, data: { label: n.label }, style: { borderColor: COLORS[n.type] } }));
    const edges = graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, markerEnd: { type: "arrowclosed" } }));
    function Camera() {
      const flow = useReactFlow();
      window.benchCamera = (zoom, x, y) => flow.setViewport({ zoom: zoom * 0.4, x: 640 + x, y: 400 + y });
      return null;
    }
    const root = document.getElementById("root");
    createRoot(root).render(createElement(ReactFlowProvider, null,
      createElement(ReactFlow, { nodes, edges, defaultViewport: { x: 640, y: 400, zoom: 0.4 }, minZoom: 0.05 }),
      createElement(Camera)));
    const watch = new MutationObserver(() => {
      if (root.querySelectorAll(".react-flow__edge").length >= edges.length) { watch.disconnect(); done(t0); }
    });
    watch.observe(root, { childList: true, subtree: true });`,
};

/**
 * Run in the page (as source text: tsx would otherwise wrap its functions in a helper the page lacks): `n` frames,
 * each a camera step — round the centre once, zoom in ×4 and back out — timed by requestAnimationFrame.
 */
const PAN_AND_ZOOM = `async (n) => {
  const times = [];
  await new Promise((resolve) => {
    let i = 0;
    let last = performance.now();
    const step = (now) => {
      if (i > 0) times.push(now - last);
      last = now;
      if (i >= n) return resolve();
      const t = i / n;
      const zoom = t < 0.5 ? 1 + 6 * t : 4 - 6 * (t - 0.5);
      window.benchCamera(zoom, Math.sin(t * Math.PI * 2) * 400, Math.cos(t * Math.PI * 2) * 250);
      i++;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  return times;
}`;

interface Bundle {
  js: string;
  css: string;
  raw: number;
  gzip: number;
}

async function bundle(dir: string, name: Library | "baseline"): Promise<Bundle> {
  const entry = path.join(dir, `${name}.jsx`);
  fs.writeFileSync(entry, ENTRIES[name]);
  const out = path.join(dir, "out", name);
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    outdir: out,
    nodePaths: [path.join(ROOT, "node_modules")],
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  const js = fs.readFileSync(path.join(out, `${name}.js`), "utf8");
  const cssPath = path.join(out, `${name}.css`);
  const css = fs.existsSync(cssPath) ? fs.readFileSync(cssPath, "utf8") : "";
  return { js, css, raw: js.length + css.length, gzip: gzipSync(js).length + (css ? gzipSync(css).length : 0) };
}

function serve(pages: Map<string, string>): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    const body = pages.get(req.url ?? "");
    res.writeHead(body === undefined ? 404 : 200, {
      "Content-Type": req.url?.endsWith(".js")
        ? "text/javascript"
        : req.url?.endsWith(".json")
          ? "application/json"
          : "text/html",
    });
    res.end(body ?? "not found");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

interface RoundResult {
  sinceStart: number;
  sinceInit: number;
  frameMean: number;
  frameP95: number;
  frameMax: number;
  slowFrames: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-graph-render-"));
  // the browser as the e2e suite launches it (one list of flags, in playwright.config.ts), plus software WebGL
  const launch = playwrightConfig.projects?.[0]?.use?.launchOptions;
  if (!launch?.args) throw new Error("playwright.config.ts has no Chromium launch arguments to reuse.");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium", // the full browser (the e2e suite runs the headless shell)
    // WebGL (sigma) without a GPU: Chromium's software rasteriser, which it no longer falls back to by itself
    args: [...launch.args, "--enable-unsafe-swiftshader"],
  });
  let server: { url: string; close: () => void } | null = null;
  try {
    log(`graph: ${args.nodes} nodes, ${args.edges} edges (layout once, ForceAtlas2)`);
    const graph = syntheticGraph(args.nodes, args.edges);
    const baseline = await bundle(dir, "baseline");
    const bundles = new Map<Library, Bundle>();
    for (const lib of LIBRARIES) bundles.set(lib, await bundle(dir, lib));
    const pages = new Map<string, string>();
    for (const [lib, b] of bundles) {
      pages.set(`/${lib}.js`, b.js);
      pages.set(
        `/${lib}`,
        `<!doctype html><html><head><style>html,body{margin:0}#root{width:1280px;height:800px}${b.css}</style></head>` +
          `<body><div id="root"></div><script>window.BENCH_GRAPH = ${JSON.stringify(graph)};</script>` +
          `<script src="/${lib}.js"></script></body></html>`,
      );
    }
    server = await serve(pages);
    const results = new Map<Library, RoundResult[]>();
    for (let round = 1; round <= args.rounds; round++) {
      for (const lib of LIBRARIES) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(String(e)));
        await page.goto(`${server.url}/${lib}`);
        await page.waitForFunction("window.benchResult", null, { timeout: 120_000 });
        if (errors.length > 0) throw new Error(`${lib}: ${errors.join("; ")}`);
        const first = (await page.evaluate("window.benchResult")) as Pick<RoundResult, "sinceStart" | "sinceInit">;
        const frames = (await page.evaluate(`(${PAN_AND_ZOOM})(${args.frames})`)) as number[];
        const sorted = [...frames].sort((a, b) => a - b);
        const r: RoundResult = {
          ...first,
          frameMean: frames.reduce((s, x) => s + x, 0) / frames.length,
          frameP95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
          frameMax: sorted[sorted.length - 1] ?? 0,
          slowFrames: frames.filter((f) => f > 50).length,
        };
        log(
          `round ${round} ${lib}: first render ${r.sinceStart.toFixed(0)} ms (${r.sinceInit.toFixed(0)} ms after init), ` +
            `frames mean ${r.frameMean.toFixed(1)} p95 ${r.frameP95.toFixed(1)} max ${r.frameMax.toFixed(1)} ms`,
        );
        results.set(lib, [...(results.get(lib) ?? []), r]);
        await context.close();
      }
    }
    const summary = LIBRARIES.map((lib) => {
      const rs = results.get(lib) ?? [];
      const b = bundles.get(lib) as Bundle;
      // only React Flow's page bundles React, which the app has already
      const base = lib === "xyflow" ? baseline : { raw: 0, gzip: 0 };
      const m = (k: keyof RoundResult) => Math.round(median(rs.map((r) => r[k])) * 10) / 10;
      return {
        library: lib,
        bundleAddedKb: Math.round((b.raw - base.raw) / 1024),
        bundleAddedGzipKb: Math.round((b.gzip - base.gzip) / 1024),
        firstRenderMs: m("sinceStart"),
        firstRenderAfterInitMs: m("sinceInit"),
        frameMeanMs: m("frameMean"),
        frameP95Ms: m("frameP95"),
        frameMaxMs: m("frameMax"),
        slowFrames: m("slowFrames"),
      };
    });
    if (args.json) {
      console.log(
        JSON.stringify(
          {
            date: new Date().toISOString().slice(0, 10),
            nodes: args.nodes,
            edges: args.edges,
            rounds: args.rounds,
            frames: args.frames,
            summary,
          },
          null,
          2,
        ),
      );
    } else {
      console.log(
        `| library | bundle added (min / gzip) | first render (from navigation / after init) | frame mean / p95 / max | frames > 50 ms |`,
      );
      console.log("|---|---|---|---|---|");
      for (const s of summary) {
        console.log(
          `| ${s.library} | ${s.bundleAddedKb} / ${s.bundleAddedGzipKb} KB | ${s.firstRenderMs} / ${s.firstRenderAfterInitMs} ms | ` +
            `${s.frameMeanMs} / ${s.frameP95Ms} / ${s.frameMaxMs} ms | ${s.slowFrames} of ${args.frames} |`,
        );
      }
    }
  } finally {
    server?.close();
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
