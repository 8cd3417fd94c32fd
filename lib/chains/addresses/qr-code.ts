import QRCode from "qrcode";

/** Recent addresses' QR codes (a few kB each), oldest dropped first: answers about fresh invoices reuse them. */
const qrCache = new Map<string, string>();
const QR_CACHE_LIMIT = 2_000;

/** Light modules around the symbol, in module widths. */
const QUIET_ZONE = 1;

const [M, m, h, SPACE, POINT, ZERO, FIVE] = Array.from("Mmh .05", (char) => char.charCodeAt(0));

/** Appends ASCII to a buffer sized ahead: the SVG of a symbol is written as bytes, not built as a string. */
class AsciiWriter {
  readonly bytes: Buffer;
  length = 0;
  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }
  text(value: string): void {
    this.length += this.bytes.write(value, this.length, "latin1");
  }
  char(code: number): void {
    this.bytes[this.length++] = code;
  }
  /** A whole number from 0 to 999. */
  number(value: number): void {
    if (value >= 100) this.bytes[this.length++] = 48 + Math.floor(value / 100);
    if (value >= 10) this.bytes[this.length++] = 48 + (Math.floor(value / 10) % 10);
    this.bytes[this.length++] = 48 + (value % 10);
  }
}

/** The modules of a QR code, row by row (1 dark, 0 light), as the qrcode package's symbols hold them. */
export interface QrModules {
  size: number;
  data: Uint8Array;
}

/**
 * The symbol of some text: one byte-mode segment, error correction level M and mask pattern 0.
 * Choosing a segmentation and scoring all eight masks, as the package does by default, makes a
 * render take several times as long (`npm run bench`, part qr) and buys nothing for an address or
 * a URL: every mask is valid, and readers take the one the format bits name.
 */
export function encodeQrModules(text: string): QrModules {
  return QRCode.create([{ data: Buffer.from(text, "utf8"), mode: "byte" }], { errorCorrectionLevel: "M", maskPattern: 0 }).modules;
}

/**
 * The symbol as SVG: a white square and one path of horizontal dark runs, one stroke per run,
 * relative moves within a row: the package's own SVG less its final newline, written as bytes
 * (its string-built SVG makes a render take half as long again). SVG needs no image encoding and
 * stays sharp at any size.
 */
export function qrSvgBytesOf(symbol: QrModules): Buffer {
  const { size, data: modules } = symbol;
  const width = size + 2 * QUIET_ZONE;
  // At most one run in two modules of a row, "M123 123.5h123" at most per run.
  const out = new AsciiWriter(400 + size * Math.ceil(size / 2) * 16);
  out.text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ');
  out.number(width);
  out.text(" ");
  out.number(width);
  out.text('" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h');
  out.number(width);
  out.text("v");
  out.number(width);
  out.text('H0z"/><path stroke="#000000" d="');
  for (let row = 0; row < size; row++) {
    let penColumn = -1;
    for (let col = 0; col < size; ) {
      if (!modules[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && modules[row * size + col]) col++;
      if (penColumn < 0) {
        out.char(M);
        out.number(start + QUIET_ZONE);
        out.char(SPACE);
        out.number(row + QUIET_ZONE);
        out.char(POINT);
        out.char(FIVE);
      } else {
        out.char(m);
        out.number(start - penColumn);
        out.char(SPACE);
        out.char(ZERO);
      }
      out.char(h);
      out.number(col - start);
      penColumn = col;
    }
  }
  out.text('"/></svg>');
  return out.bytes.subarray(0, out.length);
}

/** Renders a `data:` URI (SVG) with a QR code of the text (see encodeQrModules), without caching it. */
export async function renderQrCode(text: string): Promise<string> {
  return `data:image/svg+xml;base64,${qrSvgBytesOf(encodeQrModules(text)).toString("base64")}`;
}

/** A `data:` URI with a QR code of the address (cached: addresses never change). */
export async function qrCodeOf(address: string | null): Promise<string> {
  if (!address) return "";
  let uri = qrCache.get(address);
  if (!uri) {
    uri = await renderQrCode(address);
    rememberQrCode(address, uri);
  }
  return uri;
}

/** Caches a QR code rendered elsewhere (the address pool's), so qrCodeOf does not render it again. */
export function rememberQrCode(address: string, uri: string): void {
  if (qrCache.size >= QR_CACHE_LIMIT) qrCache.delete(qrCache.keys().next().value!);
  qrCache.set(address, uri);
}
