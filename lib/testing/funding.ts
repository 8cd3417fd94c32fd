import type { Address } from "viem";
import type { ApiDeps } from "@/lib/api/deps";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import type { anvilClients } from "@/lib/chains/evm/testing/anvil";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getChainAdapter } from "@/lib/chains/registry";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { parseAmount } from "@/lib/domain/money/amount";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
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

/**
 * On a real EVM node (anvil) serving `network`, in the database of `deps`: a new merchant whose balance comes from an
 * invoice paid there in the native coin, and the service's hot wallet funded with 1 coin from the
 * node's dev account (outside the books: a surplus to the reconciliation, never a shortfall).
 * Returns the merchant and the hot wallet's address.
 */
export async function makeMerchantFundedOnAnvil(
  deps: ApiDeps,
  clients: ReturnType<typeof anvilClients>,
  input: { network: NetworkId; usd: string },
): Promise<{ merchant: TestMerchant; hot: Address }> {
  const adapter = getChainAdapter(deps.db, deps.config, input.network)!;
  await scanNetwork(deps, adapter);
  const merchant = await makeMerchant({ deps });
  const symbol = findNetwork(input.network)!.nativeSymbol;
  const invoice = (await callSigned("/v1/payment", { amount: input.usd, currency: "USD", to_currency: symbol, network: input.network }, merchant, { deps })).body.result;
  await clients.walletClient.sendTransaction({ to: invoice.address, value: parseAmount(invoice.payer_amount, 18)! });
  await clients.testClient.mine({ blocks: invoice.required_confirmations + 1 });
  await scanNetwork(deps, adapter);
  const status = (await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status;
  if (status !== "paid") throw new Error(`the funding invoice is ${status}, not paid`);
  const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), input.network, HOT_WALLET_INDEX, "test").address as Address;
  await clients.publicClient.waitForTransactionReceipt({ hash: await clients.walletClient.sendTransaction({ to: hot, value: 10n ** 18n }) });
  return { merchant, hot };
}
