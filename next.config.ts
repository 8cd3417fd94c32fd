import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The generated Prisma client and the chain libraries run on the server only.
  // pino is loaded from node_modules as is: bundled, its worker-thread machinery breaks.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "prom-client"],
};

export default nextConfig;
