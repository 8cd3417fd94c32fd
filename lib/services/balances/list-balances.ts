import type { Db } from "@/lib/db/client";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { AppError } from "@/lib/errors";
import type { Bucket } from "@/lib/ledger/postings";

/** The buckets a merchant holds in one asset, in that asset's on-chain minor units. */
export interface AssetBalance {
  currency: string;
  network: string;
  /** On-chain decimals of the asset on that network. */
  decimals: number;
  /** Confirmed for invoices that are not final yet. */
  incoming: bigint;
  /** Credited, waiting for the maturity hold. */
  maturing: bigint;
  /** Mature: what payouts may use. */
  available: bigint;
  /** Reserved for pending payouts and payout links. */
  payoutHeld: bigint;
  /** Partners' split shares of the merchant's payments, held until their refund window ends. */
  splitHeld: bigint;
  /** What reversals took back that the merchant no longer had (zero or more); payouts wait until it is paid back. */
  debt: bigint;
}

const MERCHANT_BUCKETS: readonly Bucket[] = ["incoming", "maturing", "available", "payout_held", "split_held", "debt"];

/**
 * A merchant's balances per asset, from the ledger's accounts (every asset it ever held, zeros
 * included once it had any), optionally for one currency or one currency on one network.
 */
export async function listBalances(db: Db, merchantId: string, filter: { currency?: string; network?: string } = {}): Promise<AssetBalance[]> {
  const currency = filter.currency === undefined ? undefined : normalizeSymbol(filter.currency);
  const network = filter.network === undefined ? undefined : normalizeNetworkId(filter.network);
  if (currency !== undefined && !isSettlementSymbol(currency)) throw new AppError("balance.unknown_currency");
  if (network !== undefined && (currency === undefined || !findSettlementAsset(currency, network))) throw new AppError("balance.unknown_network");

  const rows = await db.ledgerAccount.findMany({ where: { owner: merchantId, bucket: { in: [...MERCHANT_BUCKETS] } }, orderBy: { asset: "asc" } });
  const byAsset = new Map<string, AssetBalance>();
  for (const row of rows) {
    const [symbol, assetNetwork] = row.asset.split(":");
    if ((currency !== undefined && symbol !== currency) || (network !== undefined && assetNetwork !== network)) continue;
    let balance = byAsset.get(row.asset);
    if (!balance) {
      const asset = findSettlementAsset(symbol, assetNetwork);
      if (!asset) continue; // an asset the catalogue no longer carries has no decimals to show it in
      balance = { currency: symbol, network: assetNetwork, decimals: asset.decimals, incoming: 0n, maturing: 0n, available: 0n, payoutHeld: 0n, splitHeld: 0n, debt: 0n };
      byAsset.set(row.asset, balance);
    }
    const amount = BigInt(row.balance.toFixed());
    if (row.bucket === "payout_held") balance.payoutHeld = amount;
    else if (row.bucket === "split_held") balance.splitHeld = amount;
    else if (row.bucket === "debt") balance.debt = -amount; // held below zero in the ledger
    else balance[row.bucket as "incoming" | "maturing" | "available"] = amount;
  }
  return [...byAsset.values()];
}
