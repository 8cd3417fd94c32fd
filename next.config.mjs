// JavaScript, not TypeScript: Next.js transpiles a next.config.ts with its native SWC binding at
// every start, which the production server then keeps loaded (about 25 MB resident and a thread pool).
import { PAGE_CONTENT_SECURITY_POLICY, securityHeaders } from "./lib/runtime/security-headers.mjs";

/**
 * Sent with every response Next.js serves (cabinet, hosted pages, documents, the API). The payment
 * page's fast path (lib/runtime/serve-hosted-page.tsx) sends the same, from the same module, with
 * its own script policy.
 */
const SECURITY_HEADERS = Object.entries(securityHeaders(PAGE_CONTENT_SECURITY_POLICY)).map(([key, value]) => ({ key, value }));

/** @type {import("next").NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
  // The generated Prisma client and the chain libraries run on the server only.
  // pino is loaded from node_modules as is: bundled, its worker-thread machinery breaks.
  // tiny-secp256k1 reads its WebAssembly file beside its own module, secp256k1 its prebuilt addon.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "prom-client", "secp256k1", "tiny-secp256k1"],
  experimental: {
    // No source maps beside the server bundles: the service runs with Node's source-map support
    // on (for its own TypeScript), which would read and keep every bundle's map, about 100 MB.
    turbopackSourceMaps: false,
  },
};

export default nextConfig;
