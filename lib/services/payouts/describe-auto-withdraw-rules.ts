import type { Db } from "@/lib/db/client";
import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { listAutoWithdrawRules } from "./auto-withdraw";

/** An auto-withdraw rule with its threshold in the coin's units (the API answers minor units). */
export interface AutoWithdrawRuleRow {
  currency: string;
  network: string;
  networkName: string;
  address: string;
  /** Decimal string in the asset's units; "0" means every credit. */
  min: string;
}

export async function describeAutoWithdrawRules(db: Db, merchantId: string): Promise<AutoWithdrawRuleRow[]> {
  const { rules } = await listAutoWithdrawRules(db, merchantId);
  return rules.map((rule) => ({
    currency: rule.currency,
    network: rule.network,
    networkName: findNetwork(rule.network)?.displayName ?? rule.network,
    address: rule.address,
    min: formatAmount(BigInt(rule.min_minor), findSettlementAsset(rule.currency, rule.network)?.decimals ?? 0),
  }));
}
