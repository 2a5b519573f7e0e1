import { describe, expect, it } from "vitest";
import { americanSpelling, americanTerms, respelledTerms, searchText, stem, termOf, tokenize } from "./terms";

describe("terms", () => {
  it("keeps the words a question hinges on apart, where an aggressive stemmer would merge them", () => {
    // Snowball maps each pair to one lexeme (use, origin, differ, general)
    expect(stem("useful")).not.toBe(stem("use"));
    expect(stem("original")).not.toBe(stem("origin"));
    expect(stem("generation")).not.toBe(stem("general"));
    // while plain inflections still meet
    expect(stem("models")).toBe(stem("model"));
    expect(stem("retrieved")).toBe(stem("retriever"));
  });

  it("drops stop words, 1-letter words and long bare numbers but keeps short numbers and alphanumerics", () => {
    expect(termOf("the")).toBeNull();
    expect(termOf("x")).toBeNull();
    expect(termOf("123456")).toBeNull();
    expect(termOf("2017")).toBe("2017");
    expect(tokenize("GPT-3 has 175B parameters, trained in 2020.")).toEqual([
      "gpt",
      "175b",
      "paramet",
      "train",
      "2020",
    ]);
  });

  it("gives the index text: terms in order, space-separated, words over 64 characters left out", () => {
    expect(searchText("The Transformer's attention: scaled dot-products!")).toBe(
      "transform attention scal dot product",
    );
    expect(searchText(`${"a".repeat(70)} attention`)).toBe("attention");
    expect(searchText("")).toBe("");
    expect(searchText("of the and")).toBe("");
  });

  it("normalises compatibility forms and case like the query side does", () => {
    expect(searchText("ﬁne-tuning ＢＥＲＴ")).toBe(searchText("fine-tuning bert"));
  });

  it("lower-cases letters that only NFKC turns into capitals (mathematical alphanumerics)", () => {
    // 𝐀 (U+1D400) has no lower-case form of its own: lower-casing first left "Attention", "Weights" (unstemmed)
    expect(searchText("𝐀𝐭𝐭𝐞𝐧𝐭𝐢𝐨𝐧 𝑾𝒆𝒊𝒈𝒉𝒕𝒔")).toBe("attention weight");
    expect(tokenize("𝓛𝒐𝒔𝒔")).toEqual(tokenize("loss"));
    // and a stop word in capitals is still a stop word
    expect(tokenize("𝐓𝐡𝐞 𝐦𝐨𝐝𝐞𝐥")).toEqual(["model"]);
  });

  it("spells British words the American way, and leaves alone the words that only look British", () => {
    const pairs: [string, string][] = [
      ["realised", "realized"],
      ["organisation", "organization"],
      ["optimisation", "optimization"],
      ["summarise", "summarize"],
      ["characterised", "characterized"],
      ["parallelising", "parallelizing"],
      ["analysed", "analyzed"],
      ["paralyse", "paralyze"],
      ["behaviour", "behavior"],
      ["colours", "colors"],
      ["neighbouring", "neighboring"],
      ["modelling", "modeling"],
      ["labelled", "labeled"],
      ["travellers", "travelers"],
      ["signalled", "signaled"],
      ["catalogue", "catalog"],
      ["dialogues", "dialogs"],
      ["programme", "program"],
      ["programmes", "programs"],
    ];
    for (const [british, american] of pairs) expect(americanSpelling(british)).toBe(american);
    const alike = [
      ...["basis", "analysis", "emphasis", "crisis", "crises", "paris", "iris", "apis", "realm", "automl"],
      ...["devised", "revised", "surprise", "noise", "denoising", "pairwise", "otherwise", "supervised"],
      ...["unsupervised", "precise", "imprecise", "promising", "advertising", "raised", "arising", "exercise"],
      ...["excelled", "installed", "compelled", "called", "filled", "smaller", "spelling", "paralleled"],
      ...["four", "hour", "tour", "your", "flour", "devour", "detour", "model", "attention", "retrieval"],
    ];
    for (const word of alike) expect(americanSpelling(word)).toBeNull();
  });

  it("maps the terms of British words to the terms of their American spellings", () => {
    const terms = americanTerms(["realised", "optimisation", "behaviour", "modelling", "basis", "model"]);
    expect(terms).toEqual(
      new Map([
        [termOf("realised"), termOf("realized")],
        [termOf("optimisation"), termOf("optimization")],
        [termOf("behaviour"), termOf("behavior")],
        [termOf("modelling"), termOf("modeling")],
      ]),
    );
    // "optimisation" searches what "optimization" does, not what "optimized" does
    expect(terms.get("optimis")).toBe("optim");
  });

  it("respells a text's British words only where the passages at hand write them the American way", () => {
    const american = new Set(tokenize("The network memorized labels; we modeled it"));
    expect(respelledTerms("How are labels memorised, and how was it modelled?", (t) => american.has(t))).toEqual(
      new Map([
        [termOf("memorised"), termOf("memorized")],
        [termOf("modelled"), termOf("modeled")],
      ]),
    );
    // passages that write it the British way, or neither way, keep the question's term
    const british = new Set(tokenize("The network memorised labels"));
    expect(respelledTerms("How are labels memorised?", (t) => british.has(t)).size).toBe(0);
    expect(respelledTerms("How are labels memorised?", () => false).size).toBe(0);
  });
});
