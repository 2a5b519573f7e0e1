import { describe, expect, it } from "vitest";
import { zoteroBibtex } from "@/lib/testing/zotero-export";
import { filePaths, parseBibliography, tagsAsCategories, trustedMetadataOfRecord } from "./bibliography";

describe("filePaths", () => {
  it.each([
    ["Full Text PDF:files/12/Vaswani - 2017.pdf:application/pdf", ["files/12/Vaswani - 2017.pdf"]],
    ["Snapshot:files/13/snap.html:text/html;Full Text:files/12/a.pdf:application/pdf", ["files/12/a.pdf"]],
    ["/home/ada/Zotero/storage/ABCD/paper.pdf", ["/home/ada/Zotero/storage/ABCD/paper.pdf"]],
    [":C\\:/Users/ada/paper.pdf:PDF", ["C:/Users/ada/paper.pdf"]],
    ["notes.txt", []],
    ["", []],
  ])("%j", (field, expected) => {
    expect(filePaths(field)).toEqual(expected);
  });
});

describe("parseBibliography: BibTeX", () => {
  it("reads a Zotero export: metadata, files, tags and arXiv ids", async () => {
    const bib = await parseBibliography(zoteroBibtex());
    expect(bib.format).toBe("bibtex");
    expect(bib.failures).toEqual([]);
    expect(bib.records.map((r) => r.key)).toEqual([
      "hoffmann2024tides",
      "okafor2023soil",
      "lee2019book",
      "vaswani2017attention",
    ]);
    expect(bib.records[0]).toEqual({
      key: "hoffmann2024tides",
      title: "Tidal Mixing in Shallow Estuaries",
      authors: ["Jürgen Hoffmann", "Ada Byron"],
      year: 2024,
      date: null,
      doi: "10.1234/tides.2024.7",
      venue: "Journal of Coastal Research",
      tags: expect.arrayContaining(["oceanography", "estuary dynamics"]),
      arxivId: null,
      files: ["files/3/Hoffmann - 2024 - Tidal Mixing.pdf"],
    });
    expect(bib.records[1]?.venue).toBe("Proceedings of the Soil Science Workshop");
    expect(bib.records[2]).toMatchObject({ files: [], arxivId: null, venue: "Field Press" });
    expect(bib.records[3]).toMatchObject({ arxivId: "1706.03762", files: [] });
  });

  it("finds arXiv ids in DOIs, URLs and journal fields", async () => {
    const bib = await parseBibliography(String.raw`
@article{a, title={A}, doi={10.48550/arXiv.2106.09685}}
@article{b, title={B}, url={https://arxiv.org/abs/2005.11401v4}}
@article{c, title={C}, journal={arXiv preprint arXiv:1810.04805}}
@article{d, title={D}, eprint={hep-th/9901001}, eprinttype={arxiv}}
@article{e, title={E}, eprint={12345}, eprinttype={pubmed}}
`);
    expect(bib.records.map((r) => r.arxivId)).toEqual([
      "2106.09685",
      "2005.11401v4",
      "1810.04805",
      "hep-th/9901001",
      null,
    ]);
  });

  it("reports an entry it cannot read instead of dropping it, and reads the rest", async () => {
    const bib = await parseBibliography("@article{good, title={Good}}\n@misc{broken, title = {Unclosed\n");
    expect(bib.records.map((r) => r.key)).toEqual(["good"]);
    expect(bib.failures).toEqual([{ key: "broken", error: expect.stringMatching(/^Could not be read: /) }]);
  });
});

describe("parseBibliography: CSL JSON", () => {
  it("reads Zotero's CSL JSON", async () => {
    const bib = await parseBibliography(
      JSON.stringify([
        {
          id: "http://zotero.org/users/1/items/ABCD",
          type: "article-journal",
          title: "Attention Is All You Need",
          author: [{ family: "Vaswani", given: "Ashish" }, { literal: "Google Brain" }],
          issued: { "date-parts": [[2017, 6, 12]] },
          DOI: "https://doi.org/10.48550/arXiv.1706.03762",
          "container-title": "arXiv",
          keyword: "transformers, attention",
        },
        "not an item",
      ]),
    );
    expect(bib.format).toBe("csl-json");
    expect(bib.records[0]).toMatchObject({
      title: "Attention Is All You Need",
      authors: ["Ashish Vaswani", "Google Brain"],
      year: 2017,
      date: "2017-06-12",
      doi: "10.48550/arXiv.1706.03762",
      arxivId: "1706.03762",
      tags: ["transformers", "attention"],
    });
    expect(bib.failures).toEqual([{ key: "item 2", error: "Not an item (expected an object)." }]);
  });

  it("refuses JSON that is not a list of items", async () => {
    await expect(parseBibliography('{"hello": 1}')).rejects.toThrow(/not a CSL JSON export/);
    await expect(parseBibliography("[1, 2")).rejects.toThrow(/could not be read/);
  });
});

describe("a record as trusted metadata", () => {
  it("turns tags into one-word categories", async () => {
    expect(tagsAsCategories(["machine learning", "NLP", "c++ / systems", ""])).toEqual([
      "machine-learning",
      "NLP",
      "c--systems",
    ]);
    const [record] = (await parseBibliography(zoteroBibtex())).records;
    expect(trustedMetadataOfRecord(record as never)).toMatchObject({
      title: "Tidal Mixing in Shallow Estuaries",
      authors: ["Jürgen Hoffmann", "Ada Byron"],
      year: 2024,
      doi: "10.1234/tides.2024.7",
      categories: expect.arrayContaining(["oceanography", "estuary-dynamics"]),
    });
  });
});
