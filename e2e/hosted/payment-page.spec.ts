import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import jsQR from "jsqr";
import { expectAccessible } from "../testing/accessibility";
import { payWithSandboxWalletApi, useHostedService } from "../testing/hosted-service";
import { signedPost } from "../testing/service";
import { expectSecurityHeaders } from "../testing/security-headers";

// The hosted payment page in a real browser, against `npm start` with the embedded database and
// sandbox chains, as a buyer meets it.

const hosted = useHostedService("Shop");
const baseUrl = hosted.baseUrl;

const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

async function createInvoice(fields: Record<string, unknown>) {
  const created = await signedPost(baseUrl(), hosted.merchantKey(), "/v1/payment", JSON.stringify({ order_id: `order-${randomUUID()}`, ...fields }));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.result as { uuid: string; url: string; [field: string]: any };
}

/** The invoice's `url`, on the service's own address (the URL names PUBLIC_BASE_URL's host). */
function pageUrlOf(invoice: { url: string }): string {
  return baseUrl() + new URL(invoice.url).pathname;
}

async function getPublicPayment(id: string) {
  const response = await fetch(`${baseUrl()}/v1/pay/${id}`);
  return ((await response.json()) as { result: Record<string, any> }).result;
}

/** Keeps the browser away from the (unreachable) merchant store: its pages answer locally. */
async function serveStoreLocally(page: Page) {
  await page.route("https://shop.example/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Shop</title><h1>Thanks from the shop</h1>" }));
}

async function chooseMethod(page: Page, coin: string, networkName: RegExp) {
  await page.locator("label").filter({ hasText: new RegExp(`^${coin}$`) }).click();
  await expect(page.getByRole("radio", { name: coin, exact: true })).toBeChecked();
  await page.getByRole("radio", { name: networkName }).check();
}

test("a currency-agnostic invoice: pick USDT on Tron, pay with the sandbox wallet, see it paid", async ({ page }) => {
  await serveStoreLocally(page);
  const invoice = await createInvoice({ amount: "25.00", currency: "USD", url_return: "https://shop.example/back", url_success: "https://shop.example/thanks" });
  expect(invoice.payment_status).toBe("select");

  await expectSecurityHeaders(await page.goto(pageUrlOf(invoice)), "the payment page");
  await expect(page).toHaveTitle(/Pay 25\.00 USD/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 25.00 USD");
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "select");
  await expect(page.getByTestId("store-name")).toHaveText("Shop");
  await expect(page.getByRole("link", { name: "Back to Shop" })).toHaveAttribute("href", "https://shop.example/back");

  await expectAccessible(page);
  await chooseMethod(page, "USDT", /^Tron/);
  await page.screenshot({ path: "test-results/hosted-picker.png", fullPage: true });
  await page.getByRole("button", { name: "Pay with USDT on Tron" }).click();

  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  const selected = await getPublicPayment(invoice.uuid);
  expect(selected.payer_currency).toBe("USDT");
  expect(selected.network).toBe("tron");
  await expect(page.getByTestId("deposit-address")).toHaveText(selected.address);
  expect(selected.address).toMatch(TRON_ADDRESS);
  await expect(page.getByTestId("payer-amount")).toHaveText(selected.payer_amount);
  await expect(page.getByText("on Tron (TRC-20)", { exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: /QR code of the USDT deposit address/ })).toBeVisible();
  // Tron has no agreed payment URI: no wallet link rather than a guessed one.
  await expect(page.getByTestId("deposit-address")).toBeVisible();
  await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Pay with a sandbox wallet" }).click();
  // confirm_check: the confirmations climb, shown in words and as a progress bar.
  await expect(page.getByRole("progressbar", { name: "Confirmations" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("payment-status")).toContainText(/Payment seen — \d+ of \d+ confirmations/);
  await page.screenshot({ path: "test-results/hosted-confirming.png", fullPage: true });
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "paid", { timeout: 60_000 });

  // Stop the automatic return to the store first; it would leave the page in 5 seconds.
  await page.getByRole("button", { name: "Stay on this page" }).click();
  await expect(page.getByTestId("payment-status")).toContainText("Paid ✓");
  await expect(page.getByTestId("status-announcement")).toHaveText("Paid ✓");
  // Final and paid: one way back to the store, to its success page.
  await expect(page.getByRole("link", { name: "Back to Shop" })).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Back to Shop" })).toHaveAttribute("href", "https://shop.example/thanks");
  await expect(page.getByTestId("deposit-address")).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/hosted-paid.png", fullPage: true });

  const paid = await getPublicPayment(invoice.uuid);
  expect(paid.payment_status).toBe("paid");
  expect(paid.is_final).toBe(true);
  // The time itself is under test: the 5 s after which the return would have left the page.
  await page.waitForTimeout(5_500);
  expect(new URL(page.url()).pathname).toBe(`/pay/${invoice.uuid}`);
});

/** A decimal string in minor units of an asset with `decimals` places, exactly (the test's own arithmetic). */
function toMinorUnits(amount: string, decimals: number): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(decimals, "0"));
}

