import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { accessibilityProblems, expectAccessible } from "../testing/accessibility";
import { invisibleFields } from "../testing/layout";
import { confirmWithCode, createCabinetMerchant, fundMerchant, lastUsedCode, screenshot, signIn, signInFirstTime, wrongCode, type CabinetUserCredentials } from "../testing/cabinet";
import { payWithSandboxWalletApi, useHostedService } from "../testing/hosted-service";
import { signedPost } from "../testing/service";

// The cabinet's pages in a real browser, against `npm start`: the invoices filter, search and CSV
// export agree with the API's list; an API key is not rotated without a fresh code; and every page,
// light and dark, on a desktop and a phone, passes the accessibility check and is photographed.

const service = useHostedService("Pages shop");
const baseUrl = service.baseUrl;

const owner: CabinetUserCredentials = { email: `owner-${randomUUID().slice(0, 8)}@example.com`, password: "the owner's long password" };
let key: { merchant_id: string; public_id: string; secret: string };
const orderIds: string[] = [];
let paidInvoiceUuid = "";
let payoutUuid = "";

async function api(path: string, body: Record<string, unknown>, credentials: { public_id: string; secret: string } = key) {
  return signedPost(baseUrl(), credentials, path, JSON.stringify(body));
}

test.beforeAll(async () => {
  key = createCabinetMerchant(service.env(), "Pages shop", owner.email, owner.password);
  await fundMerchant(baseUrl(), key, "500");
  // Invoices of every kind the filters tell apart: USDT on Tron (one paid), USDT on Polygon, and a
  // USD price the buyer has not chosen a coin for yet.
  const bodies = [
    { amount: "12.5", currency: "USDT", network: "tron" },
    { amount: "7", currency: "USDT", network: "tron" },
    { amount: "30", currency: "USDT", network: "polygon" },
    { amount: "20", currency: "USD" },
  ];
  for (const body of bodies) {
    const orderId = `pages-${randomUUID().slice(0, 8)}`;
    const created = await api("/v1/payment", { ...body, order_id: orderId });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    orderIds.push(orderId);
    if (paidInvoiceUuid === "") {
      paidInvoiceUuid = created.body.result.uuid;
      expect((await payWithSandboxWalletApi(baseUrl(), paidInvoiceUuid)).payment_status).toBe("paid");
    }
  }
  const payout = await api("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `pages-payout-${randomUUID().slice(0, 8)}` });
  expect(payout.status, JSON.stringify(payout.body)).toBe(200);
  payoutUuid = payout.body.result.uuid;
});

/** Signs in, enrolling on the first call (each test has its own browser context). */
async function signInOwner(page: Page): Promise<void> {
  if (owner.secret) {
    await signIn(page, baseUrl(), owner);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  } else {
    await signInFirstTime(page, baseUrl(), owner);
  }
}

/** Every uuid of /v1/payment/history for a filter, following next_cursor. */
async function historyUuids(filter: Record<string, unknown>): Promise<string[]> {
  const uuids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await api("/v1/payment/history", { ...filter, limit: 2, ...(cursor ? { cursor } : {}) });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    uuids.push(...page.body.result.items.map((item: { uuid: string }) => item.uuid));
    cursor = page.body.result.paginate.next_cursor;
  } while (cursor);
  return uuids;
}

/** The uuids the invoices page lists now (its table links each to the invoice's page). */
async function listedUuids(page: Page): Promise<string[]> {
  const hrefs = await page.getByRole("region", { name: "Invoices, newest first" }).locator('a[href^="/cabinet/invoices/"]').evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
  return hrefs.map((href) => href.split("/").pop()!);
}

/** The first column (uuid) of every data line of a CSV download. */
async function exportedUuids(page: Page): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const lines = fs.readFileSync((await download.path())!, "utf8").trimEnd().split("\r\n");
  expect(lines[0].split(",")[0]).toBe("uuid");
  return lines.slice(1).map((line) => line.split(",")[0]);
}

