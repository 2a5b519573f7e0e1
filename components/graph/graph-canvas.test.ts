import cytoscape from "cytoscape";
import { describe, expect, it } from "vitest";
import { graphStylesheet, LABEL_PX } from "./graph-canvas";
import { RELATION_COLORS } from "./types";

/** The drawing's stylesheet applied by cytoscape itself (headless: no canvas), to a centre, a neighbour and an edge. */
function drawing(dark = false) {
  return cytoscape({
    headless: true,
    styleEnabled: true,
    elements: [
      { data: { id: "n1", label: "FooNet", color: "#2563eb", center: 1 } },
      { data: { id: "n2", label: "QuxNet", color: "#2563eb", center: 0 } },
      { data: { id: "e7", source: "n1", target: "n2", label: "improves on", color: RELATION_COLORS.improves_on } },
    ],
    style: graphStylesheet(dark),
  });
}

/** A label's size as drawn on screen, px: its font size in the drawing's units times the zoom. */
function drawnFontPx(cy: cytoscape.Core, id: string): number {
  return cy.getElementById(id).numericStyle("font-size") * cy.zoom();
}

describe("the graph drawing's style", () => {
  it("draws every label at 11 px or more when a neighbourhood is fitted at half size or less", () => {
    const cy = drawing();
    for (const zoom of [0.5, 0.3]) {
      cy.zoom(zoom);
      cy.style().update();
      expect(drawnFontPx(cy, "e7")).toBeCloseTo(LABEL_PX.edge);
      expect(drawnFontPx(cy, "n2")).toBeCloseTo(LABEL_PX.node);
      expect(drawnFontPx(cy, "n1")).toBeCloseTo(LABEL_PX.center);
      for (const id of ["e7", "n1", "n2"]) expect(drawnFontPx(cy, id)).toBeGreaterThanOrEqual(11);
    }
    cy.destroy();
  });

  it("lets labels grow with the drawing when zoomed in", () => {
    const cy = drawing();
    cy.zoom(2);
    cy.style().update();
    expect(drawnFontPx(cy, "e7")).toBeCloseTo(2 * LABEL_PX.edge);
    cy.destroy();
  });

  it("draws the selected edge thicker and in the accent colour, in either theme", () => {
    for (const dark of [false, true]) {
      const cy = drawing(dark);
      const edge = cy.getElementById("e7");
      const before = { width: edge.numericStyle("width"), color: edge.style("line-color") };
      edge.select();
      expect(edge.numericStyle("width")).toBeGreaterThanOrEqual(before.width * 2);
      expect(edge.style("line-color")).not.toBe(before.color);
      expect(edge.style("line-color")).toBe(dark ? "rgb(190,206,239)" : "rgb(36,50,81)");
      expect(edge.style("target-arrow-color")).toBe(edge.style("line-color"));
      cy.destroy();
    }
  });
});