test("the page follows the device's dark mode unless the invoice sets a theme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  const unthemed = await createInvoice({ amount: "20.00", currency: "USD", to_currency: "USDT", network: "tron" });
  await page.goto(pageUrlOf(unthemed));
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  await expect(page.locator("[data-theme]")).toHaveAttribute("data-theme", "dark");
  const background = await page.locator("[data-theme]").evaluate((shell) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    context.fillStyle = getComputedStyle(shell).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return (r + g + b) / 3;
  });
  expect(background).toBeLessThan(60);
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/hosted-system-dark.png", fullPage: true });

  // The device changes its mind: the page follows without a reload.
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("[data-theme]")).toHaveAttribute("data-theme", "light");

  // The merchant's explicit choice wins over the device.
  await page.emulateMedia({ colorScheme: "dark" });
  const light = await createInvoice({ amount: "20.00", currency: "USD", to_currency: "USDT", network: "tron", theme: "light" });
  await page.goto(pageUrlOf(light));
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  await expect(page.locator("[data-theme]")).toHaveAttribute("data-theme", "light");
});

test("an EVM token invoice offers an EIP-681 wallet link with the exact amount in the token's minor units", async ({ page }) => {
  const invoice = await createInvoice({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "ethereum" });
  expect(invoice.payment_status).toBe("check");
  await page.goto(pageUrlOf(invoice));
  await expect(page.getByTestId("deposit-address")).toHaveText(invoice.address);
  const expected = `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${invoice.address}&uint256=${toMinorUnits(invoice.payer_amount, 6)}`;
  await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute("href", expected);
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/hosted-wallet-link.png", fullPage: true });
});

test("a native-coin invoice offers a BIP-21 or EIP-681 link in the coin's own units", async ({ page }) => {
  const ether = await createInvoice({ amount: "30.00", currency: "USD", to_currency: "ETH", network: "ethereum" });
  await page.goto(pageUrlOf(ether));
  await expect(page.getByTestId("deposit-address")).toHaveText(ether.address);
  await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute("href", `ethereum:${ether.address}@1?value=${toMinorUnits(ether.payer_amount, 18)}`);

  const bitcoin = await createInvoice({ amount: "30.00", currency: "USD", to_currency: "BTC", network: "bitcoin" });
  await page.goto(pageUrlOf(bitcoin));
  await expect(page.getByTestId("deposit-address")).toHaveText(bitcoin.address);
  // BIP-21 amounts are whole coins; trailing zeros carry nothing.
  const btc = bitcoin.payer_amount.includes(".") ? bitcoin.payer_amount.replace(/\.?0+$/, "") : bitcoin.payer_amount;
  await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute("href", `bitcoin:${bitcoin.address}?amount=${btc}`);
});

