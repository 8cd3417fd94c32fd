import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { ERASED_BODY, EXPIRED_BODY, sendPendingEmails } from "@/lib/jobs/handlers/send-emails";
import { fundMerchant } from "@/lib/testing/funding";

const inbox: ParsedMail[] = [];
let smtp: SMTPServer;
let smtpUrl: string;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        inbox.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("POST /v1/payment/send-email", () => {
  it("sends the invoice e-mail with a pay button through SMTP, to payer_email or to `email`", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps({}, { SMTP_URL: smtpUrl, MAIL_FROM: "Shop <shop@example.com>" });
    const invoice = (await callSigned("/v1/payment", { amount: "42.00", currency: "USD", order_id: "mail-1", payer_email: "buyer@example.com" }, merchant, { deps })).body.result;
    const queued = await callSigned("/v1/payment/send-email", { uuid: invoice.uuid }, merchant, { deps });
    expect(queued.body.result).toEqual({ sent: true, email: "buyer@example.com", uuid: invoice.uuid });
    const other = await callSigned("/v1/payment/send-email", { order_id: "mail-1", email: "friend@example.com" }, merchant, { deps });
    expect(other.body.result.email).toBe("friend@example.com");
    await sendPendingEmails(deps);
    const mine = inbox.filter((mail) => mail.text?.includes(invoice.uuid));
    expect(mine.map((mail) => mail.to && "text" in mail.to ? mail.to.text : "").sort()).toEqual(["buyer@example.com", "friend@example.com"]);
    expect(mine[0].subject).toBe("Payment request: 42.00 USD (order mail-1)");
    expect(mine[0].html).toContain(`http://gateway.test/pay/${invoice.uuid}`);
    expect(mine[0].from?.text).toContain("shop@example.com");
  });

  it("sends the receipt automatically once the invoice is paid", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps({}, { SMTP_URL: smtpUrl });
    const invoice = (await callSigned("/v1/payment", { amount: "30", currency: "USD", to_currency: "USDT", network: "tron", payer_email: "paid@example.com" }, merchant, { deps })).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant, { deps });
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 30 }, merchant, { deps });
    await sendPendingEmails(deps);
    const receipt = inbox.find((mail) => mail.subject === "Payment received" && mail.text?.includes(invoice.payer_amount));
    expect(receipt?.text).toContain("Price: 30.00 USD");
  });

  it("sends a payout link's claim e-mail and keeps no claim URL at rest once it is sent", async () => {
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "50.00");
    const deps = makeTestDeps({}, { SMTP_URL: smtpUrl });
    const link = (await callSigned("/v1/payout/link", { currency: "USDT", network: "tron", amount: "5", email: "winner@example.com", title: "Prize" }, merchant, { deps })).body.result;
    await sendPendingEmails(deps);
    const mail = inbox.find((candidate) => candidate.text?.includes(link.claim_url));
    expect(mail?.subject).toBe("Prize: 5 USDT for you");
    expect(mail?.html).toContain(link.claim_url);
    const row = await getTestDb().outboundEmail.findFirstOrThrow({ where: { merchantId: merchant.merchantId, recipient: "winner@example.com" } });
    expect(row).toMatchObject({ status: "sent", text: ERASED_BODY, html: null });
  });

  it("erases a secret link kept in the local mailbox after a day; other messages stay", async () => {
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "50.00");
    const deps = makeTestDeps();
    const link = (await callSigned("/v1/payout/link", { currency: "USDT", network: "tron", amount: "5", email: "kept@example.com", title: "Prize" }, merchant, { deps })).body.result;
    const invoice = (await callSigned("/v1/payment", { amount: "5", currency: "USD" }, merchant)).body.result;
    await callSigned("/v1/payment/send-email", { uuid: invoice.uuid, email: "kept@example.com" }, merchant);
    const rows = () => getTestDb().outboundEmail.findMany({ where: { merchantId: merchant.merchantId }, orderBy: { createdAt: "asc" }, select: { status: true, text: true } });
    await sendPendingEmails(deps);
    expect((await rows())[0].text).toContain(link.claim_url); // within the day: the operator may still hand it over
    await sendPendingEmails({ ...deps, now: () => new Date(Date.now() + 25 * 3600_000) });
    const [claim, invoiceMail] = await rows();
    expect(claim).toEqual({ status: "kept", text: EXPIRED_BODY });
    expect(invoiceMail.text).toContain(invoice.uuid);
  });

  it("keeps messages in the local mailbox without SMTP, and refuses when e-mail is off", async () => {
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "5", currency: "USD" }, merchant)).body.result;
    const kept = await callSigned("/v1/payment/send-email", { uuid: invoice.uuid, email: "local@example.com" }, merchant);
    expect(kept.body.result.sent).toBe(true);
    expect(await getTestDb().outboundEmail.findFirst({ where: { merchantId: merchant.merchantId }, select: { status: true } })).toEqual({ status: "kept" });
    const off = makeTestDeps({}, { GATEWAY_SANDBOX: "0" });
    const disabled = await callSigned("/v1/payment/send-email", { uuid: invoice.uuid, email: "x@example.com" }, merchant, { deps: off });
    expect(disabled.status).toBe(503);
    expect(disabled.body.error.code).toBe("email.disabled");
  });

  it.each([
    [{}, "payment.no_lookup", 400],
    [{ uuid: "bad" }, "payment.bad_uuid", 400],
    [{ uuid: "00000000-0000-4000-8000-000000000000" }, "payment.not_found", 404],
  ])("%j → %s", async (body, code, status) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payment/send-email", body, merchant);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });

  it("answers email.no_recipient without payer_email or email, and email.bad_address for a malformed one", async () => {
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "5", currency: "USD" }, merchant)).body.result;
    expect((await callSigned("/v1/payment/send-email", { uuid: invoice.uuid }, merchant)).body.error.code).toBe("email.no_recipient");
    expect((await callSigned("/v1/payment/send-email", { uuid: invoice.uuid, email: "not-an-address" }, merchant)).body.error.code).toBe("email.bad_address");
  });
});
