import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "../testing/accessibility";
import { createCabinetMerchant, enterPassword, pageAlert, freshCode, screenshot, signIn, signInFirstTime, signOut, wrongCode, type CabinetUserCredentials } from "../testing/cabinet";
import { useHostedService } from "../testing/hosted-service";

// Signing in to the merchant cabinet in a real browser, against `npm start`: a merchant made by the
// operator CLI enrols two-factor authentication from the key on the page, then signs in with a
// code and with a recovery code; reused and wrong codes are refused; five wrong codes lock.

const service = useHostedService("Cabinet shop");
const baseUrl = service.baseUrl;

function newOwner(): CabinetUserCredentials {
  return { email: `owner-${randomUUID().slice(0, 8)}@example.com`, password: "a long enough password" };
}

test("an owner made by the CLI enrols 2FA, signs out, signs in with a code and with a recovery code; reused and wrong codes are refused", async ({ page }) => {
  const owner = newOwner();
  createCabinetMerchant(service.env(), "Cabinet shop", owner.email, owner.password);

  await page.goto(`${baseUrl()}/cabinet/invoices`);
  await expect(page).toHaveURL(/\/cabinet\/sign-in/);
  await expectAccessible(page);
  await screenshot(page, "sign-in-light");

  // A wrong password is told, and the page stays on the first step.
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(page)).toContainText("e-mail address or the password is wrong");

  await enterPassword(page, baseUrl(), owner);
  await expect(page.getByRole("heading", { name: "Set up two-factor authentication" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of your two-factor key" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "enrol-light");
  owner.secret = (await page.getByTestId("totp-key").innerText()).trim();
  // A wrong code does not enrol.
  await page.getByLabel("Code", { exact: true }).fill(await wrongCode(owner));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(page)).toContainText("wrong or was already used");
  await page.getByLabel("Code", { exact: true }).fill(await freshCode(owner));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  owner.recoveryCodes = (await page.getByTestId("recovery-codes").locator("li").allInnerTexts()).map((code) => code.trim());
  expect(new Set(owner.recoveryCodes).size).toBe(10);
  await expectAccessible(page);
  await screenshot(page, "recovery-codes-light");
  await page.getByRole("link", { name: /I have saved them/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Balances" })).toBeVisible();

  // Signed out, the cabinet is closed again.
  await signOut(page);
  await page.goto(`${baseUrl()}/cabinet`);
  await expect(page).toHaveURL(/\/cabinet\/sign-in/);

  // In again with a code from the app.
  const code = await freshCode(owner);
  await signIn(page, baseUrl(), owner, code);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await signOut(page);

  // The same code again is refused; so is a wrong one.
  await signIn(page, baseUrl(), owner, code);
  await expect(pageAlert(page)).toContainText("wrong or was already used");
  await page.getByLabel("Code", { exact: true }).fill(await wrongCode(owner));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(page)).toContainText("wrong or was already used");

  // A recovery code signs in once.
  await page.getByLabel("Code", { exact: true }).fill(owner.recoveryCodes[0]);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await signOut(page);
  await signIn(page, baseUrl(), owner, owner.recoveryCodes[0]);
  await expect(pageAlert(page)).toContainText("wrong or was already used");

  // The audit log tells all of it.
  await page.getByLabel("Code", { exact: true }).fill(await freshCode(owner));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.goto(`${baseUrl()}/cabinet/account`);
  const audit = page.getByRole("region", { name: "Audit log", exact: true });
  await expect(audit).toContainText("sign_in.recovery_code");
  await expect(audit).toContainText("two_factor.enrolled");
  await expect(audit.getByText("failure").first()).toBeVisible();
});

test("five wrong codes lock the account for a while, with a clear message", async ({ page }) => {
  const owner = newOwner();
  createCabinetMerchant(service.env(), "Locked shop", owner.email, owner.password);
  await signInFirstTime(page, baseUrl(), owner);
  await signOut(page);

  await enterPassword(page, baseUrl(), owner);
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  for (let attempt = 1; attempt <= 4; attempt++) {
    await page.getByLabel("Code", { exact: true }).fill(await wrongCode(owner));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(pageAlert(page)).toContainText("wrong or was already used");
  }
  await page.getByLabel("Code", { exact: true }).fill(await wrongCode(owner));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(page)).toContainText(/Too many failed attempts\. Try again in 1[45] minutes/);
  await screenshot(page, "locked-light");

  // Locked: the right code is refused too, and so is the password step.
  await page.getByLabel("Code", { exact: true }).fill(await freshCode(owner));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(page)).toContainText("Too many failed attempts");
  await page.getByRole("button", { name: "Use another account" }).click();
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(page)).toContainText("Too many failed attempts");
});
