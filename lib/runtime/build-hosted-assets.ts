import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import tailwind from "@tailwindcss/postcss";
import { build, transform } from "esbuild";
import postcss from "postcss";
import { COMPRESSED_SUFFIXES, contentAddressedName, HOSTED_ASSET_DIR, HOSTED_ASSET_MANIFEST, type HostedAssetManifest } from "./hosted-assets";

const ROOT = process.cwd();
/** The browsers Next builds for by default; the pages the server renders itself support the same. */
const BROWSER_TARGETS = ["chrome111", "edge111", "firefox111", "safari16.4"];

/** The payment page's script: React and the page's components, minified, one file. */
async function bundlePaymentScript(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(ROOT, "components", "hosted", "standalone-payment-page.entry.tsx")],
    bundle: true,
    write: false,
    minify: true,
    format: "iife",
    target: BROWSER_TARGETS,
    jsx: "automatic",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    define: { "process.env.NODE_ENV": '"production"' },
    // The components' "use client" marks are for Next's bundler; here every module is the browser's.
    logOverride: { "unsupported-directive": "silent" },
    logLevel: "warning",
  });
  return result.outputFiles[0].text;
}

/** app/globals.css through Tailwind as Next compiles it for production (whatever NODE_ENV says), minified. */
async function compileStylesheet(): Promise<string> {
  const source = path.join(ROOT, "app", "globals.css");
  const compiled = await postcss([tailwind({ base: ROOT, optimize: { minify: true } })]).process(fs.readFileSync(source, "utf8"), { from: source });
  const minified = await transform(compiled.css, { loader: "css", minify: true, target: BROWSER_TARGETS });
  return minified.code;
}

/** Builds the assets into the directory named by the first argument (default HOSTED_ASSET_DIR), replacing an earlier build's. */
async function main(): Promise<void> {
  const directory = path.resolve(process.argv[2] ?? HOSTED_ASSET_DIR);
  const [script, stylesheet] = await Promise.all([bundlePaymentScript(), compileStylesheet()]);
  const manifest: HostedAssetManifest = {
    paymentScript: contentAddressedName("payment-page", ".js", script),
    stylesheet: contentAddressedName("hosted", ".css", stylesheet),
  };
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  for (const [name, content] of [
    [manifest.paymentScript, script],
    [manifest.stylesheet, stylesheet],
  ] as const) {
    // Compressed once here, at the highest levels, rather than at every start.
    const body = Buffer.from(content, "utf8");
    fs.writeFileSync(path.join(directory, name), body);
    fs.writeFileSync(path.join(directory, name + COMPRESSED_SUFFIXES.gzip), gzipSync(body, { level: 9 }));
    fs.writeFileSync(path.join(directory, name + COMPRESSED_SUFFIXES.brotli), brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
  fs.writeFileSync(path.join(directory, HOSTED_ASSET_MANIFEST), JSON.stringify(manifest));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
