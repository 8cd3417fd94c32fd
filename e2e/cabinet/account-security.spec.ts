import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessible } from "../testing/accessibility";
import {
  confirmWithCode,
  createCabinetMerchant,
  freshCode,
  pageAlert,
  screenshot,
  signIn,
  signInFirstTime,
  signOut,
  type CabinetUserCredentials,
} from "../testing/cabinet";
import { useHostedService } from "../testing/hosted-service";
import { runCli } from "../testing/service";

// The Account page's controls for a stolen session or a lost phone, in a real browser against
// `npm start`: changing the password signs every other browser out and e-mails a notice; a user
// who lost the authenticator signs in with a recovery code and sets up a new app; "Sign out
// everywhere" ends every session, this one included.

const service = useHostedService("Account shop");
const baseUrl = service.baseUrl;

function newOwner(): CabinetUserCredentials {
  const owner = { email: `owner-${randomUUID().slice(0, 8)}@example.com`, password: "a long enough password" };
  createCabinetMerchant(service.env(), "Account shop", owner.email, owner.password);
  return owner;
}

/** The same user signed in from a browser of its own (another device). */
async function signInElsewhere(browser: Browser, user: CabinetUserCredentials): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  service.watchErrors(page);
  await signIn(page, baseUrl(), user);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  return page;
}

