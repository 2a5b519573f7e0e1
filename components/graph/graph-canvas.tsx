"use client";

import type { Core, ElementDefinition, SingularElementArgument, StylesheetJson } from "cytoscape";
import { useTheme } from "next-themes";
import { useEffect, useRef, useState } from "react";
import { type GraphEdgeResult, type GraphEntityType, RELATION_COLORS, RELATION_LABELS } from "./types";

/**
 * The entity's neighbourhood, drawn with cytoscape (chosen by measurement: docs/benchmarks.md, "Drawing the graph").
 * The entity in the middle, the entities its edges reach around it; one line per claim of a paper (the same claim
 * on several pages of one paper is one line; from several papers, separate curves), coloured by relation. Clicking a line selects its edge, clicking another entity
 * searches it. The list beside the drawing has the same edges for the keyboard and screen readers.
 */

const TYPE_COLORS: Record<GraphEntityType, string> = {
  Method: "#2563eb",
  Model: "#7c3aed",
  Dataset: "#d97706",
  Metric: "#db2777",
  Task: "#059669",
  Concept: "#64748b",
};

/** The closest the first view comes (a neighbourhood of three nodes is not drawn at 3×). */
const MAX_FIT_ZOOM = 1.2;

/** Labels' size on screen, px, at any zoom: a neighbourhood fitted to the box is drawn at ~0.5× and below. */
export const LABEL_PX = { node: 12, center: 14, edge: 11 } as const;

/**
 * How much a label is enlarged in the drawing's units so that it is drawn at its size in px: by 1/zoom when zoomed
 * out, not at all from life size on (zoomed in, labels grow with the drawing as before).
 */
export function labelScale(zoom: number): number {
  return zoom < 1 ? 1 / zoom : 1;
}

/** The selected edge's colour: the theme's --primary (app/globals.css) in sRGB, unlike every relation's colour. */
const SELECTED_EDGE_COLOR = { light: "#243251", dark: "#beceef" } as const;

/**
 * The drawing's style. Font sizes are functions of the zoom, evaluated again by `cy.style().update()` on every zoom
 * (cytoscape has no minimum drawn font size, only `min-zoomed-font-size`, which hides the labels instead).
 */
export function graphStylesheet(dark: boolean): StylesheetJson {
  const scale = (ele: SingularElementArgument) => labelScale(ele.cy().zoom());
  const selected = dark ? SELECTED_EDGE_COLOR.dark : SELECTED_EDGE_COLOR.light;
  return [
    {
      selector: "node",
      style: {
        label: "data(label)",
        "background-color": "data(color)",
        width: 14,
        height: 14,
        "font-size": (n: SingularElementArgument) => LABEL_PX.node * scale(n),
        color: dark ? "#e2e8f0" : "#1e293b",
        "text-valign": "bottom",
        "text-margin-y": (n: SingularElementArgument) => 3 * scale(n),
        "text-wrap": "ellipsis",
        // the same 140 px on screen as the text grows in the drawing's units
        "text-max-width": (n: SingularElementArgument) => `${140 * scale(n)}px`,
        "text-background-color": dark ? "#0f172a" : "#ffffff",
        "text-background-opacity": 0.8,
        "text-background-padding": "1px",
      },
    },
    {
      selector: "node[center = 1]",
      style: {
        width: 26,
        height: 26,
        "font-size": (n: SingularElementArgument) => LABEL_PX.center * scale(n),
        "font-weight": "bold",
      },
    },
    {
      selector: "edge",
      style: {
        width: 1.5,
        "line-color": "data(color)",
        "target-arrow-color": "data(color)",
        "target-arrow-shape": "triangle",
        "curve-style": "bezier",
        label: "data(label)",
        "font-size": (e: SingularElementArgument) => LABEL_PX.edge * scale(e),
        color: dark ? "#94a3b8" : "#475569",
        "text-rotation": "autorotate",
        "text-background-color": dark ? "#0f172a" : "#ffffff",
        "text-background-opacity": 0.8,
      },
    },
    {
      selector: "edge:selected",
      style: {
        width: 4.5,
        "line-color": selected,
        "target-arrow-color": selected,
        color: selected,
        "font-weight": "bold",
        "z-index": 10,
      },
    },
  ];
}

