import type { Db } from "@/lib/db/client";
import { findNetwork, findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { validateAddress } from "../addresses";
import { ChainError, type ChainSender } from "../types";
import { submitSandboxTransaction } from "./sandbox-chain";

/** A sandbox transfer's network fee, in the native coin's minor units: nominal, like its balances. */
const SANDBOX_FEE_MINOR: Record<string, bigint> = { utxo: 1_000n, evm: 21_000_000_000_000n, tron: 1_000_000n, solana: 5_000n, ton: 10_000_000n };

/**
 * Sending on a sandbox chain: a transaction into its mempool, confirmed as blocks are mined.
 * Sandbox chains keep no balances, so sending never fails for lack of funds.
 */
export function createSandboxSender(db: Db, network: NetworkId): ChainSender {
  const family = findNetwork(network)?.family ?? "utxo";
  return {
    network,
    async estimateFee() {
      return { feeMinor: SANDBOX_FEE_MINOR[family] ?? 0n, feeCurrency: findNetwork(network)?.nativeSymbol ?? "" };
    },
    async send(from, transfer) {
      if (!findSettlementAsset(transfer.currency, network)) throw new ChainError(`sandbox: ${transfer.currency} is not carried on ${network}`, { retryable: false });
      if (!validateAddress(network, transfer.toAddress).ok) throw new ChainError("sandbox: the recipient is not an address of this network", { retryable: false });
      if (transfer.amountMinor <= 0n) throw new ChainError("sandbox: the amount must be positive", { retryable: false });
      const txid = await submitSandboxTransaction(db, { network, currency: transfer.currency, fromAddress: from.address, toAddress: transfer.toAddress, amountMinor: transfer.amountMinor, now: new Date() });
      return { txid };
    },
    async getTransaction(txid) {
      const transaction = await db.sandboxTransaction.findUnique({ where: { txid } });
      if (!transaction) return { state: "unknown", confirmations: 0, blockHeight: null };
      if (transaction.blockHeight === null) return { state: "pending", confirmations: 0, blockHeight: null };
      const tip = await db.sandboxBlock.findFirstOrThrow({ where: { network }, orderBy: { height: "desc" } });
      return { state: "confirmed", confirmations: tip.height - transaction.blockHeight + 1, blockHeight: transaction.blockHeight };
    },
  };
}
