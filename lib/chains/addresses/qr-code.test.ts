import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { encodeQr } from "@/lib/qr/qr-matrix";
import { qrCodeOf, qrSvgBytesOf, renderQrCode } from "./qr-code";

/** The dark modules an SVG of qrSvgBytesOf draws, read back from its path (absolute row starts, relative moves). */
function modulesDrawn(svg: string): { width: number; dark: Set<string> } {
  const width = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const path = /<path stroke="#000000" d="([^"]*)"/.exec(svg)![1];
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, command, first, second] of path.matchAll(/([Mmh])([\d.]+)(?: ([\d.]+))?/g)) {
    if (command === "M") [x, y] = [Number(first), Number(second) - 0.5];
    else if (command === "m") x += Number(first);
    else for (let end = x + Number(first); x < end; x++) dark.add(`${y},${x}`);
  }
  return { width, dark };
}

/** The drawing as RGBA pixels, `scale` pixels a module, as a camera would see it. */
function rasterise(svg: string, scale: number): { pixels: Uint8ClampedArray; side: number } {
  const { width, dark } = modulesDrawn(svg);
  const side = width * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let py = 0; py < side; py++) {
    for (let px = 0; px < side; px++) {
      if (!dark.has(`${Math.floor(py / scale)},${Math.floor(px / scale)}`)) continue;
      pixels.fill(0, (py * side + px) * 4, (py * side + px) * 4 + 3);
    }
  }
  return { pixels, side };
}

describe("QR codes of addresses", () => {
  it("draws exactly the symbol's dark modules, inside a one-module quiet zone", () => {
    const matrix = encodeQr(Buffer.from("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"));
    const { width, dark } = modulesDrawn(qrSvgBytesOf(matrix).toString("latin1"));
    expect(width).toBe(matrix.size + 2);
    const expected = new Set<string>();
    matrix.modules.forEach((module, index) => module && expected.add(`${Math.floor(index / matrix.size) + 1},${(index % matrix.size) + 1}`));
    expect(dark).toEqual(expected);
  });

  it("renders data: URIs a reader decodes back to the address or URL", async () => {
    for (const text of ["TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3", "https://pay.example.com/pay/link/0b0f5c4e"]) {
      const uri = await renderQrCode(text);
      expect(uri.startsWith("data:image/svg+xml;base64,")).toBe(true);
      const svg = Buffer.from(uri.slice("data:image/svg+xml;base64,".length), "base64").toString("utf8");
      const { pixels, side } = rasterise(svg, 4);
      expect(jsQR(pixels, side, side)?.data).toBe(text);
    }
  });

  it("answers an empty string for no address and the same URI again for the same address", async () => {
    expect(await qrCodeOf(null)).toBe("");
    expect(await qrCodeOf("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(await renderQrCode("0x52908400098527886E0F7030069857D2E4169EE7"));
  });
});