function elements(centerId: number, edges: readonly GraphEdgeResult[]): ElementDefinition[] {
  const nodes = new Map<number, ElementDefinition>();
  const addNode = (e: { id: number; name: string; type: GraphEntityType }) => {
    if (nodes.has(e.id)) return;
    nodes.set(e.id, {
      data: { id: `n${e.id}`, label: e.name, color: TYPE_COLORS[e.type], center: e.id === centerId ? 1 : 0 },
    });
  };
  for (const e of edges) {
    addNode(e.source);
    addNode(e.target);
  }
  return [
    ...nodes.values(),
    ...edges.map((e) => ({
      data: {
        id: `e${e.id}`,
        edgeId: e.id,
        source: `n${e.source.id}`,
        target: `n${e.target.id}`,
        label: RELATION_LABELS[e.relation],
        color: RELATION_COLORS[e.relation],
      },
    })),
  ];
}

export function GraphCanvas({
  center,
  edges,
  selectedEdgeId,
  onSelectEdge,
  onOpenEntity,
}: {
  center: { id: number; name: string };
  edges: readonly GraphEdgeResult[];
  selectedEdgeId: number | null;
  onSelectEdge: (id: number) => void;
  onOpenEntity: (name: string) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const [ready, setReady] = useState(false);
  // drawn again in the other theme's colours when the theme changes (a canvas does not follow CSS)
  const dark = useTheme().resolvedTheme === "dark";
  // the latest callbacks, without redrawing the graph when a parent re-renders
  const handlers = useRef({ onSelectEdge, onOpenEntity });
  handlers.current = { onSelectEdge, onOpenEntity };

  useEffect(() => {
    let cancelled = false;
    let cy: Core | null = null;
    setReady(false);
    void import("cytoscape").then(({ default: cytoscape }) => {
      if (cancelled || !container.current) return;
      cy = cytoscape({
        container: container.current,
        elements: elements(center.id, edges),
        minZoom: 0.2,
        maxZoom: 3,
        boxSelectionEnabled: false,
        autoungrabify: false,
        style: graphStylesheet(dark),
        layout: {
          name: "concentric",
          concentric: (n) => (n.data("center") === 1 ? 2 : 1),
          levelWidth: () => 1,
          minNodeSpacing: 90,
          padding: 40,
          animate: false,
        },
      });
      // a few nodes fitted to the box would be drawn huge: no closer than a little above life size
      if (cy.zoom() > MAX_FIT_ZOOM) {
        cy.zoom(MAX_FIT_ZOOM);
        cy.center();
      }
      // labels keep their size on screen (graphStylesheet): their font is a function of the zoom, first styled at 1×
      cy.style().update();
      cy.on("zoom", () => cy?.style().update());
      cy.on("tap", "edge", (evt) => handlers.current.onSelectEdge(Number(evt.target.data("edgeId"))));
      cy.on("tap", "node", (evt) => {
        if (evt.target.data("center") !== 1) handlers.current.onOpenEntity(String(evt.target.data("label")));
      });
      cyRef.current = cy;
      setReady(true);
    });
    return () => {
      cancelled = true;
      cy?.destroy();
      cyRef.current = null;
    };
  }, [center.id, edges, dark]);

  // the edge chosen in the list (or on the drawing) is the selected line
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || !ready) return;
    cy.edges().unselect();
    if (selectedEdgeId !== null) cy.getElementById(`e${selectedEdgeId}`).select();
  }, [selectedEdgeId, ready]);

  return (
    <div
      ref={container}
      role="img"
      aria-label={`Drawing of ${center.name} and the ${edges.length} edges shown; the list of edges has the same, for the keyboard.`}
      className="h-[28rem] w-full rounded-lg border bg-card"
      data-testid="graph-canvas"
      data-ready={ready ? "true" : "false"}
      data-edge-count={edges.length}
    />
  );
}