test("the invoices filter, search and CSV export agree with the API's list for the same filter", async ({ page }) => {
  await signInOwner(page);
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

  // USDT on Tron created today: the form's fields, submitted.
  await page.goto(`${baseUrl()}/cabinet/invoices`);
  const form = page.getByRole("search", { name: "Search and filter invoices" });
  await form.getByLabel("Coin").selectOption("USDT");
  await form.getByLabel("Network").selectOption("tron");
  await form.getByLabel("Created from").fill(today);
  await form.getByLabel("Created to").fill(today);
  await form.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/coin=USDT/);
  const expected = await historyUuids({ currency: "USDT", network: "tron", date_from: `${today}T00:00:00Z`, date_to: `${tomorrow}T00:00:00Z` });
  expect(expected.length).toBeGreaterThanOrEqual(3); // the funding invoice and two of this file's
  expect(await listedUuids(page)).toEqual(expected);
  expect(await exportedUuids(page)).toEqual(expected);

  // Paid ones only.
  await page.goto(`${baseUrl()}/cabinet/invoices?status=paid`);
  const paid = await historyUuids({ status: "paid" });
  expect(paid).toContain(paidInvoiceUuid);
  expect(await listedUuids(page)).toEqual(paid);
  expect(await exportedUuids(page)).toEqual(paid);

  // Search by order id, by uuid and by deposit address: exactly the one invoice.
  const polygon = (await api("/v1/payment/info", { order_id: orderIds[2] })).body.result;
  for (const text of [orderIds[2], polygon.uuid, polygon.address]) {
    await page.goto(`${baseUrl()}/cabinet/invoices`);
    await page.getByRole("searchbox").fill(text);
    await page.getByRole("searchbox").press("Enter");
    await expect(page).toHaveURL(/q=/);
    expect(await listedUuids(page)).toEqual([polygon.uuid]);
  }
  // By the txid of the paid invoice's transfer.
  const paidInfo = (await api("/v1/payment/info", { uuid: paidInvoiceUuid })).body.result;
  expect(paidInfo.txid).toBeTruthy();
  await page.goto(`${baseUrl()}/cabinet/invoices?q=${encodeURIComponent(paidInfo.txid)}`);
  expect(await listedUuids(page)).toEqual([paidInvoiceUuid]);
  expect(await exportedUuids(page)).toEqual([paidInvoiceUuid]);
});

test("an API key is not rotated without a fresh code: cancelled, skipped, reused or wrong, the key keeps working", async ({ page }) => {
  await signInOwner(page);
  await page.goto(`${baseUrl()}/cabinet/api-keys`);
  const rotate = page.getByRole("button", { name: `Rotate key ${key.public_id}` });
  const dialog = page.getByRole("dialog", { name: "Confirm with a code" });
  const keyStillWorks = async () => expect((await api("/v1/api-allowlist/list", {})).status).toBe(200);

  // Cancelled: nothing is sent.
  await rotate.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await keyStillWorks();

  // A page that skips the code (its server action called without one) is refused by the server.
  await page.route("**/cabinet/api-keys", async (route) => {
    const request = route.request();
    if (request.method() !== "POST" || !request.headers()["next-action"]) return route.continue();
    const args = JSON.parse(request.postData() ?? "[]") as unknown[];
    return route.continue({ postData: JSON.stringify(args.slice(0, 2)) });
  });
  await rotate.click();
  await dialog.getByLabel("Code", { exact: true }).fill("000000");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.locator('[role="alert"]')).toContainText("fresh code");
  await page.unroute("**/cabinet/api-keys");
  await keyStillWorks();

  // The sign-in's code again, and a wrong one: refused.
  await dialog.getByLabel("Code", { exact: true }).fill(await lastUsedCode(owner));
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.locator('[role="alert"]')).toContainText("wrong or was already used");
  await dialog.getByLabel("Code", { exact: true }).fill(await wrongCode(owner));
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.locator('[role="alert"]')).toContainText("wrong or was already used");
  await keyStillWorks();

  // A fresh code rotates it: a new secret, shown once; the old one stops working at once.
  await confirmWithCode(page, owner);
  await expect(page.getByText("Copy the secret now: it is not shown again")).toBeVisible();
  const rotated = { public_id: (await page.getByTestId("new-key-public-id").innerText()).trim(), secret: (await page.getByTestId("new-key-secret").innerText()).trim() };
  expect((await api("/v1/api-allowlist/list", {})).status).toBe(401);
  expect((await api("/v1/api-allowlist/list", {}, { ...key, ...rotated })).status).toBe(200);
  key = { ...key, ...rotated };
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("new-key-secret")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(rotated.secret)).toHaveCount(0);
});

