import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDALONE_PROPS_ID, type StandalonePaymentProps } from "@/components/hosted/standalone-payment-page";
import { CATALOGUES } from "@/lib/i18n/translator";
import { loadHostedAssets, type HostedAssets } from "./hosted-assets";
import { createHostedPageServer, negotiateEncoding, readCookie, renderPaymentDocument } from "./serve-hosted-page";

describe("Accept-Encoding and Cookie", () => {
  it("picks the first offered encoding the client accepts, a q of 0 refusing it", () => {
    expect(negotiateEncoding("gzip, deflate, br, zstd", ["br", "gzip"])).toBe("br");
    expect(negotiateEncoding("gzip", ["br", "gzip"])).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0.5", ["br", "gzip"])).toBe("gzip");
    expect(negotiateEncoding("br;q=0.0, GZIP;q=0", ["br", "gzip"])).toBeNull();
    expect(negotiateEncoding("br", ["gzip"])).toBeNull();
    expect(negotiateEncoding(undefined, ["br", "gzip"])).toBeNull();
  });

  it("reads one cookie among others, decoded; absent is undefined", () => {
    expect(readCookie("a=1; NEXT_LOCALE=de; b=2", "NEXT_LOCALE")).toBe("de");
    expect(readCookie("x=%D1%80%D1%83", "x")).toBe("ру");
    expect(readCookie("NEXT_LOCALEX=de", "NEXT_LOCALE")).toBeUndefined();
    expect(readCookie(undefined, "NEXT_LOCALE")).toBeUndefined();
  });
});

const FAKE_ASSETS: HostedAssets = { paymentScriptUrl: "/_hosted/payment-page.0123456789ab.js", stylesheetUrl: "/_hosted/hosted.0123456789ab.css", find: () => undefined };

describe("the payment page's document", () => {
  it("names the page, its language and its two files, and renders the view on the server", () => {
    const html = renderPaymentDocument(FAKE_ASSETS, { locale: "de", messages: CATALOGUES.de, view: { kind: "not_found" } });
    expect(html).toMatch(/^<!DOCTYPE html><html lang="de">/);
    expect(html).toContain(`<title>${CATALOGUES.de.payment.notFoundTitle} · Gateway</title>`);
    expect(html).toContain('<script src="/_hosted/payment-page.0123456789ab.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="/_hosted/hosted.0123456789ab.css">');
    expect(html).toContain(`<h1 class="text-2xl font-semibold tracking-tight">${CATALOGUES.de.payment.notFoundTitle}</h1>`);
  });

  it("hands the browser exactly the props it rendered with, and no text can close the script element", () => {
    const hostile = "</script><script>alert(1)</script><!--";
    const messages = { ...CATALOGUES.en, common: { ...CATALOGUES.en.common, notFoundLabel: hostile } };
    const props: StandalonePaymentProps = { locale: "en", messages, view: { kind: "not_found" } };
    const html = renderPaymentDocument(FAKE_ASSETS, props);
    // The script of the page and the props element: the only two elements closed.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain("<!--");
    const json = new RegExp(`<script type="application/json" id="${STANDALONE_PROPS_ID}">(.*?)</script>`).exec(html)?.[1];
    expect(JSON.parse(json!)).toEqual(props);
  });
});

describe("the page's files under /_hosted/", () => {
  let directory: string;
  let assets: HostedAssets;
  let server: http.Server;
  let port: number;

  beforeAll(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "hosted-assets-"));
    const build = spawnSync(process.execPath, ["--import", "tsx", "lib/runtime/build-hosted-assets.ts", directory], { encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
    assets = loadHostedAssets(directory);
    const pages = createHostedPageServer(assets);
    server = http.createServer((request, response) => {
      if (pages.handle(request, response)) return;
      // What Next's handler would get.
      response.writeHead(418).end("passed on");
    });
    return new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => ((port = (server.address() as AddressInfo).port), resolve())));
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    fs.rmSync(directory, { recursive: true, force: true });
  });

  function get(target: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, path: target, method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      request.on("error", reject);
      request.end();
    });
  }

  it("serves the script brotli, gzip or plain as asked, the same bytes each way, cached for good", async () => {
    const plain = await get(assets.paymentScriptUrl);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const brotli = await get(assets.paymentScriptUrl, { "accept-encoding": "gzip, br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    const gzip = await get(assets.paymentScriptUrl, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);
  });

  it("answers 304 to a browser that has the file, and HEAD without a body", async () => {
    const first = await get(assets.stylesheetUrl);
    expect(first.headers["content-type"]).toBe("text/css; charset=utf-8");
    const again = await get(assets.stylesheetUrl, { "if-none-match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get(assets.stylesheetUrl, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBe(first.body.length);
    expect(head.body.length).toBe(0);
  });

  it("leaves every other request to Next: unknown files, other methods, the checkout and claim pages", async () => {
    for (const target of ["/_hosted/payment-page.000000000000.js", "/_hosted/", "/pay/link/abc", "/pay/claim/abc", "/payments/abc", "/"]) {
      expect((await get(target)).status, target).toBe(418);
    }
    expect((await get("/pay/abc", {}, "POST")).status).toBe(418);
  });

  it("carries React and the page only: no other language's words, no Next.js runtime", async () => {
    const script = (await get(assets.paymentScriptUrl)).body.toString("utf8");
    expect(script).toContain("hydrateRoot");
    expect(script).not.toContain(CATALOGUES.de.payment.picker.heading);
    expect(script).not.toContain(CATALOGUES.en.payment.picker.heading);
    expect(script).not.toContain("__next_f");
  });
});
