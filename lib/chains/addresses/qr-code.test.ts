import jsQR from "jsqr";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { encodeQrModules, qrCodeOf, qrSvgBytesOf, renderQrCode } from "./qr-code";

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
    const symbol = encodeQrModules("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf");
    const { width, dark } = modulesDrawn(qrSvgBytesOf(symbol).toString("latin1"));
    expect(width).toBe(symbol.size + 2);
    const expected = new Set<string>();
    symbol.data.forEach((module, index) => module && expected.add(`${Math.floor(index / symbol.size) + 1},${(index % symbol.size) + 1}`));
    expect(dark).toEqual(expected);
  });

  it("writes the SVG the qrcode package writes for the same symbol: level M, one byte segment, mask 0, black on white", async () => {
    for (const text of ["TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", "https://pay.example.com/pay/link/0b0f5c4e-4c1f-4b9a-9d0e-5f7e2f2c3a11", "x".repeat(2331)]) {
      const packageSvg = await QRCode.toString([{ data: Buffer.from(text, "utf8"), mode: "byte" }], { type: "svg", errorCorrectionLevel: "M", margin: 1, maskPattern: 0 });
      expect(qrSvgBytesOf(encodeQrModules(text)).toString("latin1")).toBe(packageSvg.trimEnd());
    }
  });

  it("renders data: URIs a reader decodes back to the address or URL", async () => {
    for (const text of [
      "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
      "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
      "https://pay.example.com/pay/link/0b0f5c4e",
      "ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x52908400098527886E0F7030069857D2E4169EE7&uint256=25000000",
    ]) {
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
