import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "../testing/accessibility";
import { payWithSandboxWalletApi, useHostedService } from "../testing/hosted-service";
import { signedPost } from "../testing/service";
import { expectSecurityHeaders } from "../testing/security-headers";

// The payment-link checkout and the payout-link claim page in a real browser, against `npm start`
// with the embedded database and sandbox chains; and the public pages in the buyer's language.

const hosted = useHostedService("Links shop");
const baseUrl = hosted.baseUrl;

const RECIPIENT = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const ETHEREUM_ADDRESS = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

async function api(path: string, body: Record<string, unknown>) {
  const answer = await signedPost(baseUrl(), hosted.merchantKey(), path, JSON.stringify(body));
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body.result;
}

/** A page URL the API handed out, on the service's own address. */
function onService(url: string): string {
  return baseUrl() + new URL(url).pathname;
}

async function expectFitsPhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** Money for payout links: a paid USDT-on-Tron invoice, matured at once in sandbox mode. */
async function fundMerchant(usd: string) {
  const invoice = await api("/v1/payment", { order_id: `fund-${randomUUID()}`, amount: usd, currency: "USD", to_currency: "USDT", network: "tron" });
  expect((await payWithSandboxWalletApi(baseUrl(), invoice.uuid)).payment_status).toBe("paid");
}

async function createPayoutLink(fields: Record<string, unknown> = {}) {
  return api("/v1/payout/link", { amount: "5", currency: "USDT", network: "tron", title: "Referral reward", note: "Thanks for bringing a friend", expires_in_hours: 48, ...fields }) as Promise<{
    link_id: string;
    claim_url: string;
    [field: string]: any;
  }>;
}

test("a buyer opens an open-amount payment link, is told an amount is out of range, picks a coin and pays", async ({ page }) => {
  const link = await api("/v1/payment/link", { title: "Donation to the library", description: "Any amount helps.", amount_mode: "open", amount_min: "5.00", amount_max: "500.00", currency: "USD" });
  await expectSecurityHeaders(await page.goto(onService(link.url)), "the checkout");
  await expect(page).toHaveTitle(/Donation to the library/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Donation to the library");
  await expect(page.getByText("Between 5.00 and 500.00 USD")).toBeVisible();
  // The store's name, so the buyer knows whom they pay; never its API key id.
  await expect(page.getByTestId("store-name")).toHaveText("Links shop");
  expect(await page.content()).not.toContain(hosted.merchantKey().public_id);
  await expectAccessible(page);

  const amount = page.getByLabel("Amount in USD");
  await amount.fill("2");
  await expect(page.getByTestId("amount-error")).toHaveText("The amount must be at least 5.00 USD.");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await amount.fill("900");
  await expect(page.getByTestId("amount-error")).toHaveText("The amount must be at most 500.00 USD.");
  await amount.fill("12.345");
  await expect(page.getByTestId("amount-error")).toHaveText("Use at most 2 decimal places.");
  await amount.fill("25");
  await expect(page.getByTestId("amount-error")).toHaveText("");
  await expect(amount).not.toHaveAttribute("aria-invalid");

  // The coin first, then its network; the button stays until both are chosen.
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("Choose a coin and a network first.");
  await page.locator("label").filter({ hasText: /^USDT$/ }).click();
  await page.getByRole("radio", { name: /^Tron/ }).check();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/checkout-open.png", fullPage: true });
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
  const invoiceId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 25.00 USD");
  await expect(page.getByTestId("store-name")).toHaveText("Links shop");
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  const invoice = await api("/v1/payment/info", { uuid: invoiceId });
  expect(invoice).toMatchObject({ amount: "25.00", currency: "USD", payer_currency: "USDT", network: "tron" });

  await page.getByRole("button", { name: "Pay with a sandbox wallet" }).click();
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "paid", { timeout: 60_000 });
});

test("a fixed link with a pinned coin goes straight on; a switched-off link is not found", async ({ page }) => {
  const link = await api("/v1/payment/link", { title: "Yearly plan", amount_mode: "fixed", amount: "120.00", currency: "EUR", pinned_currency: "USDT", pinned_network: "tron" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(onService(link.url));
  await expect(page.getByTestId("checkout-amount")).toHaveText("120.00 EUR");
  await expect(page.getByTestId("pinned-method")).toHaveText("You pay in USDT on Tron (TRC-20)");
  await expect(page.getByRole("radio")).toHaveCount(0);
  await expect(page.locator("[data-theme]")).toHaveAttribute("data-theme", "dark");
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/checkout-fixed-dark.png", fullPage: true });
  await page.getByLabel("E-mail for the receipt (optional)").fill("not-an-email");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByText("Enter an e-mail address such as name@example.com, or leave the field empty.")).toBeVisible();
  await page.getByLabel("E-mail for the receipt (optional)").fill("");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
  const payingUrl = page.url();

  await api("/v1/payment/link/toggle", { link_id: link.link_id, is_active: false });
  const response = await page.goto(onService(link.url));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment link not found" })).toBeVisible();
  await expectAccessible(page);
  // The invoice made before stays payable.
  await page.goto(payingUrl);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "check");
});

