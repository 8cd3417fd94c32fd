import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db, Tx } from "@/lib/db/client";
import { findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { validateAddress } from "@/lib/chains/addresses/validate-address";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf, getChainSender } from "@/lib/chains/registry";
import { lockAccounts, postJournal } from "@/lib/ledger/post";
import { assetKey, PLATFORM, returnedFromColdJournal } from "@/lib/ledger/postings";
import { payoutConfirmations } from "@/lib/services/payouts/send-payouts";

export interface ColdReturnDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "hotWalletLimits">;
  now(): Date;
}

export interface ColdReturnRequest {
  network: NetworkId;
  currency: string;
  /** The operator's transaction from the cold address to the hot wallet. */
  txid: string;
  /** The cold address it came from; the asset's configured COLD_ADDRESS_* when absent. */
  fromAddress?: string;
}

export type ColdReturnOutcome =
  | { kind: "booked"; amount: bigint; reference: string }
  | { kind: "already_booked"; amount: bigint; reference: string }
  /** Why it is not booked: the operator corrects and asks again. */
  | { kind: "refused"; reason: string };

/** A return the chain proved, to be booked: what the transaction delivered, under its journal's reference. */
export interface ProvenColdReturn {
  kind: "proven";
  txid: string;
  asset: string;
  amount: bigint;
  reference: string;
}

/**
 * Proves coins the operator sent back from the cold address to the hot wallet (to refill it for
 * payouts), so the books count them in custody again: cold → chain, once per transaction and
 * asset (the journal's reference), for exactly what the chain's own record of the transaction
 * delivered from that address to the hot wallet, once it is as deep as a payout must be, and
 * never more than the books hold in cold storage. Until then reconciliation shows the coins as
 * an unexplained surplus. Outside any transaction: the chain's record, or why it is not booked
 * (recordReturnFromCold books a proven one).
 */
export async function proveReturnFromCold(deps: ColdReturnDeps, request: ColdReturnRequest): Promise<ColdReturnOutcome | ProvenColdReturn> {
  const { network, currency, txid } = request;
  if (!findSettlementAsset(currency, network)) return { kind: "refused", reason: `${currency} is not carried on ${network}` };
  const sender = getChainSender(deps.db, deps.config, network);
  if (!sender) return { kind: "refused", reason: `no chain serves ${network}` };
  if (!sender.readDelivered) return { kind: "refused", reason: `${network}'s chain cannot read what a transaction delivered` };
  const chain = addressChainOf(deps.config, network);
  const configured = deps.config.hotWalletLimits.find((limit) => limit.network === network && limit.currency === currency)?.coldAddress;
  const named = request.fromAddress ?? configured;
  if (!named) return { kind: "refused", reason: `no cold address for ${currency} on ${network}: name it (--from) or set COLD_ADDRESS_${network.toUpperCase()}` };
  const cold = validateAddress(network, named, { chain });
  if (!cold.ok) return { kind: "refused", reason: `${named} is not a ${network} address of this chain` };
  const asset = assetKey(currency, network);
  const reference = returnedFromColdJournal({ txid, asset, amount: 1n }).reference;
  const earlier = await bookedAmount(deps.db, reference, asset);
  if (earlier !== null) return { kind: "already_booked", amount: earlier, reference };

  const hot = hotWalletAddress(await loadKeyMaterial(deps.db, deps.secretBox), network, chain);
  const sent = { fromAddress: cold.normalized, consumes: {} };
  const state = await sender.getTransaction(txid, sent);
  const depth = payoutConfirmations(network);
  if (state.state !== "confirmed" || state.confirmations < depth) {
    return { kind: "refused", reason: `the transaction is ${state.state === "confirmed" ? `${state.confirmations} blocks deep, ${depth} needed` : state.state === "pending" ? "not in a block yet" : state.state === "failed" ? "failed on chain" : "unknown to the chain"}` };
  }
  const amount = await sender.readDelivered(txid, sent, { toAddress: hot, currency });
  if (amount <= 0n) return { kind: "refused", reason: `the transaction delivered no ${currency} from ${cold.normalized} to the hot wallet ${hot}` };

  return { kind: "proven", txid, asset, amount, reference };
}

/** Books a proven return (cold → chain), under the accounts' locks: once, and never more than the books hold in cold storage. */
export async function recordReturnFromCold(tx: Tx, deps: Pick<ColdReturnDeps, "now">, { txid, asset, amount, reference }: ProvenColdReturn): Promise<ColdReturnOutcome> {
  const coldAccount = { owner: PLATFORM, asset, bucket: "cold" as const };
  await lockAccounts(tx, [{ owner: PLATFORM, asset, bucket: "chain" }, coldAccount], deps.now());
  // Under the locks: a second booking of the same transaction waits here and then finds the first.
  const booked = await bookedAmount(tx, reference, asset);
  if (booked !== null) return { kind: "already_booked", amount: booked, reference };
  const inCold = -BigInt((await tx.ledgerAccount.findUniqueOrThrow({ where: { owner_asset_bucket: coldAccount }, select: { balance: true } })).balance.toFixed());
  if (amount > inCold) return { kind: "refused", reason: `the transaction delivered ${amount} (minor units) while the books hold ${inCold} in cold storage: the rest is not the service's to book` };
  await postJournal(tx, returnedFromColdJournal({ txid, asset, amount }), deps.now());
  return { kind: "booked", amount, reference };
}

/** What an earlier booking of the journal `reference` moved into the chain account, or null when there is none. */
async function bookedAmount(db: Pick<Db, "$queryRaw">, reference: string, asset: string): Promise<bigint | null> {
  const rows = await db.$queryRaw<{ amount: string }[]>`
    SELECT (-p.amount)::text AS amount FROM ledger_postings p JOIN ledger_journals j ON j.id = p.journal_id JOIN ledger_accounts a ON a.id = p.account_id
    WHERE j.reference = ${reference} AND a.owner = ${PLATFORM} AND a.asset = ${asset} AND a.bucket = 'chain'`;
  return rows.length > 0 ? BigInt(rows[0].amount) : null;
}
