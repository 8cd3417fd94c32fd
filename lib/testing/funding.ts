import { callSigned, makeMerchant, type TestMerchant } from "./harness";

/**
 * An invoice in USDT on the tron sandbox chain, paid in full from a sandbox payer address and
 * confirmed (the test configuration matures at once): money arriving the way it really does.
 * Returns the invoice as payment info shows it after payment.
 */
export async function payInvoice(merchant: TestMerchant, usd = "200.00"): Promise<{ uuid: string; payer_amount: string; payer_address: string; order_id: string }> {
  const orderId = `paid-${Math.random().toString(36).slice(2)}`;
  const invoice = (await callSigned("/v1/payment", { amount: usd, currency: "USD", to_currency: "USDT", network: "tron", order_id: orderId }, merchant)).body.result;
  await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  return (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant)).body.result;
}

/** Gives a merchant an available balance through a paid invoice; returns its available USDT on tron. */
export async function fundMerchant(merchant: TestMerchant, usd = "200.00"): Promise<string> {
  await payInvoice(merchant, usd);
  const balances = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant)).body.result.balances;
  return balances[0]?.available ?? "0";
}

/** A new merchant with an available USDT balance on tron (see fundMerchant). */
export async function makeFundedMerchant(usd = "200.00"): Promise<{ merchant: TestMerchant; available: string }> {
  const merchant = await makeMerchant();
  return { merchant, available: await fundMerchant(merchant, usd) };
}

/**
 * A blocked static wallet (USDT on tron) holding one confirmed deposit made after the block:
 * what the blocked-address refund returns. Returns the wallet's uuid.
 */
export async function makeBlockedWalletWithHeldDeposit(merchant: TestMerchant, amount = "12"): Promise<string> {
  const wallet = (await callSigned("/v1/wallet", { currency: "USDT", network: "tron", order_id: `held-${Math.random().toString(36).slice(2)}` }, merchant)).body.result;
  await callSigned("/v1/wallet/block", { uuid: wallet.uuid }, merchant);
  await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: wallet.address, amount }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  return wallet.uuid;
}
