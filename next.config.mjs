// JavaScript, not TypeScript: Next.js transpiles a next.config.ts with its native SWC binding at
// every start, which the production server then keeps loaded (about 25 MB resident and a thread pool).
/**
 * Sent with every response Next.js serves (cabinet, hosted pages, documents, the API): no page may
 * be framed by another site (clickjacking a cabinet approval or a claim), no URL — claim tokens
 * travel in paths — leaks in a Referer, no response is sniffed into another type. The payment
 * page's fast path (lib/runtime/serve-hosted-page.tsx) sends the same with its own script policy.
 */
const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'; object-src 'none'; base-uri 'self'" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

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
