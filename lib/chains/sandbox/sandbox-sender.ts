import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { findNetwork, findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { validateAddress } from "../addresses";
import { ChainError, type ChainSender } from "../types";
import { sandboxTxid, submitSandboxTransaction } from "./sandbox-chain";

/** A sandbox transfer's network fee, in the native coin's minor units: nominal, like its balances. */
const SANDBOX_FEE_MINOR: Record<string, bigint> = { utxo: 1_000n, evm: 21_000_000_000_000n, tron: 1_000_000n, solana: 5_000n, ton: 10_000_000n };

/** The "signed bytes" of a sandbox transfer: what its broadcast puts into the mempool. */
const sandboxRawSchema = z.object({ currency: z.string(), from: z.string(), to: z.string(), amount: z.string().regex(/^\d+$/) });

/**
 * Sending on a sandbox chain: signing fixes the transaction and its txid, broadcasting puts it
 * into the mempool (again: a repeat is the same transaction), blocks confirm it. Sandbox chains
 * keep no balances, so sending never fails for lack of funds, and a signed transaction can
 * always still land.
 */
export function createSandboxSender(db: Db, network: NetworkId): ChainSender {
  const family = findNetwork(network)?.family ?? "utxo";
  const feeMinor = SANDBOX_FEE_MINOR[family] ?? 0n;
  const feeCurrency = findNetwork(network)?.nativeSymbol ?? "";
  return {
    network,
    async estimateFee() {
      return { feeMinor, feeCurrency };
    },
    async sign(from, transfer) {
      if (!findSettlementAsset(transfer.currency, network)) throw new ChainError(`sandbox: ${transfer.currency} is not carried on ${network}`, { retryable: false });
      if (!validateAddress(network, transfer.toAddress).ok) throw new ChainError("sandbox: the recipient is not an address of this network", { retryable: false });
      if (transfer.amountMinor <= 0n) throw new ChainError("sandbox: the amount must be positive", { retryable: false });
      const raw = JSON.stringify({ currency: transfer.currency, from: from.address, to: transfer.toAddress, amount: transfer.amountMinor.toString() });
      return { txid: sandboxTxid(network), raw, consumes: {}, feeMinor };
    },
    async broadcast(signed) {
      const parsed = sandboxRawSchema.safeParse(JSON.parse(signed.raw));
      if (!parsed.success) return { kind: "rejected", reason: "sandbox: malformed transaction", retryable: false };
      const { currency, from, to, amount } = parsed.data;
      await submitSandboxTransaction(db, { network, currency, fromAddress: from, toAddress: to, amountMinor: BigInt(amount), now: new Date(), txid: signed.txid });
      return { kind: "accepted" };
    },
    async getTransaction(txid) {
      const transaction = await db.sandboxTransaction.findUnique({ where: { txid } });
      if (!transaction) return { state: "unknown", confirmations: 0, blockHeight: null };
      if (transaction.blockHeight === null) return { state: "pending", confirmations: 0, blockHeight: null };
      const tip = await db.sandboxBlock.findFirstOrThrow({ where: { network }, orderBy: { height: "desc" } });
      return { state: "confirmed", confirmations: tip.height - transaction.blockHeight + 1, blockHeight: transaction.blockHeight, feeMinor };
    },
    async canStillLand() {
      return true;
    },
    async readDelivered(txid, sent, delivery) {
      const transaction = await db.sandboxTransaction.findUnique({ where: { txid } });
      if (!transaction || transaction.blockHeight === null) return 0n;
      const isDelivery = transaction.fromAddress === sent.fromAddress && transaction.toAddress === delivery.toAddress && transaction.currency === delivery.currency;
      return isDelivery ? BigInt(transaction.amountMinor.toFixed()) : 0n;
    },
    /**
     * Rebuilt from the chain's transactions, as no balance is kept: what reached the address in a
     * block, less what left it (the mempool too: it is spent), less the nominal fee of each
     * transaction it sent when the asset is the coin that pays it. Read from the service's
     * database, so no deadline applies.
     */
    async getBalance(address, currency) {
      if (!findSettlementAsset(currency, network)) throw new ChainError(`sandbox: ${currency} is not carried on ${network}`, { retryable: false });
      const [flows] = await db.$queryRaw<{ received: string; sent: string; sentCount: number }[]>`
        SELECT COALESCE(SUM(amount_minor) FILTER (WHERE to_address = ${address} AND currency = ${currency} AND block_height IS NOT NULL), 0)::text AS received,
               COALESCE(SUM(amount_minor) FILTER (WHERE from_address = ${address} AND currency = ${currency}), 0)::text AS sent,
               COUNT(*) FILTER (WHERE from_address = ${address})::int AS "sentCount"
        FROM sandbox_transactions WHERE network = ${network} AND (to_address = ${address} OR from_address = ${address})`;
      const fees = currency === feeCurrency ? feeMinor * BigInt(flows.sentCount) : 0n;
      return BigInt(flows.received) - BigInt(flows.sent) - fees;
    },
  };
}
