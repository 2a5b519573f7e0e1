import { describe, expect, it } from "vitest";
import { settleTypes, validateExtraction } from "./build";
import { extractWithRules, type PaperText } from "./extract-rules";

const paper = (id: string, title: string, pages: string[]): PaperText => ({
  id,
  title,
  abstract: null,
  pages: pages.map((text, i) => ({ pageNumber: i + 1, text })),
});

describe("validateExtraction (pure)", () => {
  it("a dataset cue in one paper outweighs bare mentions elsewhere; a list with a model in it is not datasets", () => {
    const a = paper("a", "Gizmo: Widgets", [
      "We evaluate Gizmo on the FooQA dataset and BarQA in every setting we tried.\n" +
        "We evaluate the downstream performance of Gizmo on WidgetNet, BarQA and BazNet in this section.\n" +
        "We fine-tune the WidgetNet model for two epochs in all of our experiments here.",
    ]);
    const b = paper("b", "Other: Work", [
      "FooQA appears in this sentence. FooQA appears again here. FooQA and FooQA once more in this text.",
    ]);
    const xs = [a, b].map((p) => extractWithRules(p));
    const typeOf = settleTypes(xs, new Map());
    expect(typeOf("FooQA")).toBe("Dataset");
    expect(typeOf("WidgetNet")).toBe("Model");
    const rejected: Record<string, number> = {};
    const v = validateExtraction(a, xs[0] as (typeof xs)[0], { typeOf, rejected });
    const edges = v.valid.map((e) => `${e.relation} ${e.source.name} -> ${e.target.name}`);
    expect(edges).toContain("evaluates_on Gizmo -> FooQA");
    expect(edges).toContain("evaluates_on Gizmo -> BarQA");
    // "on WidgetNet, BarQA and BazNet": WidgetNet is a model, so the list is not one of datasets
    expect(edges.filter((e) => e.includes("BazNet"))).toEqual([]);
    expect(rejected.type_mismatch).toBeGreaterThan(0);
  });
});
