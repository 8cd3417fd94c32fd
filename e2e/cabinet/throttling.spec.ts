import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "../testing/accessibility";
import { createCabinetMerchant, pageAlert, signIn, signInFirstTime, signOut, type CabinetUserCredentials } from "../testing/cabinet";
import { useHostedService } from "../testing/hosted-service";
import { expectSecurityHeaders } from "../testing/security-headers";

// Throttling in a real browser, against `npm start`: a flood of wrong passwords for one account
// locks that account from where the flood comes, and nobody else — another visitor from the very
// same address signs in as usual (no bucket is shared between accounts).

const service = useHostedService("Throttled shop");
const baseUrl = service.baseUrl;

function newOwner(name: string): CabinetUserCredentials {
  return { email: `${name}-${randomUUID().slice(0, 8)}@example.com`, password: "a long enough password" };
}

test("a flood of wrong passwords for one account does not lock another visitor out", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const target = newOwner("target");
  const visitor = newOwner("visitor");
  createCabinetMerchant(service.env(), "Target shop", target.email, target.password);
  createCabinetMerchant(service.env(), "Visitor shop", visitor.email, visitor.password);
  await signInFirstTime(page, baseUrl(), visitor);
  await signOut(page);

  // The flood, from a browser of its own: thirty wrong passwords for the target, more than any per-address bucket would take.
  const attacker = await browser.newContext();
  const flood = await attacker.newPage();
  service.watchErrors(flood);
  await expectSecurityHeaders(await flood.goto(`${baseUrl()}/cabinet/sign-in`), "the cabinet's sign-in");
  for (let attempt = 1; attempt <= 30; attempt++) {
    await flood.getByLabel("Email").fill(target.email);
    await flood.getByLabel("Password").fill(`wrong password ${attempt}`);
    await flood.getByRole("button", { name: "Sign in" }).click();
    await expect(pageAlert(flood)).toContainText(attempt <= 5 ? /password is wrong|Too many failed attempts/ : /Too many failed attempts/);
  }
  // The right password for the target is refused from here while the lock lasts.
  await flood.getByLabel("Email").fill(target.email);
  await flood.getByLabel("Password").fill(target.password);
  await flood.getByRole("button", { name: "Sign in" }).click();
  await expect(pageAlert(flood)).toContainText("Too many failed attempts");
  await attacker.close();

  // Another visitor, from the same address, signs in as always: password, then a code.
  await signIn(page, baseUrl(), visitor);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expectSecurityHeaders(await page.goto(`${baseUrl()}/cabinet/account`), "the cabinet");
  await expectAccessible(page);
});