/** Whether a browser is signed out: the cabinet sends it to the sign-in page. */
async function expectSignedOut(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/cabinet`);
  await expect(page).toHaveURL(/\/cabinet\/sign-in/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
}

/** The subjects of the e-mails to an address in the local mailbox (no SMTP_URL). */
function mailSubjectsTo(email: string): string[] {
  const mailbox = runCli(service.env(), ["mailbox", "--json"]);
  expect(mailbox.status, mailbox.stderr).toBe(0);
  return (mailbox.json.messages as { to: string; subject: string }[]).filter((message) => message.to === email).map((message) => message.subject);
}

test("changing the password asks for the current one and a fresh code, signs the other browsers out and e-mails a notice", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const owner = newOwner();
  await signInFirstTime(page, baseUrl(), owner);
  const laptop = await signInElsewhere(browser, owner);

  await page.goto(`${baseUrl()}/cabinet/account`);
  const panel = page.getByRole("region", { name: "Password", exact: true });
  await expect(panel).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "account-security-desktop-light");

  // The repetition must match: told before anything is sent.
  await panel.getByLabel("Current password", { exact: true }).fill(owner.password);
  await panel.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
  await panel.getByLabel("Repeat the new password", { exact: true }).fill("a brand new passphrasE");
  await panel.getByRole("button", { name: "Change password" }).click();
  await expect(panel.getByRole("alert")).toContainText("differ");

  // A wrong current password is refused after the code, and nothing changes.
  await panel.getByLabel("Current password", { exact: true }).fill("not the password");
  await panel.getByLabel("Repeat the new password", { exact: true }).fill("a brand new passphrase");
  await panel.getByRole("button", { name: "Change password" }).click();
  await confirmWithCode(page, owner);
  await expect(panel.getByRole("alert")).toContainText("The current password is wrong.");
  await laptop.reload();
  await expect(laptop.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  await panel.getByLabel("Current password", { exact: true }).fill(owner.password);
  await panel.getByRole("button", { name: "Change password" }).click();
  await confirmWithCode(page, owner);
  await expect(panel.getByRole("status")).toContainText("Password changed. 1 other browser was signed out.");
  await expectAccessible(page);
  owner.password = "a brand new passphrase";

  // The other browser is out; this one stays; the user was told by e-mail; the log has it.
  await expectSignedOut(laptop);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Signed-in browsers" }).locator("tbody tr")).toHaveCount(1);
  expect(mailSubjectsTo(owner.email)).toContain("Your Gateway password was changed");
  await expect(page.getByRole("region", { name: "Audit log", exact: true })).toContainText("password.changed");

  // The new password signs in; the old one no longer does.
  await laptop.getByLabel("Email").fill(owner.email);
  await laptop.getByLabel("Password").fill("a long enough password");
  await laptop.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(laptop)).toContainText("e-mail address or the password is wrong");
  await signIn(laptop, baseUrl(), owner);
  await expect(laptop.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
});

test("a user who lost the authenticator signs in with a recovery code and sets up a new app, on a phone in the dark theme", async ({ page, context }) => {
  test.setTimeout(180_000);
  const owner = newOwner();
  await signInFirstTime(page, baseUrl(), owner);
  await signOut(page);

  // The phone is gone: in with the password and a recovery code.
  await page.setViewportSize({ width: 390, height: 844 });
  await context.addCookies([{ name: "gateway_cabinet_theme", value: "dark", url: baseUrl() }]);
  await signIn(page, baseUrl(), owner, owner.recoveryCodes![0]);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  await page.goto(`${baseUrl()}/cabinet/account`);
  await expect(page.locator("[data-theme]").first()).toHaveAttribute("data-theme", "dark");
  const panel = page.getByRole("region", { name: "Two-factor authentication", exact: true });
  await panel.getByRole("button", { name: "Replace authenticator app" }).click();
  await panel.getByLabel("Your password", { exact: true }).fill(owner.password);
  await panel.getByRole("button", { name: "Continue" }).click();
  // The fresh code asked for here is another recovery code: the old app is gone.
  await confirmWithCode(page, owner, owner.recoveryCodes![1]);
  await expect(panel.getByRole("img", { name: "QR code of your new two-factor key" })).toBeVisible();
  const newSecret = (await panel.getByTestId("new-totp-key").innerText()).trim();
  expect(newSecret).toMatch(/^[A-Z2-7]{16,}$/);
  expect(newSecret).not.toBe(owner.secret);
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, "account-authenticator-reset-phone-dark");

  // A code of the old app does not confirm the new one.
  await panel.getByLabel("Code from the new app", { exact: true }).fill(await freshCode(owner));
  await panel.getByRole("button", { name: "Confirm new app" }).click();
  await expect(panel.getByRole("alert")).toContainText("wrong or was already used");

  const oldSecret = owner.secret;
  owner.secret = newSecret;
  await panel.getByLabel("Code from the new app", { exact: true }).fill(await freshCode(owner));
  await panel.getByRole("button", { name: "Confirm new app" }).click();
  await expect(panel.getByRole("status")).toContainText("The new authenticator app is in use");
  const newCodes = (await panel.getByTestId("recovery-codes").locator("li").allInnerTexts()).map((code) => code.trim());
  expect(newCodes).toHaveLength(10);
  expect(newCodes.filter((code) => owner.recoveryCodes!.includes(code))).toEqual([]);
  await expectAccessible(page);
  expect(mailSubjectsTo(owner.email)).toContain("Your Gateway authenticator app was replaced");

  // Signed out: the old recovery codes and the old app no longer sign in; the new app does.
  await page.goto(`${baseUrl()}/cabinet`);
  await signOut(page);
  await signIn(page, baseUrl(), owner, owner.recoveryCodes![2]);
  await expect(pageAlert(page)).toContainText("wrong or was already used");
  await page.getByLabel("Code", { exact: true }).fill(await freshCode({ ...owner, secret: oldSecret }));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(page)).toContainText("wrong or was already used");
  await page.getByLabel("Code", { exact: true }).fill(await freshCode(owner));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.goto(`${baseUrl()}/cabinet/account`);
  await expect(page.getByRole("region", { name: "Audit log", exact: true })).toContainText("two_factor.reset");
});

test("sign out everywhere, by keyboard, ends this browser's session and every other", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const owner = newOwner();
  await signInFirstTime(page, baseUrl(), owner);
  const tablet = await signInElsewhere(browser, owner);

  await page.goto(`${baseUrl()}/cabinet/account`);
  await expect(page.getByRole("table", { name: "Signed-in browsers" }).locator("tbody tr")).toHaveCount(2);
  const button = page.getByRole("button", { name: "Sign out everywhere" });
  await button.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Confirm with a code" });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  // Cancelling changes nothing.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await tablet.reload();
  await expect(tablet.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  await button.focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Code", { exact: true })).toBeFocused();
  await page.keyboard.type(await freshCode(owner));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/cabinet\/sign-in/);
  await expectSignedOut(page);
  await expectSignedOut(tablet);
  await expectAccessible(page);

  // Back in, the log tells it.
  await signIn(page, baseUrl(), owner);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.goto(`${baseUrl()}/cabinet/account`);
  await expect(page.getByRole("region", { name: "Audit log", exact: true })).toContainText("session.revoked_all");
  await expect(page.getByRole("table", { name: "Signed-in browsers" }).locator("tbody tr")).toHaveCount(1);
  await expect(pageAlert(page)).toHaveCount(0);
});
