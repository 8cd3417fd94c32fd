import QRCode from "qrcode";
import { renderQrCode } from "@/lib/chains/addresses/qr-code";

/** What the service renders as QR codes: deposit addresses, payment URIs and link URLs. */
export const QR_PAYLOADS = [
  { label: "address (TRON)", text: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" },
  { label: "BIP21 URI", text: "bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.00125&label=Order%2042" },
  { label: "EIP-681 URI", text: "ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x52908400098527886E0F7030069857D2E4169EE7&uint256=25000000" },
] as const;

export interface QrEncoderFigure {
  label: string;
  /** Renders per second for each payload of QR_PAYLOADS, in order. */
  perSecond: number[];
}

export interface QrFigures {
  /** The service's renderQrCode, measured in the same run: the others are compared with it. */
  baseline: QrEncoderFigure;
  encoders: QrEncoderFigure[];
}

type Render = (text: string) => Promise<string>;

const SVG_DATA_URI = "data:image/svg+xml;base64,";

/**
 * The qrcode package with the service's choices (one byte segment, level M, mask 0, a one-module
 * quiet zone) and its own SVG writer, which builds the service's SVG as a string, plus a final newline.
 */
const qrcodeSvg: Render = async (text) => {
  const svg = await QRCode.toString([{ data: Buffer.from(text, "utf8"), mode: "byte" }], { type: "svg", errorCorrectionLevel: "M", margin: 1, maskPattern: 0 });
  return SVG_DATA_URI + Buffer.from(svg.trimEnd(), "latin1").toString("base64");
};

/** The qrcode package as most callers use it: it picks the segments and scores all eight masks. */
const qrcodeDefaults: Render = async (text) => SVG_DATA_URI + Buffer.from(await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 1 })).toString("base64");

/** Renders `text` for about `milliseconds`; renders per second. */
async function measureRender(render: Render, text: string, milliseconds: number): Promise<{ renders: number; elapsedMs: number }> {
  let renders = 0;
  const started = performance.now();
  let elapsedMs = 0;
  do {
    for (let i = 0; i < 50; i++) await render(text);
    renders += 50;
    elapsedMs = performance.now() - started;
  } while (elapsedMs < milliseconds);
  return { renders, elapsedMs };
}

/**
 * Each encoder renders each payload in turns of `sliceMs`, the encoders interleaved so that drift
 * of the machine (frequency, other processes) falls on all of them alike; a warm-up turn first.
 */
export async function measureQrRendering(options: { seconds: number; sliceMs?: number }): Promise<QrFigures> {
  const sliceMs = options.sliceMs ?? 250;
  const encoders: Array<{ label: string; render: Render }> = [
    { label: "qrcode, SVG byte writer (renderQrCode)", render: renderQrCode },
    { label: "qrcode, same options, its SVG writer", render: qrcodeSvg },
    { label: "qrcode, default options (auto segments, 8 masks)", render: qrcodeDefaults },
  ];
  // The same picture from the service and the package's writer.
  for (const { text } of QR_PAYLOADS) {
    if ((await qrcodeSvg(text)) !== (await renderQrCode(text))) throw new Error(`the qrcode package's SVG writer draws another QR code of ${text}`);
  }
  const totals = encoders.map(() => QR_PAYLOADS.map(() => ({ renders: 0, elapsedMs: 0 })));
  for (const encoder of encoders) for (const { text } of QR_PAYLOADS) await measureRender(encoder.render, text, sliceMs);
  const rounds = Math.max(1, Math.round((options.seconds * 1000) / (sliceMs * encoders.length * QR_PAYLOADS.length)));
  for (let round = 0; round < rounds; round++) {
    for (const [encoderIndex, encoder] of encoders.entries()) {
      for (const [payloadIndex, { text }] of QR_PAYLOADS.entries()) {
        const { renders, elapsedMs } = await measureRender(encoder.render, text, sliceMs);
        totals[encoderIndex][payloadIndex].renders += renders;
        totals[encoderIndex][payloadIndex].elapsedMs += elapsedMs;
      }
    }
  }
  const figures = encoders.map((encoder, index) => ({ label: encoder.label, perSecond: totals[index].map((total) => (total.renders * 1000) / total.elapsedMs) }));
  return { baseline: figures[0], encoders: figures.slice(1) };
}
