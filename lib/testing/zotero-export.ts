import fs from "node:fs/promises";
import path from "node:path";
import { makeTestPdf } from "./pdf";

/**
 * A small Zotero-style BibTeX export written to `dir` (tests and e2e): `library.bib` beside `files/<n>/<name>.pdf`, as
 * Zotero's "Export Collection… → BibTeX, Export Files" makes it. Two entries link a PDF (the `file` field in Zotero's
 * `description:path:mime` form, one with LaTeX accents), one has neither PDF nor arXiv id, one is on arXiv only.
 */
export const ZOTERO_EXPORT = {
  withPdf: [
    {
      key: "hoffmann2024tides",
      title: "Tidal Mixing in Shallow Estuaries",
      authors: ["Jürgen Hoffmann", "Ada Byron"],
      year: 2024,
      doi: "10.1234/tides.2024.7",
      venue: "Journal of Coastal Research",
      tags: ["oceanography", "estuary dynamics"],
      file: "files/3/Hoffmann - 2024 - Tidal Mixing.pdf",
      text: "Tidal mixing in shallow estuaries is governed by the spring-neap cycle and the river discharge.",
    },
    {
      key: "okafor2023soil",
      title: "Soil Carbon Under Perennial Grasses",
      authors: ["Chinwe Okafor"],
      year: 2023,
      doi: null,
      venue: "Proceedings of the Soil Science Workshop",
      tags: ["soil"],
      file: "files/7/okafor-soil.pdf",
      text: "Perennial grasses store more soil carbon below thirty centimetres than annual crops do.",
    },
  ],
  metadataOnly: { key: "lee2019book", title: "A Field Guide to Lichens", authors: ["Min Lee"], year: 2019 },
  arxivOnly: { key: "vaswani2017attention", title: "Attention Is All You Need", arxivId: "1706.03762" },
} as const;

export function zoteroBibtex(): string {
  const [a, b] = ZOTERO_EXPORT.withPdf;
  return String.raw`% Zotero export
@article{${a.key},
  title = {Tidal {Mixing} in {Shallow} {Estuaries}},
  author = {Hoffmann, J{\"u}rgen and Byron, Ada},
  year = {2024},
  journal = {${a.venue}},
  doi = {${a.doi}},
  keywords = {oceanography, estuary dynamics},
  file = {Full Text PDF:${a.file}:application/pdf}
}

@inproceedings{${b.key},
  title = {${b.title}},
  author = {Okafor, Chinwe},
  year = {2023},
  booktitle = {${b.venue}},
  keywords = {soil},
  file = {Okafor_2023.pdf:${b.file}:application/pdf}
}

@book{${ZOTERO_EXPORT.metadataOnly.key},
  title = {${ZOTERO_EXPORT.metadataOnly.title}},
  author = {Lee, Min},
  year = {2019},
  publisher = {Field Press}
}

@misc{${ZOTERO_EXPORT.arxivOnly.key},
  title = {${ZOTERO_EXPORT.arxivOnly.title}},
  author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017},
  eprint = {${ZOTERO_EXPORT.arxivOnly.arxivId}},
  archiveprefix = {arXiv},
  primaryclass = {cs.CL}
}
`;
}

/** Writes the export; returns the .bib's path and each PDF's. */
export async function writeZoteroExport(dir: string): Promise<{ bib: string; pdfs: string[] }> {
  await fs.mkdir(dir, { recursive: true });
  const bib = path.join(dir, "library.bib");
  await fs.writeFile(bib, zoteroBibtex());
  const pdfs: string[] = [];
  for (const e of ZOTERO_EXPORT.withPdf) {
    const file = path.join(dir, e.file);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // the PDFs' own first lines are not their titles: the export's metadata must win
    await fs.writeFile(
      file,
      await makeTestPdf({ pages: [`Manuscript draft\n${e.text}`, `Second page. ${e.text} More words follow here.`] }),
    );
    pdfs.push(file);
  }
  return { bib, pdfs };
}
