import { callSigned, makeMerchant, type TestMerchant } from "./harness";

/**
 * Gives a merchant an available balance the way money really arrives: an invoice in USDT on the
 * tron sandbox chain, paid in full and confirmed (the test configuration matures at once).
 * Returns the merchant's available USDT on tron afterwards.
 */
export async function fundMerchant(merchant: TestMerchant, usd = "200.00"): Promise<string> {
  const invoice = (await callSigned("/v1/payment", { amount: usd, currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
  await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
  const balances = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant)).body.result.balances;
  return balances[0]?.available ?? "0";
}

/** A new merchant with an available USDT balance on tron (see fundMerchant). */
export async function makeFundedMerchant(usd = "200.00"): Promise<{ merchant: TestMerchant; available: string }> {
  const merchant = await makeMerchant();
  return { merchant, available: await fundMerchant(merchant, usd) };
}