test("a paid invoice with url_success sends the buyer on to the store after a few seconds", async ({ page }) => {
  await serveStoreLocally(page);
  const invoice = await createInvoice({ amount: "12.00", currency: "USD", to_currency: "USDT", network: "tron", url_success: "https://shop.example/thanks?from=gateway" });
  expect((await payWithSandboxWalletApi(baseUrl(), invoice.uuid)).payment_status).toBe("paid");

  await page.goto(pageUrlOf(invoice));
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "paid");
  await expect(page.getByTestId("redirect-notice")).toBeVisible();
  await page.waitForURL("https://shop.example/thanks?from=gateway", { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Thanks from the shop" })).toBeVisible();
});

test("a fixed invoice in the dark theme shows the API's exact amount, address, QR code and countdown, and nothing private", async ({ page, request }) => {
  const secretNote = `merchant-private-${randomUUID()}`;
  const payerEmail = `buyer-${randomUUID().slice(0, 8)}@example.com`;
  const invoice = await createInvoice({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron", theme: "dark", additional_data: secretNote, payer_email: payerEmail });
  expect(invoice.payment_status).toBe("check");
  expect(invoice.additional_data).toBe(secretNote);

  const response = await page.goto(pageUrlOf(invoice));
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Pay 25\.00 USD/);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  await expect(page.getByTestId("payment-status")).toContainText("Waiting for payment");
  await expect(page.getByTestId("payer-amount")).toHaveText(invoice.payer_amount);
  await expect(page.getByText(`${invoice.payer_amount} USDT`, { exact: true })).toBeVisible();
  await expect(page.getByTestId("deposit-address")).toHaveText(invoice.address);
  await expect(page.getByText("Price 25.00 USD")).toBeVisible();

  const qr = page.getByRole("img", { name: /QR code of the USDT deposit address on Tron/ });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute("src")).toBe(invoice.address_qr_code);
  expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  // A camera reads the deposit address from it: the browser rasterises the image, jsQR decodes it.
  const pixels = await qr.evaluate((image: HTMLImageElement) => {
    const canvas = Object.assign(document.createElement("canvas"), { width: 300, height: 300 });
    const context = canvas.getContext("2d")!;
    context.fillStyle = "#fff";
    context.fillRect(0, 0, 300, 300);
    context.drawImage(image, 30, 30, 240, 240);
    return Array.from(context.getImageData(0, 0, 300, 300).data);
  });
  expect(jsQR(Uint8ClampedArray.from(pixels), 300, 300)?.data).toBe(invoice.address);

  const countdown = page.getByTestId("countdown");
  await expect(countdown).toContainText(/Expires in\s*(\d\d:)?\d\d:\d\d/);
  const before = await countdown.textContent();
  await expect(countdown).not.toHaveText(before!, { timeout: 3_000 });

  // The dark theme: light text on a dark page (colours resolved to sRGB through a canvas, since
  // computed styles may be in oklch).
  const colors = await page.locator("main").evaluate((main) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const toLuminance = (color: string) => {
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return (r + g + b) / 3;
    };
    return { background: toLuminance(getComputedStyle(main.parentElement!).backgroundColor), text: toLuminance(getComputedStyle(main).color) };
  });
  expect(colors.background).toBeLessThan(60);
  expect(colors.text).toBeGreaterThan(200);
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/hosted-dark.png", fullPage: true });

  // Nothing merchant-private reaches the buyer: not in the server's HTML, not in the live page.
  const html = await (await request.get(pageUrlOf(invoice))).text();
  for (const text of [html, await page.content()]) {
    expect(text).toContain(invoice.address);
    expect(text).not.toContain(secretNote);
    expect(text).not.toContain(payerEmail);
    expect(text).not.toContain("additional_data");
    expect(text).not.toContain("payer_email");
    expect(text).not.toContain("payer_address");
  }
});

