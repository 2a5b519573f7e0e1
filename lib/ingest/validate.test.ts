import { describe, expect, it } from "vitest";
import { LecternError } from "@/lib/errors";
import { assertTextLayer, checkUploadSize, hasPdfHeader, validatePdfBytes } from "@/lib/ingest/validate";
import { makeTestPdf } from "@/lib/testing/pdf";

const MB = 1024 * 1024;

function caught(fn: () => void): LecternError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LecternError) return e;
    throw e;
  }
  throw new Error("expected a LecternError");
}

describe("checkUploadSize", () => {
  it("refuses an empty file", () => {
    const e = caught(() => checkUploadSize(0, 10 * MB));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toBe("The file is empty (0 bytes).");
    expect(e.status).toBe(400);
  });

  it("refuses a file over the limit, naming the size, the limit and the setting", () => {
    const e = caught(() => checkUploadSize(150 * MB, 100 * MB));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toContain("150 MB");
    expect(e.message).toContain("100 MB");
    expect(e.message).toContain("LECTERN_MAX_UPLOAD_MB");
  });

  it("accepts sizes up to and including the limit", () => {
    expect(() => checkUploadSize(1, 10 * MB)).not.toThrow();
    expect(() => checkUploadSize(10 * MB, 10 * MB)).not.toThrow();
    expect(() => checkUploadSize(10 * MB + 1, 10 * MB)).toThrow(LecternError);
  });
});

describe("validatePdfBytes", () => {
  it("accepts a real PDF", async () => {
    const pdf = await makeTestPdf({ pages: ["Hello"] });
    expect(() => validatePdfBytes(pdf, { maxBytes: 10 * MB })).not.toThrow();
  });

  it("refuses zero bytes", () => {
    expect(caught(() => validatePdfBytes(new Uint8Array(), { maxBytes: MB })).message).toBe(
      "The file is empty (0 bytes).",
    );
  });

  it("refuses a text file whatever its name says", () => {
    const text = new TextEncoder().encode("Just some notes, saved as notes.pdf\n");
    const e = caught(() => validatePdfBytes(text, { maxBytes: MB }));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toBe("This file is not a PDF (its content does not start with a PDF header).");
  });

  it("checks the size before the content", () => {
    const big = new Uint8Array(2048).fill(0x41);
    expect(caught(() => validatePdfBytes(big, { maxBytes: 1024 })).message).toContain("too large");
  });

  it("accepts the header after a little leading junk, not after the first KB", () => {
    const header = new TextEncoder().encode("%PDF-1.7\n");
    const early = new Uint8Array(600 + header.length);
    early.set(header, 600);
    expect(hasPdfHeader(early)).toBe(true);
    const late = new Uint8Array(1100 + header.length);
    late.set(header, 1100);
    expect(hasPdfHeader(late)).toBe(false);
    expect(() => validatePdfBytes(late, { maxBytes: MB })).toThrow(/not a PDF/);
    // the header straddling the 1 KB boundary does not count either
    const straddle = new Uint8Array(1030);
    straddle.set(header, 1021);
    expect(hasPdfHeader(straddle)).toBe(false);
  });
});

describe("assertTextLayer", () => {
  const message =
    "This PDF has no text layer (it looks scanned). Run OCR on it first (e.g. ocrmypdf) and upload the result.";

  it("refuses pages without text", () => {
    const e = caught(() => assertTextLayer(["", " \n ", ""]));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toBe(message);
    expect(() => assertTextLayer([])).toThrow(message);
  });

  it("refuses a long scan with a short stamp on every page", () => {
    expect(() => assertTextLayer(Array.from({ length: 40 }, (_, i) => `Scan ${i + 1}`))).toThrow(message);
  });

  it("says so when the PDF has text, but cleaning left too little (the same lines on every page)", () => {
    // a page's worth of text (~290 word characters), the same on every page
    const raw = Array.from({ length: 12 }, () => "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(6));
    const e = caught(() => assertTextLayer(["", "", ""], raw));
    expect(e.code).toBe("bad_request:pdf");
    expect(e.message).toMatch(/^This PDF's text repeats from page to page/);
    // a scan is still a scan, its repository stamp on every page (removed as a running line) included
    expect(() => assertTextLayer(["", ""], ["", "Scan 2"])).toThrow(message);
    const stamp = "Downloaded from https://academic.example.org/journal by guest on 12 May 2024";
    expect(() =>
      assertTextLayer(
        Array.from({ length: 30 }, () => ""),
        Array.from({ length: 30 }, () => stamp),
      ),
    ).toThrow(message);
  });

  it("does not count punctuation or symbols as text", () => {
    expect(() => assertTextLayer(["· · · — — — ∗ ∗ ∗ . . . , , , ; ; ; ( ) [ ] { } | | |"])).toThrow(message);
  });

  it("accepts ordinary text, even with some empty pages (figures)", () => {
    const page = "The Transformer relies entirely on attention to compute representations of its input and output.";
    expect(() => assertTextLayer([page])).not.toThrow();
    expect(() => assertTextLayer([page, "", page, ""])).not.toThrow();
  });
});
