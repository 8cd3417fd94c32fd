import QRCode from "qrcode";

/** Recent addresses' QR codes (a few kB each), oldest dropped first: answers about fresh invoices reuse them. */
const qrCache = new Map<string, string>();
const QR_CACHE_LIMIT = 2_000;

/**
 * Renders a `data:` URI (SVG) with a QR code of the text, without caching it. One byte-mode
 * segment and a fixed mask pattern: choosing the segmentation and scoring all eight masks took
 * four fifths of the time, and buy nothing for an address, whose codewords already look random
 * (every mask is valid; readers take the one the format bits name).
 */
export async function renderQrCode(text: string): Promise<string> {
  // SVG: no image encoding on the request path, and it stays sharp at any size.
  const svg = await QRCode.toString([{ data: Buffer.from(text, "utf8"), mode: "byte" }], { type: "svg", errorCorrectionLevel: "M", margin: 1, maskPattern: 0 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
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
