import { deflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestPdf } from "@/lib/testing/pdf";
import { extractPdf } from "./extract";
import { createExtractionPool } from "./extract-pool";
import { checkInflatedSize, INFLATE_LIMIT_MB } from "./pdf-read.mjs";

/** A one-page PDF written by hand, its page's content and an image as Flate streams of these bytes. */
function pdfWith(content: Uint8Array, image?: Uint8Array): Uint8Array {
  const parts: (string | Uint8Array)[] = [
    "%PDF-1.4\n",
    "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n",
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n",
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n",
    `4 0 obj << /Length ${content.length} /Filter /FlateDecode >>\nstream\n`,
    content,
    "\nendstream\nendobj\n",
  ];
  if (image) {
    parts.push(
      `5 0 obj << /Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray /Length ${image.length} /Filter /FlateDecode >>\nstream\n`,
      image,
      "\nendstream\nendobj\n",
    );
  }
  parts.push("trailer << /Root 1 0 R >>\n%%EOF\n");
  return Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));
}

const MB = 1024 * 1024;
const pool = createExtractionPool(1);
afterAll(() => pool.close());

describe("a PDF whose compressed content expands without bound (a decompression bomb)", () => {
  it("counts what its streams other than images expand to, and stops past the limit", () => {
    const text = deflateSync(Buffer.from("BT /F1 12 Tf 72 712 Td (Hello widgets) Tj ET"));
    expect(checkInflatedSize(pdfWith(text), MB)).toBe(44);
    // an image expands as far as it likes: reading text never decodes it
    expect(checkInflatedSize(pdfWith(text, deflateSync(Buffer.alloc(4 * MB))), MB)).toBe(44);
    // a stream zlib cannot read is pdf.js's to judge
    expect(checkInflatedSize(pdfWith(new Uint8Array([1, 2, 3, 4])), MB)).toBe(0);
    const bomb = pdfWith(deflateSync(Buffer.alloc(4 * MB)));
    expect(bomb.length).toBeLessThan(10_000);
    expect(() => checkInflatedSize(bomb, MB)).toThrow(/expands to more than 1 MB/);
    try {
      checkInflatedSize(bomb, MB);
    } catch (e) {
      expect((e as Error).name).toBe("PdfBombException");
    }
  });

  it("is refused with a clear error at the default limit, in the reader's thread and in this one; good PDFs still read", async () => {
    const bomb = pdfWith(deflateSync(Buffer.alloc((INFLATE_LIMIT_MB + 8) * MB), { level: 1 }));
    const refused = { name: "LecternError", code: "bad_request:pdf" };
    const message = new RegExp(
      `does not read this PDF: its compressed content expands to more than ${INFLATE_LIMIT_MB} MB`,
    );
    await expect(pool.extract(bomb)).rejects.toMatchObject(refused);
    await expect(pool.extract(bomb)).rejects.toThrow(message);
    await expect(extractPdf(bomb)).rejects.toThrow(message);
    // (a Buffer, as read from disk: its bytes stay the caller's, in the pool and in this thread)
    const good = Buffer.from(await makeTestPdf({ pages: ["Widgets are small.", "Gadgets are large."] }));
    expect((await pool.extract(good)).pages[1]).toContain("Gadgets are large");
    expect((await extractPdf(good)).pages[0]).toContain("Widgets are small");
    expect(good.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(Buffer.from(bomb.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
  });
});
