"use client";

import type { Core, ElementDefinition } from "cytoscape";
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
        style: [
          {
            selector: "node",
            style: {
              label: "data(label)",
              "background-color": "data(color)",
              width: 14,
              height: 14,
              "font-size": 11,
              color: dark ? "#e2e8f0" : "#1e293b",
              "text-valign": "bottom",
              "text-margin-y": 3,
              "text-wrap": "ellipsis",
              "text-max-width": "140px",
              "text-background-color": dark ? "#0f172a" : "#ffffff",
              "text-background-opacity": 0.8,
              "text-background-padding": "1px",
            },
          },
          { selector: "node[center = 1]", style: { width: 26, height: 26, "font-size": 13, "font-weight": "bold" } },
          {
            selector: "edge",
            style: {
              width: 1.5,
              "line-color": "data(color)",
              "target-arrow-color": "data(color)",
              "target-arrow-shape": "triangle",
              "curve-style": "bezier",
              label: "data(label)",
              "font-size": 9,
              color: dark ? "#94a3b8" : "#475569",
              "text-rotation": "autorotate",
              "text-background-color": dark ? "#0f172a" : "#ffffff",
              "text-background-opacity": 0.8,
            },
          },
          { selector: "edge:selected", style: { width: 4, "z-index": 10 } },
        ],
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
