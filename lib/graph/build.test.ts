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
    // "on WidgetNet, BarQA and BazNet": WidgetNet is a model, so the list is not one of datasets; the paper's method
    // run on a model uses it, and the list's other names (of no known kind) are not taken from it
    expect(edges.filter((e) => e.includes("BazNet"))).toEqual([]);
    expect(
      v.valid.filter((e) => e.relation === "uses" && e.target.name === "WidgetNet").map((e) => e.quote.slice(0, 30)),
    ).toEqual(["We evaluate the downstream per", "We fine-tune the WidgetNet mod"]);
    expect(rejected.type_mismatch).toBeGreaterThan(0);
  });

  it("another method's results on models, or a model's own output, are not turned into uses", () => {
    const a = paper("a", "Gizmo: Widgets", [
      "We fine-tune the WidgetNet model for two epochs in all of our experiments here.\n" +
        "We fine-tune the BazNet model for two epochs in all of our experiments here.\n" +
        "The WidgetNet model and the BazNet model are initialised from the same checkpoint in every run.\n" +
        "In their experiments, Sprocket outperforms Cog on WidgetNet and BazNet in every setting they report.\n" +
        "For WidgetNet and BazNet, we report scores of Gizmo in every setting that we tried here.",
    ]);
    const x = extractWithRules(a);
    const typeOf = settleTypes([x], new Map());
    expect(typeOf("WidgetNet")).toBe("Model");
    const edges = (extraction: typeof x) =>
      validateExtraction(a, extraction, { typeOf }).valid.map(
        (e) => `${e.relation} ${e.source.name} -> ${e.target.name}`,
      );
    // another method's results on models (the sentence evaluates), and ours where nothing is evaluated
    expect(edges(x).filter((e) => e.startsWith("uses Sprocket"))).toEqual([]);
    expect(edges(x).filter((e) => e.startsWith("uses Gizmo"))).toEqual([
      "uses Gizmo -> WidgetNet",
      "uses Gizmo -> BazNet",
    ]);
    // the same claim from a model: the relation it gave is kept, and fails the type check
    const model = {
      ...x,
      candidates: [
        {
          relation: "evaluates_on" as const,
          source: { name: "Gizmo", type: "Method" as const },
          target: { name: "WidgetNet", type: "Dataset" as const },
          page: 1,
          quote: "We fine-tune the WidgetNet model for two epochs in all of our experiments here.",
          confidence: 0.9,
          extractor: "mock-model",
        },
      ],
    };
    expect(edges(model)).toEqual([]);
  });
});