test("another store's invoices and payouts are not found: their pages, the search and the CSV export", async ({ page }) => {
  // The file's service also has a merchant of its own (made without a cabinet user): the other store.
  const other = service.merchantKey();
  await fundMerchant(baseUrl(), other, "50");
  const foreignInvoice = (await api("/v1/payment", { amount: "3", currency: "USDT", network: "tron", order_id: `foreign-${randomUUID().slice(0, 8)}` }, other)).body.result;
  const foreignPayout = (await api("/v1/payout", { amount: "2", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: `foreign-payout-${randomUUID().slice(0, 8)}` }, other)).body.result;
  expect(foreignInvoice.uuid).toBeTruthy();
  expect(foreignPayout.uuid).toBeTruthy();

  await signInOwner(page);
  for (const path of [`/cabinet/invoices/${foreignInvoice.uuid}`, `/cabinet/payouts/${foreignPayout.uuid}`, "/cabinet/invoices/not-a-uuid"]) {
    const response = await page.goto(baseUrl() + path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
    await expect(page.getByText(foreignInvoice.order_id)).toHaveCount(0);
  }
  await expectAccessible(page);
  for (const text of [foreignInvoice.uuid, foreignInvoice.order_id, foreignInvoice.address]) {
    await page.goto(`${baseUrl()}/cabinet/invoices?q=${encodeURIComponent(text)}`);
    expect(await listedUuids(page)).toEqual([]);
    expect(await exportedUuids(page)).toEqual([]);
  }
  await page.goto(`${baseUrl()}/cabinet/payouts`);
  await expect(page.getByRole("link", { name: foreignPayout.order_id })).toHaveCount(0);
});

test("payment links, payout links and static wallets: create, copy, QR code, switch off, cancel, block", async ({ page, context }) => {
  // 57 s in the full browser pass here (7 s alone), about twice that on CI's slower machine: close
  // to the default 120 s.
  test.slow();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
  await signInOwner(page);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  // A payment link: made, copied, opened as a buyer would, switched off (its URL stops), on again.
  const title = `Donation ${randomUUID().slice(0, 6)}`;
  await page.goto(`${baseUrl()}/cabinet/payment-links`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Fixed amount").check();
  await page.getByLabel("Amount", { exact: true }).fill("15");
  await page.getByRole("button", { name: "Create payment link" }).click();
  await expect(page.getByRole("status").filter({ hasText: title })).toContainText("created");
  await page.getByRole("button", { name: "Copy the new link's URL" }).click();
  const linkUrl = await clipboard();
  expect(linkUrl).toMatch(/^http:\/\/.+\/pay\/link\//);
  const linkRow = page.getByRole("table", { name: "Payment links, newest first" }).getByRole("row").filter({ hasText: title });
  await linkRow.getByText("QR code").click();
  await expect(linkRow.getByRole("img")).toBeVisible();
  expect((await page.request.get(linkUrl)).status()).toBe(200);
  await linkRow.getByRole("button", { name: `Disable payment link ${title}` }).click();
  await expect(linkRow.getByRole("button", { name: `Enable payment link ${title}` })).toBeVisible();
  expect((await page.request.get(linkUrl)).status()).toBe(404);
  await linkRow.getByRole("button", { name: `Enable payment link ${title}` }).click();
  await expect(linkRow.getByRole("button", { name: `Disable payment link ${title}` })).toBeVisible();
  expect((await page.request.get(linkUrl)).status()).toBe(200);

  // The search box finds the link by part of its title, in any case; a text nothing contains says so.
  const linkSearch = page.getByRole("search", { name: "Search payment links" });
  await linkSearch.getByLabel("Search").fill(title.slice(2, 10).toUpperCase());
  await linkSearch.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
  await linkSearch.getByLabel("Search").fill("no link is called this");
  await linkSearch.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No link matches")).toBeVisible();

  // A payout link: money made claimable, so a fresh code; the claim URL shown once; then cancelled.
  const reference = `check-${randomUUID().slice(0, 8)}`;
  await page.goto(`${baseUrl()}/cabinet/payout-links`);
  await page.getByLabel("Amount", { exact: true }).fill("3");
  await page.getByLabel("Title").fill(reference);
  await page.getByLabel("Reference").fill(reference);
  await page.getByRole("button", { name: "Create payout link" }).click();
  await confirmWithCode(page, owner);
  await expect(page.getByRole("status").filter({ hasText: "Payout link created" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of the claim URL" })).toBeVisible();
  const claimUrl = (await page.getByTestId("claim-url").innerText()).trim();
  await page.getByRole("button", { name: "Copy claim URL" }).click();
  expect(await clipboard()).toBe(claimUrl);
  const claimToken = claimUrl.split("/").pop()!;
  const claimCard = async () => (await (await page.request.get(`${baseUrl()}/v1/claim/${claimToken}`)).json()).result;
  expect(await claimCard()).toMatchObject({ status: "funded", claimable: true, amount: "3" });
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("claim-url")).toHaveCount(0);
  await page.getByRole("button", { name: `Cancel payout link ${reference}` }).click();
  await expect.poll(async () => (await claimCard()).status).toBe("cancelled");

  // A static wallet: its address and QR code, copied; blocked after a confirmation.
  const orderId = `customer-${randomUUID().slice(0, 8)}`;
  await page.goto(`${baseUrl()}/cabinet/wallets`);
  await page.getByLabel("Order id").fill(orderId);
  await page.getByRole("button", { name: "Create wallet" }).click();
  await expect(page.getByRole("status").filter({ hasText: orderId })).toBeVisible();
  await expect(page.getByRole("img", { name: new RegExp(`QR code of the .+ address for ${orderId}`) })).toBeVisible();
  await page.getByRole("button", { name: "Copy address of the new wallet" }).click();
  const walletRow = page.getByRole("table", { name: "Static wallets, newest first" }).getByRole("row").filter({ hasText: orderId });
  await expect(walletRow).toContainText((await clipboard()).slice(0, 8));
  await walletRow.getByRole("button", { name: `Block wallet ${orderId}` }).click();
  await walletRow.getByRole("button", { name: `Confirm block of wallet ${orderId}` }).click();
  await expect(walletRow).toContainText(/blocked/i);
});

/** A decimal string as an exact fraction over 10^18 (the test's own parser: no floats). */
function toAtto(text: string): bigint {
  const [whole, fraction = ""] = text.replaceAll(",", "").split(".");
  return BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, "0"));
}

test("an invoice shows its platform fee and net as the CSV does; a sandbox transaction links to no explorer but copies", async ({ page }) => {
  await signInOwner(page);
  const info = (await api("/v1/payment/info", { uuid: paidInvoiceUuid })).body.result;
  await page.goto(`${baseUrl()}/cabinet/invoices/${paidInvoiceUuid}`);
  const details = page.getByRole("region", { name: "Payment", exact: true });
  const valueOf = async (label: string) => (await details.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]").innerText()).trim();
  const fee = (await valueOf("Platform fee")).match(/^([\d.,]+) USDT/)![1];
  const net = (await valueOf("Net to you")).match(/^([\d.,]+) USDT/)![1];
  expect(toAtto(fee)).toBeGreaterThan(0n);
  expect(toAtto(fee) + toAtto(net)).toBe(toAtto(info.amount_paid));

  // The CSV export of the same invoice has the same two figures, after the amounts.
  await page.goto(`${baseUrl()}/cabinet/invoices?q=${paidInvoiceUuid}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const [header, line] = fs.readFileSync((await download.path())!, "utf8").trimEnd().split("\r\n").map((row) => row.split(","));
  expect(header.slice(7, 11)).toEqual(["amount_paid", "fee", "net", "network"]);
  expect([toAtto(line[8]), toAtto(line[9])]).toEqual([toAtto(fee), toAtto(net)]);

  // The e2e service runs sandbox chains only: their transactions are on no public explorer, so
  // none is linked (the catalogue's templates and the mainnet rule are unit-tested), and the copy
  // buttons stay.
  await page.goto(`${baseUrl()}/cabinet/invoices/${paidInvoiceUuid}`);
  await expect(details.getByText(info.txid)).toBeVisible();
  await expect(page.locator("a[data-explorer-link]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Copy transaction id" })).toBeVisible();
  await page.goto(`${baseUrl()}/cabinet/payouts/${payoutUuid}`);
  await expect(page.locator("a[data-explorer-link]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Copy address" })).toBeVisible();
});

test("the overview estimates balances and volume in the chosen fiat, labelled, with the period before, and remembers the choice", async ({ page }) => {
  await signInOwner(page);
  await page.goto(`${baseUrl()}/cabinet?period=30d`);
  const fiatSelect = page.getByLabel("Estimates in");
  await expect(fiatSelect).toHaveValue("USD");
  const balances = page.getByTestId("fiat-balances");
  await expect(balances).toContainText(/Available ≈ [\d.,]+ USD estimate/);
  const volume = page.getByTestId("volume-comparison");
  await expect(volume).toContainText(/paid in the last 30 days, against \d+ in the 30 days before: ≈ [\d.,]+ USD estimate against ≈ [\d.,]+ USD estimate/);
  await expect(page.getByRole("table", { name: "Paid volume per currency, against the period before" }).getByRole("columnheader", { name: "Period before" })).toBeVisible();
  await expect(page.getByText("Estimates in USD at today's rate")).toBeVisible();

  await fiatSelect.selectOption("EUR");
  await expect(balances).toContainText(/Available ≈ [\d.,]+ EUR estimate/);
  await expect(volume).toContainText("EUR estimate");
  await page.reload();
  await expect(page.getByLabel("Estimates in")).toHaveValue("EUR");
  await expect(page.getByTestId("fiat-balances")).toContainText("EUR estimate");
  await expectAccessible(page);
  await page.getByLabel("Estimates in").selectOption("USD");
  await expect(page.getByTestId("fiat-balances")).toContainText("USD estimate");
});

const PAGES: { name: string; path: () => string; heading: string }[] = [
  { name: "overview", path: () => "/cabinet", heading: "Overview" },
  { name: "invoices", path: () => "/cabinet/invoices", heading: "Invoices" },
  { name: "invoice", path: () => `/cabinet/invoices/${paidInvoiceUuid}`, heading: "Invoice" },
  { name: "new-invoice", path: () => "/cabinet/invoices/new", heading: "New invoice" },
  { name: "payouts", path: () => "/cabinet/payouts", heading: "Payouts" },
  { name: "approval-queue", path: () => "/cabinet/payouts?view=approval", heading: "Payouts" },
  { name: "new-payout", path: () => "/cabinet/payouts/new", heading: "New payout" },
  { name: "payout", path: () => `/cabinet/payouts/${payoutUuid}`, heading: "Payout" },
  { name: "payment-links", path: () => "/cabinet/payment-links", heading: "Payment links" },
  { name: "payout-links", path: () => "/cabinet/payout-links", heading: "Payout links" },
  { name: "static-wallets", path: () => "/cabinet/wallets", heading: "Static wallets" },
  { name: "settings", path: () => "/cabinet/settings", heading: "Settings" },
  { name: "webhooks", path: () => "/cabinet/webhooks", heading: "Webhooks" },
  { name: "api-keys", path: () => "/cabinet/api-keys", heading: "API keys" },
  { name: "team", path: () => "/cabinet/team", heading: "Team" },
  { name: "account", path: () => "/cabinet/account", heading: "Account" },
];

for (const viewport of [
  { device: "desktop", width: 1280, height: 900 },
  { device: "phone", width: 390, height: 844 },
]) {
  test(`every cabinet page on a ${viewport.device}, light and dark: accessible, no horizontal scrolling, photographed`, async ({ page, context }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signInOwner(page);
    // Every page is visited whatever one of them shows; the problems are told together at the end.
    const problems: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      await context.addCookies([{ name: "gateway_cabinet_theme", value: theme, url: baseUrl() }]);
      for (const entry of PAGES) {
        await page.goto(baseUrl() + entry.path());
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^${entry.heading}`));
        await expect(page.locator("[data-theme]").first()).toHaveAttribute("data-theme", theme);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) problems.push(`${entry.name} (${theme}): scrolls ${overflow} px sideways`);
        for (const problem of await accessibilityProblems(page)) problems.push(`${entry.name} (${theme}): ${problem}`);
        for (const problem of await invisibleFields(page)) problems.push(`${entry.name} (${theme}): ${problem}`);
        await screenshot(page, `${entry.name}-${viewport.device}-${theme}`);
      }
    }
    expect(problems).toEqual([]);
  });
}

