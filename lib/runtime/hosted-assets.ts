import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The browser files of the pages the server renders itself (lib/runtime/serve-hosted-page.tsx): a
 * script bundled from components/hosted/standalone-payment-page.entry.tsx and the stylesheet of
 * app/globals.css. Built beside Next's build (lib/runtime/build-hosted-assets.ts), named by their
 * content so browsers keep them for good, each beside its brotli (`.br`) and gzip (`.gz`) form.
 */
export const HOSTED_ASSET_DIR = path.join(process.cwd(), ".next", "gateway-hosted");
/** The manifest's name in the asset directory: which file is which. */
export const HOSTED_ASSET_MANIFEST = "manifest.json";
/** Where the server answers them; outside Next's `/_next/`. */
export const HOSTED_ASSET_PATH = "/_hosted/";

export interface HostedAssetManifest {
  /** The payment page's script, a file name in HOSTED_ASSET_DIR. */
  paymentScript: string;
  stylesheet: string;
}

export interface HostedAsset {
  contentType: string;
  etag: string;
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

export interface HostedAssets {
  /** The URLs the document names. */
  paymentScriptUrl: string;
  stylesheetUrl: string;
  /** An asset by the file name after HOSTED_ASSET_PATH; undefined for any other name. */
  find(name: string): HostedAsset | undefined;
}

const CONTENT_TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

/** A file's name with a digest of its content: `payment-page.3f2a9c1d.js`. */
export function contentAddressedName(stem: string, extension: string, content: string | Buffer): string {
  return `${stem}.${createHash("sha256").update(content).digest("hex").slice(0, 12)}${extension}`;
}

function readManifest(directory: string): HostedAssetManifest {
  return JSON.parse(fs.readFileSync(path.join(directory, HOSTED_ASSET_MANIFEST), "utf8")) as HostedAssetManifest;
}

/** The compressed forms written beside each asset, by their file suffix. */
export const COMPRESSED_SUFFIXES = { brotli: ".br", gzip: ".gz" } as const;

/** Every file the manifest names, compressed forms included. */
function filesOf(manifest: HostedAssetManifest): string[] {
  return [manifest.paymentScript, manifest.stylesheet].flatMap((name) => [name, name + COMPRESSED_SUFFIXES.brotli, name + COMPRESSED_SUFFIXES.gzip]);
}

/** Whether the build holds the assets its manifest names. */
export function hasHostedAssets(directory = HOSTED_ASSET_DIR): boolean {
  if (!fs.existsSync(path.join(directory, HOSTED_ASSET_MANIFEST))) return false;
  return filesOf(readManifest(directory)).every((name) => fs.existsSync(path.join(directory, name)));
}

/** Reads the built assets once, compressed at build time: every request is then a buffer write. */
export function loadHostedAssets(directory = HOSTED_ASSET_DIR): HostedAssets {
  const manifest = readManifest(directory);
  const read = (name: string) => fs.readFileSync(path.join(directory, name));
  const byName = new Map<string, HostedAsset>();
  for (const name of [manifest.paymentScript, manifest.stylesheet]) {
    byName.set(name, {
      contentType: CONTENT_TYPES[path.extname(name)] ?? "application/octet-stream",
      etag: `"${name}"`,
      body: read(name),
      gzip: read(name + COMPRESSED_SUFFIXES.gzip),
      brotli: read(name + COMPRESSED_SUFFIXES.brotli),
    });
  }
  return {
    paymentScriptUrl: HOSTED_ASSET_PATH + manifest.paymentScript,
    stylesheetUrl: HOSTED_ASSET_PATH + manifest.stylesheet,
    find: (name) => byName.get(name),
  };
}
