import { describe, expect, it } from "vitest";
import { searchText, spellingVariants, stem, termOf, tokenize } from "./terms";

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

  it("offers the American spellings of a British term, as the tokenizer gives both", () => {
    const variant = (word: string) => spellingVariants(tokenize(word)[0] as string);
    const term = (word: string) => tokenize(word)[0];
    expect(variant("realised")).toContain(term("realized"));
    expect(variant("parallelised")).toContain(term("parallelized"));
    expect(variant("optimisation")).toContain(term("optimization"));
    expect(variant("normalising")).toContain(term("normalizing"));
    expect(variant("analysed")).toContain(term("analyzed"));
    expect(variant("behaviour")).toContain(term("behavior"));
    expect(variant("colours")).toContain(term("colors"));
    expect(variant("modelling")).toContain(term("modeling"));
    expect(variant("labelled")).toContain(term("labeled"));
    expect(variant("programme")).toContain(term("program"));
    expect(variant("catalogue")).toContain(term("catalog"));
    // American or neutral terms have none, or none the search would ever read (it asks only for absent terms)
    for (const w of ["model", "attention", "retrieval", "hour", "bias", "four"]) {
      expect(spellingVariants(term(w) as string)).toEqual([]);
    }
  });
});