test("a refund to a mistyped address is refused before a code is asked for", async ({ page }) => {
  await signInOwner(page);
  await page.goto(`${baseUrl()}/cabinet/invoices/${paidInvoiceUuid}`);
  const form = page.getByRole("form", { name: "Refund this payment" });
  const address = form.getByLabel("Address");
  // The field is seen: the monospaced address keeps the field's border.
  expect(await address.evaluate((field) => parseFloat(getComputedStyle(field).borderTopWidth))).toBeGreaterThan(0);
  await address.fill("TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeX");
  await form.getByRole("button", { name: "Create refund" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This is not a valid Tron address" })).toBeVisible();
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Confirm refund" })).toHaveCount(0);
  await address.fill("0x52908400098527886E0F7030069857D2E4169EE7");
  await form.getByRole("button", { name: "Create refund" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This is an address of another network, not of Tron" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirm refund" })).toHaveCount(0);
  // A good address goes on to the review, where the fresh code is asked for.
  await address.fill("TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC");
  await form.getByRole("button", { name: "Create refund" }).click();
  await expect(page.getByRole("button", { name: "Confirm refund" })).toBeVisible();
});

test("an invoice made by hand: its payment page's link and QR code to share, the same invoice in the list", async ({ page }) => {
  await signInOwner(page);
  await page.goto(`${baseUrl()}/cabinet/invoices`);
  await page.getByRole("link", { name: "New invoice" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New invoice" })).toBeVisible();
  const orderId = `phone-${randomUUID().slice(0, 8)}`;
  const form = page.getByRole("form", { name: "New invoice" });
  await form.getByLabel("Amount").fill("49.90");
  await form.getByLabel("Price currency").selectOption("EUR");
  await form.getByLabel("Paid in").selectOption("USDT");
  await form.getByLabel("Network").selectOption("tron");
  await form.getByLabel("Order id").fill(orderId);
  // The connection drops as the form is sent: the page stays, says so, and keeps what was typed.
  const dropActions = (route: import("@playwright/test").Route) => (route.request().headers()["next-action"] ? route.abort("internetdisconnected") : route.fallback());
  await page.route("**/cabinet/**", dropActions);
  await form.getByRole("button", { name: "Create invoice" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The service could not be reached" })).toBeVisible();
  await expect(form.getByLabel("Order id")).toHaveValue(orderId);
  await page.unroute("**/cabinet/**", dropActions);
  await form.getByRole("button", { name: "Create invoice" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invoice ${orderId} for 49.90 EUR created` })).toBeVisible();
  await expect(page.getByRole("img", { name: `QR code of the payment page of ${orderId}` })).toBeVisible();
  const url = (await page.getByTestId("new-invoice-url").innerText()).trim();
  const uuid = url.split("/").pop()!;
  expect((await api("/v1/payment/info", { uuid })).body.result).toMatchObject({ order_id: orderId, amount: "49.90", currency: "EUR", network: "tron" });
  await expectAccessible(page);
  await page.getByRole("link", { name: "Open the invoice" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${orderId}`);
});

test("the theme switcher changes the theme at once and remembers it", async ({ page }) => {
  await signInOwner(page);
  await page.goto(`${baseUrl()}/cabinet`);
  const themed = page.locator("[data-theme]").first();
  await page.getByLabel("Theme").selectOption("dark");
  await expect(themed).toHaveAttribute("data-theme", "dark");
  await page.reload();
  await expect(themed).toHaveAttribute("data-theme", "dark");
  await expect(page.getByLabel("Theme")).toHaveValue("dark");
  await page.getByLabel("Theme").selectOption("light");
  await expect(themed).toHaveAttribute("data-theme", "light");
});
