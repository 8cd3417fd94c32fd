import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "../testing/accessibility";
import {
  confirmWithCode,
  createCabinetMerchant,
  fundMerchant,
  mineBlocks,
  screenshot,
  signInFirstTime,
  type CabinetUserCredentials,
} from "../testing/cabinet";
import { useHostedService } from "../testing/hosted-service";
import { runCli } from "../testing/service";

// Four eyes in a real browser, against `npm start`: the owner invites a finance user by e-mail (the
// local mailbox), the finance user joins, enrols and creates a manual payout, cannot approve it,
// and the owner approves it with a fresh code; the payout then goes out and confirms.

const service = useHostedService("Team shop");
const baseUrl = service.baseUrl;
const RECIPIENT = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

/** The invitation link from the newest e-mail to an address in the local mailbox (no SMTP_URL). */
function invitationLinkFor(email: string): string {
  const mailbox = runCli(service.env(), ["mailbox", "--json"]);
  expect(mailbox.status, mailbox.stderr).toBe(0);
  const message = (mailbox.json.messages as { to: string; text: string }[]).find((candidate) => candidate.to === email);
  expect(message, `an e-mail to ${email}`).toBeDefined();
  const link = /https?:\/\/\S+\/cabinet\/invite\/[\w-]+/.exec(message!.text)?.[0];
  expect(link, message!.text).toBeDefined();
  return new URL(link!).pathname;
}

test("an owner invites a finance user, who creates a manual payout it cannot approve; the owner approves it with a fresh code", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const owner: CabinetUserCredentials = { email: `owner-${randomUUID().slice(0, 8)}@example.com`, password: "the owner's long password" };
  const finance: CabinetUserCredentials = { email: `finance-${randomUUID().slice(0, 8)}@example.com`, password: "finance's long password" };
  const key = createCabinetMerchant(service.env(), "Team shop", owner.email, owner.password);
  await fundMerchant(baseUrl(), key, "100");

  // The owner invites: a team change, so it asks for a fresh code.
  await signInFirstTime(page, baseUrl(), owner);
  await page.goto(`${baseUrl()}/cabinet/team`);
  await page.getByLabel("Email", { exact: true }).fill(finance.email);
  await page.getByLabel("Role", { exact: true }).selectOption("finance");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await confirmWithCode(page, owner);
  await expect(page.getByRole("status").filter({ hasText: "An invitation was sent" })).toContainText(finance.email);
  await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText(finance.email);
  await expectAccessible(page);

  // The finance user follows the e-mailed link in a browser of their own, joins and enrols.
  const financeContext = await browser.newContext();
  const financePage = await financeContext.newPage();
  service.watchErrors(financePage);
  await financePage.goto(baseUrl() + invitationLinkFor(finance.email));
  await expect(financePage.getByRole("heading", { level: 1, name: "Join Team shop" })).toBeVisible();
  await financePage.getByLabel("Password", { exact: true }).fill(finance.password);
  await financePage.getByLabel("Repeat the password").fill(finance.password);
  await financePage.getByRole("button", { name: "Join the team" }).click();
  await expect(financePage.getByText("You have joined the team")).toBeVisible();
  await signInFirstTime(financePage, baseUrl(), finance);

  // A manual payout, from the form.
  const orderId = `manual-${randomUUID().slice(0, 8)}`;
  await financePage.goto(`${baseUrl()}/cabinet/payouts/new`);
  await expect(financePage.locator("#payout-available")).toContainText("USDT");
  await financePage.getByLabel("Address").fill(RECIPIENT);
  await financePage.getByLabel("Amount").fill("10");
  await financePage.getByLabel("Order id").fill(orderId);
  await expect(financePage.getByText("Recipient receives")).toBeVisible();
  await expectAccessible(financePage);
  await financePage.getByRole("button", { name: "Create payout" }).click();
  await expect(financePage).toHaveURL(/\/cabinet\/payouts\/[0-9a-f-]{36}\?created=1/);
  await expect(financePage.getByRole("status").filter({ hasText: "Payout created" })).toBeVisible();

  // Its creator cannot approve it: the buttons are off, and say why.
  const approval = financePage.getByRole("region", { name: "Awaiting approval" });
  await expect(approval.getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(approval.getByRole("button", { name: "Reject" })).toBeDisabled();
  await expect(approval).toContainText("You created this payout; another user approves it.");
  await financePage.goto(`${baseUrl()}/cabinet/payouts?view=approval`);
  await expect(financePage.getByRole("button", { name: `Approve payout ${orderId}` })).toBeDisabled();
  await financeContext.close();

  // The owner approves it from the queue, with a fresh code.
  await page.goto(`${baseUrl()}/cabinet/payouts?view=approval`);
  const queue = page.getByRole("table", { name: "Payouts awaiting approval" });
  await expect(queue).toContainText(orderId);
  await expect(queue).toContainText(finance.email);
  await expectAccessible(page);
  await screenshot(page, "approval-queue-light");
  await page.getByRole("button", { name: `Approve payout ${orderId}` }).click();
  await confirmWithCode(page, owner);
  await expect(page.getByRole("status").filter({ hasText: orderId })).toContainText("approved: it goes out now");

  // Its timeline goes through to confirmation as the sandbox chain mines.
  await page.getByRole("link", { name: "All payouts" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "All payouts" })).toBeVisible();
  await page.getByRole("table", { name: "Payouts" }).getByRole("link", { name: orderId }).click();
  await expect(page).toHaveURL(/\/cabinet\/payouts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Payout", exact: true })).toBeVisible();
  await expect(async () => {
    await mineBlocks(baseUrl(), key, 5);
    await page.reload();
    await expect(page.getByRole("region", { name: "Timeline" })).toContainText("Confirmed: the recipient has the money", { timeout: 1000 });
  }).toPass({ timeout: 90_000 });
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline).toContainText(`Created by ${finance.email}`);
  await expect(timeline).toContainText(`Approved by ${owner.email}`);
  await expectAccessible(page);
  await screenshot(page, "payout-detail-light");

  // The audit log names both users.
  await page.goto(`${baseUrl()}/cabinet/account`);
  const audit = page.getByRole("region", { name: "Audit log", exact: true });
  await expect(audit).toContainText("payout.approved");
  await expect(audit).toContainText("payout.created");
  await expect(audit).toContainText("team.invited");
});
