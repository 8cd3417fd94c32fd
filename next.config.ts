import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The generated Prisma client and the chain libraries run on the server only.
  serverExternalPackages: ["@electric-sql/pglite"],
};

export default nextConfig;
