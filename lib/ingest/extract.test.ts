import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LecternError } from "@/lib/errors";
import { extractPdf, parseInfoDict, parsePdfDate } from "@/lib/ingest/extract";
import { assertTextLayer } from "@/lib/ingest/validate";
import { makeImageOnlyPdf, makeTestPdf } from "@/lib/testing/pdf";

async function rejection(p: Promise<unknown>): Promise<LecternError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof LecternError) return e;
    throw e;
  }
  throw new Error("expected a LecternError");
}

const CORRUPT = /^This PDF is corrupt or unreadable: .+/;

describe("extractPdf", () => {
  it("returns the text of each page, in order, and the info dictionary", async () => {
    const pdf = await makeTestPdf({
      pages: ["Alpha page talks about cats.", "Beta page talks about dogs.", "Gamma page talks about owls."],
      title: "A Study of Animals",
      author: "Ada Lovelace, Alan Turing",
    });
    const out = await extractPdf(pdf);
    expect(out.pageCount).toBe(3);
    expect(out.pages).toHaveLength(3);
    expect(out.pages[0]).toContain("Alpha page talks about cats.");
    expect(out.pages[1]).toContain("Beta page");
    expect(out.pages[2]).toContain("owls");
    expect(out.info.title).toBe("A Study of Animals");
    expect(out.info.author).toBe("Ada Lovelace, Alan Turing");
    expect(out.info.creationDate).toBeInstanceOf(Date);
  });

  it("leaves the caller's bytes intact (pdf.js detaches the buffer it is given)", async () => {
    const pdf = await makeTestPdf({ pages: ["Some text to read back."] });
    const before = pdf.length;
    await extractPdf(pdf);
    expect(pdf.length).toBe(before);
    expect(String.fromCharCode(...pdf.slice(0, 5))).toBe("%PDF-");
  });

  it("reads in batches and reports progress per batch", async () => {
    const pdf = await makeTestPdf({ pages: Array.from({ length: 7 }, (_, i) => `This is page number ${i + 1}.`) });
    const progress: Array<[number, number]> = [];
    const out = await extractPdf(pdf, { batchSize: 3, onProgress: (d, t) => progress.push([d, t]) });
    expect(out.pages.map((p) => p.trim())).toEqual(
      Array.from({ length: 7 }, (_, i) => `This is page number ${i + 1}.`),
    );
    expect(progress).toEqual([
      [0, 7],
      [3, 7],
      [6, 7],
      [7, 7],
    ]);
  });

  it("stops when the signal is aborted", async () => {
    const pdf = await makeTestPdf({ pages: Array.from({ length: 6 }, (_, i) => `Page ${i + 1} text.`) });
    const controller = new AbortController();
    const seen: number[] = [];
    const run = extractPdf(pdf, {
      batchSize: 2,
      signal: controller.signal,
      onProgress: (done) => {
        seen.push(done);
        if (done === 2) controller.abort(new Error("user cancelled"));
      },
    });
    await expect(run).rejects.toThrow("user cancelled");
    expect(seen).toEqual([0, 2]);
    const already = new AbortController();
    already.abort(new Error("too late"));
    await expect(extractPdf(pdf, { signal: already.signal })).rejects.toThrow("too late");
  });

  it("handles a large page count in batches, keeping physical page numbers", async () => {
    const total = 1500;
    const pages = Array.from({ length: total }, (_, i) =>
      i === 1233 ? "Page with the distinctive word xylophonist." : `Short page ${i + 1}.`,
    );
    const pdf = await makeTestPdf({ pages });
    const progress: number[] = [];
    // the event loop keeps turning while pdf.js works through the pages
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const out = await extractPdf(pdf, { onProgress: (done) => progress.push(done) });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(20);
    expect(out.pageCount).toBe(total);
    expect(out.pages).toHaveLength(total);
    expect(out.pages.findIndex((p) => p.includes("xylophonist"))).toBe(1233);
    expect(out.pages[0]).toContain("Short page 1.");
    expect(out.pages[total - 1]).toContain(`Short page ${total}.`);
    // default batch of 50 pages: 30 batches plus the initial 0
    expect(progress).toHaveLength(31);
    expect(progress.at(-1)).toBe(total);
    // about 8 s on its own (2.5 s to generate the PDF, 5-6 s to read it); room for a busy machine
  }, 90_000);
});

