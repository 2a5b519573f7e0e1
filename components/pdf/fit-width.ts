/** Below this viewport width (Tailwind's `sm`, 40rem) the viewer is on a phone: the page gets the whole width. */
export const PHONE_QUERY = "(width < 40rem)";

/** The space left around the page on wider screens (on top of the scroller's own padding), so it sits on a backdrop. */
const GUTTER = 32;
/** Narrower than this, a page is unreadable at any zoom: the scroller scrolls sideways instead. */
const MIN_WIDTH = 200;

/**
 * The width to render a PDF page at: the scroller's content width (null until measured: pdf.js then uses the page's
 * own size) times the zoom, less a gutter on wider screens. On a phone there is no gutter (and the scroller has no
 * padding there) so that at 100% the page fills the screen from edge to edge: with the gutter, a 390-pixel phone got a
 * page 292 pixels wide, its text too small to read.
 */
export function fitPageWidth(containerWidth: number, zoom: number, phone: boolean): number | undefined {
  if (containerWidth <= 0) return undefined;
  const gutter = phone ? 0 : GUTTER;
  return Math.max(MIN_WIDTH, Math.floor((containerWidth - gutter) * zoom));
}
