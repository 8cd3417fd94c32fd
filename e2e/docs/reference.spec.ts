import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "../testing/accessibility";
import { SCREENSHOT_DIR } from "../testing/cabinet";
import { useHostedService } from "../testing/hosted-service";

// The API reference at /docs in a real browser, against `npm start`: rendered from the document
// /v1/openapi.json serves, with nothing fetched from anywhere but the service itself.

const service = useHostedService("Docs shop");

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Only what the window shows: a full-page shot of this page (some 180,000 pixels tall) cannot be judged by eye and takes Chromium 15 s. */
async function screenshotWindow(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

test("the reference lists every operation of the served document and every webhook event", async ({ page, request }) => {
  const response = await request.get(`${service.baseUrl()}/v1/openapi.json`);
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.openapi).toBe("3.1.0");
  const operationIds = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) => Object.values(item).map((operation) => operation.operationId));

  await page.goto(`${service.baseUrl()}/docs`);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  for (const id of operationIds) await expect(page.locator(`article[id="${id}"]`)).toHaveCount(1);
  for (const type of Object.keys(document.webhooks)) await expect(page.getByRole("heading", { level: 3, name: type, exact: true })).toHaveCount(1);

  // Contents → operation: the anchor lands on the operation's card.
  await page.getByRole("navigation", { name: "All operations" }).getByRole("link", { name: document.paths["/v1/payment"].post.summary, exact: true }).click();
  await expect(page).toHaveURL(/#payment$/);
  const card = page.locator('article[id="payment"]');
  await expect(card.getByRole("table", { name: /Request body of/ })).toContainText("amount");
  await expect(card.getByRole("table", { name: /Error codes of/ })).toContainText("payment.unknown_currency");

  // The description's Markdown: a table of the currency and network modes, and numbered rules.
  const modes = card.getByRole("table", { name: "Currency and network modes" });
  await expect(modes.getByRole("columnheader")).toHaveText(["currency (price)", "to_currency / network", "Result"]);
  await expect(modes.getByRole("row")).toHaveCount(6);
  await expect(modes.getByRole("cell").locator("code", { hasText: "payment.network_required" })).toBeVisible();
  await expect(card.locator("ol > li")).toHaveCount(6);
  await expect(card).not.toContainText("|---|");
});

test("nothing is fetched from outside the service: the page works offline", async ({ page }) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(service.baseUrl()) && !request.url().startsWith("data:")) foreign.push(request.url());
  });
  await page.goto(`${service.baseUrl()}/docs`, { waitUntil: "networkidle" });
  expect(foreign).toEqual([]);
});

for (const viewport of VIEWPORTS) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`on a ${viewport.name} in ${colorScheme}: readable, no sideways scrolling, accessible, keyboard to an operation`, async ({ page }) => {
      // The accessibility check walks the whole reference (some 28,000 elements, 13,000 of them judged
      // for contrast): 25 s here, and past the default timeout on a slower or busier machine.
      test.slow();
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.emulateMedia({ colorScheme });
      await page.goto(`${service.baseUrl()}/docs`);
      await expect(page.locator("[data-theme]").first()).toHaveAttribute("data-theme", colorScheme);
      await screenshotWindow(page, `docs-${viewport.name}-${colorScheme}-first-screen`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // The skip link is the first stop of the keyboard and moves past the contents.
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Skip to the reference" })).toBeFocused();
      if (viewport.name === "phone") {
        await page.getByText("Contents", { exact: true }).click();
        await expect(page.getByRole("navigation", { name: "Contents" })).toBeVisible();
      }
      await expectAccessible(page);
      await screenshotWindow(page, `docs-${viewport.name}-${colorScheme}`);
      // The create-invoice description: its modes table, the text around it and the numbered rules.
      const modes = page.locator('article[id="payment"]').getByRole("region", { name: "Currency and network modes" });
      await modes.evaluate((region) => region.scrollIntoView({ block: "center" }));
      await screenshotWindow(page, `docs-${viewport.name}-${colorScheme}-markdown-table`);
    });
  }
}