describe("extractPdf on bad input", () => {
  it("refuses zero bytes as unreadable", async () => {
    const e = await rejection(extractPdf(new Uint8Array()));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toMatch(CORRUPT);
  });

  it("refuses a text file named .pdf", async () => {
    const text = new TextEncoder().encode("These are my notes.\n".repeat(40));
    const e = await rejection(extractPdf(text));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toMatch(CORRUPT);
  });

  it("refuses a truncated PDF", async () => {
    const pdf = await makeTestPdf({ pages: ["Some text on a page.", "More text on another page."] });
    for (const cut of [0.5, 0.25]) {
      const e = await rejection(extractPdf(pdf.slice(0, Math.floor(pdf.length * cut))));
      expect(e.code).toBe("bad_request:pdf");
      expect(e.message).toMatch(CORRUPT);
    }
  });

  it("refuses a PDF whose objects are destroyed", async () => {
    const pdf = await makeTestPdf({ pages: ["Some text on a page."] });
    const broken = Buffer.from(
      Buffer.from(pdf)
        .toString("latin1")
        .replace(/\d+ 0 obj/g, "garbage"),
      "latin1",
    );
    const e = await rejection(extractPdf(new Uint8Array(broken)));
    expect(e.message).toMatch(CORRUPT);
  });

  it("recovers from a scrambled xref table (pdf.js rebuilds it) and still reads the text", async () => {
    const pdf = await makeTestPdf({ pages: ["Recoverable text on page one."] });
    const s = Buffer.from(pdf).toString("latin1");
    const at = s.lastIndexOf("xref");
    const scrambled = Buffer.from(s.slice(0, at) + s.slice(at).replace(/\d/g, "7"), "latin1");
    const out = await extractPdf(new Uint8Array(scrambled));
    expect(out.pages[0]).toContain("Recoverable text on page one.");
  });

  it("a PDF whose content streams are garbled extracts no text, which the text-layer check refuses", async () => {
    const pdf = await makeTestPdf({ pages: ["Text that will be garbled away."] });
    const s = Buffer.from(pdf).toString("latin1");
    const garbled = s.replace(/stream\r?\n[\s\S]*?endstream/g, (m) => m.replace(/[A-Za-z]/g, "x"));
    const out = await extractPdf(new Uint8Array(Buffer.from(garbled, "latin1")));
    expect(() => assertTextLayer(out.pages)).toThrow(/no text layer/);
  });

  it("refuses an encrypted PDF with a clear message", async () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(__dirname, "../testing/fixtures/encrypted.pdf")));
    const e = await rejection(extractPdf(bytes));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toBe("This PDF is encrypted (password-protected). Remove the password and upload it again.");
  });

  it("an image-only PDF extracts, and the text-layer check refuses it", async () => {
    const out = await extractPdf(await makeImageOnlyPdf(3));
    expect(out.pageCount).toBe(3);
    expect(out.pages.every((p) => p.trim() === "")).toBe(true);
    expect(() => assertTextLayer(out.pages)).toThrow(
      "This PDF has no text layer (it looks scanned). Run OCR on it first (e.g. ocrmypdf) and upload the result.",
    );
  });
});

describe("parsePdfDate", () => {
  it("parses full and partial PDF dates with offsets", () => {
    expect(parsePdfDate("D:20170612183000Z")?.toISOString()).toBe("2017-06-12T18:30:00.000Z");
    expect(parsePdfDate("D:20191113180546+05'30'")?.toISOString()).toBe("2019-11-13T12:35:46.000Z");
    expect(parsePdfDate("D:20200101000000-08'00'")?.toISOString()).toBe("2020-01-01T08:00:00.000Z");
    expect(parsePdfDate("D:2017")?.toISOString()).toBe("2017-01-01T00:00:00.000Z");
    expect(parsePdfDate("20170612")?.toISOString()).toBe("2017-06-12T00:00:00.000Z");
  });

  it("rejects junk and impossible dates", () => {
    expect(parsePdfDate("")).toBeUndefined();
    expect(parsePdfDate("yesterday")).toBeUndefined();
    expect(parsePdfDate("D:20171399")).toBeUndefined();
  });
});

describe("parseInfoDict", () => {
  it("keeps non-empty strings and a parsed creation date", () => {
    const info = parseInfoDict({
      Title: "  Attention Is All You Need ",
      Author: "",
      Subject: "cs.CL",
      Keywords: null,
      CreationDate: "D:20171207010315Z",
      Trapped: { name: "False" },
    });
    expect(info).toEqual({
      title: "Attention Is All You Need",
      subject: "cs.CL",
      creationDate: new Date("2017-12-07T01:03:15Z"),
    });
    expect(parseInfoDict(undefined)).toEqual({});
  });
});