test("the status moves without reloading: a partial payment, then the term ends underpaid", async ({ page }) => {
  const invoice = await createInvoice({ amount: "30.00", currency: "USD", to_currency: "USDT", network: "tron", url_return: "https://shop.example/cart" });
  await page.goto(pageUrlOf(invoice));
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  // A marker on the window survives everything but a reload (the router's own history updates included).
  await page.evaluate(() => ((window as unknown as { pageMarker: string }).pageMarker = "loaded once"));

  const deposit = await signedPost(baseUrl(), hosted.merchantKey(), "/v1/sandbox/deposit", JSON.stringify({ network: "tron", currency: "USDT", address: invoice.address, amount: "10" }));
  expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
  const mined = await signedPost(baseUrl(), hosted.merchantKey(), "/v1/sandbox/mine", JSON.stringify({ network: "tron", blocks: 25 }));
  expect(mined.status, JSON.stringify(mined.body)).toBe(200);

  const status = page.getByTestId("payment-status");
  await expect(status).toHaveAttribute("data-status", "wrong_amount_waiting", { timeout: 30_000 });
  const partial = await getPublicPayment(invoice.uuid);
  await expect(status).toContainText(`Partially paid — ${partial.amount_remaining} USDT still due`);
  await expect(page.getByTestId("status-announcement")).toHaveText(`Partially paid — ${partial.amount_remaining} USDT still due`);
  await expect(page.getByTestId("payer-amount")).toHaveText(partial.amount_remaining);
  await expect(page.getByRole("heading", { name: "Send the rest — exactly" })).toBeVisible();
  await page.screenshot({ path: "test-results/hosted-partial.png", fullPage: true });

  const expired = await signedPost(baseUrl(), hosted.merchantKey(), "/v1/sandbox/expire", JSON.stringify({ uuid: invoice.uuid }));
  expect(expired.status, JSON.stringify(expired.body)).toBe(200);
  await expect(status).toHaveAttribute("data-status", "wrong_amount", { timeout: 15_000 });
  await expect(status).toContainText("Underpaid (term over)");
  await expect(page.getByTestId("deposit-address")).toHaveCount(0);
  await expect(page.getByTestId("countdown")).toHaveCount(0);
  // Over without the full amount: the way back is the store's return page, shown once.
  await expect(page.getByRole("link", { name: "Back to Shop" })).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Back to Shop" })).toHaveAttribute("href", "https://shop.example/cart");
  expect(await page.evaluate(() => (window as unknown as { pageMarker?: string }).pageMarker)).toBe("loaded once");
});

test("keyboard: the coin picker and the copy buttons work with Tab, arrows, Space and Enter", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
  const invoice = await createInvoice({ amount: "25.00", currency: "USD" });
  await page.goto(pageUrlOf(invoice));
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "select");

  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      const input = element instanceof HTMLInputElement ? element : null;
      return { tag: element?.tagName ?? "", name: input?.name ?? "", value: input?.value ?? "", checked: input?.checked ?? false, label: element?.getAttribute("aria-label") ?? element?.textContent ?? "" };
    });
  const tabUntil = async (isWanted: (current: Awaited<ReturnType<typeof focused>>) => boolean, limit = 25) => {
    for (let presses = 0; presses < limit; presses++) {
      await page.keyboard.press("Tab");
      if (isWanted(await focused())) return;
    }
    throw new Error(`Tab never reached the wanted element; focus is on ${JSON.stringify(await focused())}`);
  };
  const ringOfFocused = () => page.evaluate(() => getComputedStyle((document.activeElement as HTMLElement).closest("label") ?? (document.activeElement as HTMLElement)).boxShadow);

  // Coin: one Tab stop for the group, Space selects, arrow keys move the choice.
  await tabUntil((current) => current.name === "coin");
  await page.keyboard.press("Space");
  expect((await focused()).checked).toBe(true);
  expect(await ringOfFocused()).not.toBe("none");
  for (let presses = 0; presses < 20 && (await focused()).value !== "USDT"; presses++) await page.keyboard.press("ArrowRight");
  expect(await focused()).toMatchObject({ name: "coin", value: "USDT", checked: true });

  // Network: Tab into the next group, arrows to Tron, Space to be sure it is checked.
  await page.keyboard.press("Tab");
  expect((await focused()).name).toBe("network");
  for (let presses = 0; presses < 20 && (await focused()).value !== "tron"; presses++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Space");
  expect(await focused()).toMatchObject({ name: "network", value: "tron", checked: true });
  expect(await ringOfFocused()).not.toBe("none");

  // Enter submits the choice.
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  const selected = await getPublicPayment(invoice.uuid);

  await tabUntil((current) => current.label === "Copy amount");
  expect(await ringOfFocused()).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Copy amount" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(selected.payer_amount);

  await tabUntil((current) => current.label === "Copy address");
  await page.keyboard.press("Space");
  await expect(page.getByRole("button", { name: "Copy address" })).toHaveText("Copied");
  await expect(page.getByText("Address copied")).toBeAttached();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(selected.address);
  // The confirmation goes away again.
  await expect(page.getByRole("button", { name: "Copy address" })).toHaveText("Copy", { timeout: 5_000 });
});

