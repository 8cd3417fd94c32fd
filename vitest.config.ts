import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": fileURLToPath(new URL("./", import.meta.url)) };

// Three suites: pure unit tests; integration tests against a real PostgreSQL (or the embedded
// database with GATEWAY_TEST_DATABASE=embedded); end-to-end tests against `npm start`.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", env: { LOG_LEVEL: "silent" }, include: ["lib/**/*.test.ts", "client/**/*.test.ts"], exclude: ["**/*.int.test.ts", "node_modules/**"] },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          // Every request a test makes also checks the API document's promises (lib/api/contract.ts).
          env: { LOG_LEVEL: "silent", GATEWAY_CONTRACT: process.env.GATEWAY_CONTRACT ?? "check" },
          include: ["lib/**/*.int.test.ts", "inngest/**/*.int.test.ts", "client/**/*.int.test.ts"],
          globalSetup: ["lib/testing/global-setup.ts"],
          // Files run in parallel on one shared database; the embedded one serves one connection
          // at a time, and a pass of the payout sender sends every file's approved payouts: a test
          // may wait on others' work far longer than its own takes.
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.test.ts"],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