test("a recipient on a phone claims a payout link: a wrong-network address is refused, a Tron address claims, the payout's progress shows", async ({ browser }) => {
  await fundMerchant("40.00");
  const link = await createPayoutLink();
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  hosted.watchErrors(page);
  try {
    await expectSecurityHeaders(await page.goto(onService(link.claim_url)), "the claim page");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You have been sent 5 USDT");
    await expect(page.getByTestId("store-name")).toHaveText("Links shop");
    await expect(page.getByText("Referral reward")).toBeVisible();
    await expect(page.getByText("Thanks for bringing a friend")).toBeVisible();
    await expect(page.getByText("Tron (TRC-20)", { exact: true })).toBeVisible();
    await expect(page.getByText("Claim before")).toBeVisible();
    // The fee comes out of the check: the page says what arrives, not the check's amount.
    const estimated = (await page.getByTestId("claim-receive").textContent())!;
    const estimatedFee = (await page.getByTestId("claim-fee").textContent())!;
    expect(Number(estimated.replace(" USDT", "")) + Number(estimatedFee.replace(" USDT", ""))).toBeCloseTo(5, 6);
    expect(Number(estimatedFee.replace(" USDT", ""))).toBeGreaterThan(0);
    await expectFitsPhone(page);
    await expectAccessible(page);

    const address = page.getByLabel("Your USDT address on Tron (TRC-20)");
    await address.fill(ETHEREUM_ADDRESS);
    await expect(page.getByTestId("address-status")).toHaveText("This is an address of another network, not of Tron (TRC-20). Funds sent there would be lost.");
    await expect(address).toHaveAttribute("aria-invalid", "true");
    await address.fill(RECIPIENT.slice(0, -1) + "X");
    await expect(page.getByTestId("address-status")).toHaveText(/This is not a valid Tron \(TRC-20\) address/);
    await address.fill(RECIPIENT);
    await expect(page.getByTestId("address-status")).toHaveText("Valid Tron (TRC-20) address.");
    // Tron transfers carry no memo: no memo field.
    await expect(page.getByLabel("Memo (optional)")).toHaveCount(0);
    await page.screenshot({ path: "test-results/claim-phone.png", fullPage: true });

    await page.getByRole("button", { name: "Review the claim" }).click();
    await expect(page.getByRole("heading", { name: "Check before you claim" })).toBeFocused();
    await expect(page.getByText(`${estimated} will be sent on Tron (TRC-20) to the address below.`, { exact: false })).toBeVisible();
    await expect(page.getByTestId("review-address")).toHaveText(RECIPIENT);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Confirm and claim" }).click();

    await expect(page.getByRole("heading", { name: "Claimed ✓" })).toBeVisible();
    await expect(page.getByTestId("claimed-address")).toHaveText(RECIPIENT);
    await expect(page.getByTestId("payout-progress")).toBeVisible();
    const info = await api("/v1/payout/link/info", { link_id: link.link_id });
    expect(info).toMatchObject({ status: "claimed", claim_address: RECIPIENT });
    const payout = await api("/v1/payout/info", { uuid: info.payout_id });
    expect(payout.order_id).toBe(`payoutlink:${link.link_id}`);
    // What the page says arrives is what the payout delivers.
    await expect(page.getByTestId("claim-receive")).toHaveText(`${payout.receive_amount} USDT`);
    await expect(page.getByTestId("claim-state")).toContainText(`${payout.receive_amount} USDT is on its way to your address.`);

    // The worker sends the payout; blocks confirm it; the page follows without a reload.
    await expect
      .poll(
        async () => {
          const current = await api("/v1/payout/info", { uuid: info.payout_id });
          if (!current.is_final) await api("/v1/sandbox/mine", { network: "tron", blocks: 5 });
          return current.is_final;
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBe(true);
    await expect(page.getByTestId("payout-progress")).toHaveAttribute("data-payout-status", "paid", { timeout: 30_000 });
    await expect(page.getByTestId("payout-progress")).toContainText("Delivered");
    await expectFitsPhone(page);
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/claim-delivered.png", fullPage: true });

    // Another visitor with the same URL cannot move the money elsewhere.
    const second = await context.newPage();
    await second.goto(onService(link.claim_url));
    await expect(second.getByRole("heading", { name: "Claimed ✓" })).toBeVisible();
    await expect(second.getByLabel(/Your USDT address/)).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("claiming to a second address says the link was claimed elsewhere; expired and cancelled links show their state", async ({ page, browser }) => {
  await fundMerchant("40.00");
  const raced = await createPayoutLink({ title: "" });
  await page.goto(onService(raced.claim_url));
  await page.getByLabel("Your USDT address on Tron (TRC-20)").fill(RECIPIENT);
  await page.getByRole("button", { name: "Review the claim" }).click();
  // Someone else claims first, to another address, while this page waits for the confirmation.
  const first = await fetch(`${baseUrl()}/v1/claim/${new URL(raced.claim_url).pathname.split("/").pop()}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" }),
  });
  expect(first.status).toBe(200);
  await page.getByRole("button", { name: "Confirm and claim" }).click();
  await expect(page.getByRole("heading", { name: "Already claimed" })).toBeVisible();

  const cancelled = await createPayoutLink();
  await api("/v1/payout/link/cancel", { link_id: cancelled.link_id });
  await page.goto(onService(cancelled.claim_url));
  await expect(page.getByRole("heading", { name: "This link was cancelled" })).toBeVisible();
  await expect(page.getByLabel(/Your USDT address/)).toHaveCount(0);
  await expectAccessible(page);

  const expired = await createPayoutLink();
  await api("/v1/sandbox/expire", { link_id: expired.link_id });
  const dark = await browser.newContext({ ...PHONE, colorScheme: "dark" });
  const phone = await dark.newPage();
  hosted.watchErrors(phone);
  try {
    await phone.goto(onService(expired.claim_url));
    await expect(phone.getByRole("heading", { name: "This link has expired" })).toBeVisible();
    await expect(phone.getByTestId("claim-state")).toContainText("The time to claim it ended on");
    await expect(phone.locator("[data-theme]")).toHaveAttribute("data-theme", "dark");
    await expectAccessible(phone);
    await phone.screenshot({ path: "test-results/claim-expired-dark.png", fullPage: true });
  } finally {
    await dark.close();
  }

  const response = await page.goto(`${baseUrl()}/pay/claim/${"A".repeat(43)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Claim link not found" })).toBeVisible();
});

test("a recipient claims by keyboard alone: Tab to the address, Enter to review, Enter to confirm", async ({ page }) => {
  await fundMerchant("20.00");
  const link = await createPayoutLink({ title: "Keyboard" });
  await page.goto(onService(link.claim_url));
  const address = page.getByLabel("Your USDT address on Tron (TRC-20)");
  for (let presses = 0; presses < 15 && !(await address.evaluate((element) => element === document.activeElement)); presses++) await page.keyboard.press("Tab");
  await expect(address).toBeFocused();
  await page.keyboard.type(RECIPIENT);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Check before you claim" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Confirm and claim" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Claimed ✓" })).toBeFocused();
  expect(await api("/v1/payout/link/info", { link_id: link.link_id })).toMatchObject({ status: "claimed", claim_address: RECIPIENT });
});

test("the payment page opened with Accept-Language: es is in Spanish; the switcher changes it and remembers", async ({ browser }) => {
  const invoice = await api("/v1/payment", { order_id: `es-${randomUUID()}`, amount: "1234.50", currency: "EUR", to_currency: "USDT", network: "tron" });
  const context = await browser.newContext({ locale: "es-ES" });
  const page = await context.newPage();
  hosted.watchErrors(page);
  try {
    await page.goto(onService(invoice.url));
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    // Spanish words, and the amount in Spanish notation: "1234,50" (Spanish groups from five digits).
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pagar 1234,50 EUR");
    await expect(page.getByTestId("payment-status")).toContainText("Esperando el pago");
    await expect(page.getByRole("button", { name: "Copiar dirección" })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/hosted-spanish.png", fullPage: true });

    await page.getByTestId("language-switcher").selectOption("de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("1.234,50 EUR bezahlen");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("1.234,50 EUR bezahlen");

    await page.getByTestId("language-switcher").selectOption("en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 1,234.50 EUR");
    await expect(page.getByTestId("payment-status")).toContainText("Waiting for payment");
  } finally {
    await context.close();
  }
});