test("on a 390 × 844 phone: no horizontal scrolling and tap targets of at least 44 px", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    const expectFitsPhone = async () => {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      const smallTargets = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("main a, main button, main label:has(input[type=radio])")]
          .map((element) => ({ text: element.textContent?.trim(), height: element.getBoundingClientRect().height, width: element.getBoundingClientRect().width }))
          .filter((target) => target.height < 44 || target.width < 44),
      );
      expect(smallTargets).toEqual([]);
    };

    const agnostic = await createInvoice({ amount: "25.00", currency: "USD", url_return: "https://shop.example/back" });
    await page.goto(pageUrlOf(agnostic));
    await expectFitsPhone();
    await chooseMethod(page, "USDT", /^Ethereum/);
    await expectFitsPhone();
    await page.screenshot({ path: "test-results/hosted-picker-phone.png", fullPage: true });
    await page.getByRole("button", { name: /^Pay with USDT on Ethereum/ }).click();
    await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
    await expectFitsPhone();

    // The longest amounts: 18 decimals of ETH.
    const ether = await createInvoice({ amount: "19.99", currency: "EUR", to_currency: "ETH", network: "ethereum", theme: "dark" });
    await page.goto(pageUrlOf(ether));
    await expect(page.getByTestId("payer-amount")).toHaveText(ether.payer_amount);
    await expectFitsPhone();
    await page.screenshot({ path: "test-results/hosted-phone.png", fullPage: true });
  } finally {
    await context.close();
  }
});

test("an unknown or malformed invoice id shows the not-found page with status 404", async ({ page }) => {
  for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
    const response = await page.goto(`${baseUrl()}/pay/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Invoice not found" })).toBeVisible();
    await expectAccessible(page);
  }
  await page.screenshot({ path: "test-results/hosted-not-found.png" });
});

test("the page is the server's HTML with one small script of its own, hydrated without an error", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  const scripts: { path: string; encoding: string | undefined }[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push({ path: new URL(response.url()).pathname, encoding: response.headers()["content-encoding"] });
  });
  const invoice = await createInvoice({ amount: "25.00", currency: "USD" });

  const response = await page.goto(pageUrlOf(invoice));
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  // The words are in the server's HTML before any script runs.
  expect(await response?.text()).toContain("Choose how to pay");
  await chooseMethod(page, "USDT", /^Tron/);
  await page.getByRole("button", { name: "Pay with USDT on Tron" }).click();
  await expect(page.getByTestId("deposit-address")).toHaveText(TRON_ADDRESS);

  // React and the page in one file from /_hosted/, compressed; nothing of Next.js's client runtime.
  expect(scripts).toHaveLength(1);
  expect(scripts[0].path).toMatch(/^\/_hosted\/payment-page\.[0-9a-f]{12}\.js$/);
  expect(["br", "gzip"]).toContain(scripts[0].encoding);
  // No hydration mismatch, no refused script or style, no failed request.
  expect(problems).toEqual([]);
});

test("the language switcher renders the page again in the chosen language", async ({ page }) => {
  const invoice = await createInvoice({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron" });
  await page.goto(pageUrlOf(invoice));
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByTestId("language-switcher").selectOption("de");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("25,00 USD bezahlen");
  await expect(page.getByTestId("deposit-address")).toHaveText(invoice.address);
  await expectAccessible(page);
});
