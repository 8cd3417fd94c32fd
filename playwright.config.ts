import { defineConfig, devices } from "@playwright/test";

// Browser tests of the hosted pages. Each spec starts the service itself with `npm start`
// (e2e/testing/service.ts), so there is no webServer block. The browser is Debian's Chromium:
// Playwright's own download host is not reachable from the build machines.
export default defineConfig({
  testDir: "./e2e",
  // The vitest end-to-end files are *.e2e.test.ts; Playwright takes only *.spec.ts.
  testMatch: "**/*.spec.ts",
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  timeout: 120_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
});
