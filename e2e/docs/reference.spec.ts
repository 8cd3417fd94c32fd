import { expect, test } from "@playwright/test";
import { expectAccessible } from "../fixtures/accessibility";
import { screenshot } from "../fixtures/cabinet";
import { useHostedService } from "../fixtures/hosted-service";

// The API reference at /docs in a real browser, against `npm start`: rendered from the document
// /v1/openapi.json serves, with nothing fetched from anywhere but the service itself.

const service = useHostedService("Docs shop");

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

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
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.emulateMedia({ colorScheme });
      await page.goto(`${service.baseUrl()}/docs`);
      await expect(page.locator("[data-theme]").first()).toHaveAttribute("data-theme", colorScheme);
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
      await screenshot(page, `docs-${viewport.name}-${colorScheme}`);
    });
  }
}
