import { PDFDocument, StandardFonts } from "pdf-lib";

/**
 * Test PDFs made on the spot (tests never need the real corpus). Each page's text is laid out in lines that fit the
 * page, so pdf.js extracts it back in reading order.
 */
export interface TestPdfOptions {
  /** Text of each page; `\n` starts a new line, long lines are wrapped. */
  pages: string[];
  title?: string;
  author?: string;
  /** Lines drawn at the top of every page (a running header). */
  header?: string;
  /** Drawn at the bottom of every page; `{n}` is replaced by the page number. */
  footer?: string;
}

export async function makeTestPdf(opts: TestPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (opts.title) doc.setTitle(opts.title);
  if (opts.author) doc.setAuthor(opts.author);
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const size = 11;
  const maxWidth = 612 - 2 * 60;
  opts.pages.forEach((pageText, i) => {
    const page = doc.addPage([612, 792]);
    let y = 792 - 60;
    if (opts.header) page.drawText(opts.header, { x: 60, y: 792 - 36, size: 9, font });
    for (const paragraph of pageText.split("\n")) {
      const words = paragraph.split(/\s+/).filter(Boolean);
      let line = "";
      const flush = () => {
        if (!line) return;
        page.drawText(line, { x: 60, y, size, font });
        y -= size * 1.4;
        line = "";
      };
      for (const w of words) {
        const next = line ? `${line} ${w}` : w;
        if (font.widthOfTextAtSize(next, size) > maxWidth) {
          flush();
          line = w;
        } else line = next;
      }
      flush();
      if (words.length === 0) y -= size * 1.4;
    }
    if (opts.footer) page.drawText(opts.footer.replace("{n}", String(i + 1)), { x: 290, y: 30, size: 9, font });
  });
  return doc.save({ useObjectStreams: false });
}

/** A PDF whose pages carry no text at all (like a scan without OCR). */
export async function makeImageOnlyPdf(pageCount = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pageCount; i++) {
    const page = doc.addPage([612, 792]);
    page.drawRectangle({ x: 100, y: 100, width: 400, height: 500, borderWidth: 2 });
  }
  return doc.save();
}
