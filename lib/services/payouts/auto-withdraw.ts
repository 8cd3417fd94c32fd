import type { Db, Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { addressChainOf } from "@/lib/chains/registry";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { parseAssetKey } from "@/lib/ledger/postings";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { type PayoutDeps } from "@/lib/services/money-out/payout-terms";
import { resolvePayoutDestination } from "@/lib/services/money-out/payout-destination";
import { markControlsLoosened } from "@/lib/services/money-out/payout-freeze";

/** spec: Auto-withdraw rule. */
export interface AutoWithdrawRuleView {
  currency: string;
  network: string;
  address: string;
  min_minor: string;
}

export async function listAutoWithdrawRules(db: Db, merchantId: string): Promise<{ rules: AutoWithdrawRuleView[] }> {
  const rows = await db.autoWithdrawRule.findMany({ where: { merchantId }, orderBy: [{ currency: "asc" }, { network: "asc" }] });
  return { rules: rows.map((row) => ({ currency: row.currency, network: row.network, address: row.address, min_minor: row.minMinor.toFixed() })) };
}

/**
 * spec: POST /v1/auto-withdraw/set — one rule per (merchant, asset); `min` in asset units
 * (default 0). The address is checked for the network like a payout's.
 */
export async function setAutoWithdrawRule(
  deps: Pick<PayoutDeps, "db" | "config" | "now">,
  merchantId: string,
  input: { currency?: string; network?: string; address?: string; min?: string },
  actor: string,
): Promise<AutoWithdrawRuleView> {
  if (!input.currency || !input.network || !input.address) throw new AppError("autowithdraw.missing", "currency, network and address are required.");
  const currency = normalizeSymbol(input.currency);
  const network = normalizeNetworkId(input.network);
  if (!isSettlementSymbol(currency) || !findSettlementAsset(currency, network)) throw new AppError("autowithdraw.unknown_currency", `${input.currency} on ${input.network} is not a settlement asset.`);
  const destination = resolvePayoutDestination({ currency, network, address: input.address }, (id) => addressChainOf(deps.config, id));
  const minMinor = parseAmount(input.min ?? "0", destination.asset.decimals);
  if (minMinor === null) throw new AppError("autowithdraw.bad_min", `min must be a decimal of at most ${destination.asset.decimals} places, in ${currency} units.`);
  const data = { address: destination.address, minMinor: minMinor.toString(), updatedBy: actor };
  const key = { merchantId_currency_network: { merchantId, currency, network } };
  await withTransaction(deps.db, async (tx) => {
    const earlier = await tx.autoWithdrawRule.findUnique({ where: key, select: { address: true } });
    await tx.autoWithdrawRule.upsert({ where: key, create: { merchantId, currency, network, ...data }, update: data });
    // Money pointed somewhere new: a stolen key or session cannot redirect it at once.
    if (earlier?.address !== destination.address) await markControlsLoosened(tx, merchantId, deps.now());
  });
  return { currency, network, address: destination.address, min_minor: minMinor.toString() };
}

/** spec: POST /v1/auto-withdraw/delete — disables the rules of a currency (of one network when given). */
export async function deleteAutoWithdrawRule(db: Db, merchantId: string, input: { currency?: string; network?: string }): Promise<{ deleted: boolean }> {
  if (!input.currency) throw new AppError("autowithdraw.missing", "currency is required.");
  const currency = normalizeSymbol(input.currency);
  if (!isSettlementSymbol(currency)) throw new AppError("autowithdraw.unknown_currency");
  const { count } = await db.autoWithdrawRule.deleteMany({ where: { merchantId, currency, ...(input.network ? { network: normalizeNetworkId(input.network) } : {}) } });
  return { deleted: count > 0 };
}

/**
 * Inside the transaction that made a lot available: when the merchant has a rule for the asset
 * and what the lot added to `available` reaches its threshold, the withdrawal is recorded (once
 * per lot); the payout job sends it.
 */
export async function recordDueAutoWithdrawal(tx: Tx, lot: { id: string; merchantId: string; asset: string; reference: string; added: bigint }, now: Date): Promise<void> {
  if (lot.added <= 0n) return;
  const { symbol: currency, network } = parseAssetKey(lot.asset);
  const rule = await tx.autoWithdrawRule.findUnique({ where: { merchantId_currency_network: { merchantId: lot.merchantId, currency, network } } });
  if (!rule || lot.added < toMinor(rule.minMinor)) return;
  if (await isOwedBack(tx, lot.reference)) return;
  await tx.autoWithdrawal.createMany({
    data: [{ lotId: lot.id, merchantId: lot.merchantId, currency, network, address: rule.address, amountMinor: lot.added.toString(), createdAt: now, updatedAt: now }],
    skipDuplicates: true,
  });
}

/**
 * Whether the credit's payment is one autorefund will pay back (underpaid, or overpaid: its
 * lot stays on the balance for that refund instead of going out).
 */
async function isOwedBack(tx: Tx, lotReference: string): Promise<boolean> {
  const invoiceId = /^invoice:([0-9a-f-]{36}):settle:/.exec(lotReference)?.[1];
  if (!invoiceId) return false;
  const [row] = await tx.$queryRaw<{ owed: boolean }[]>`
    SELECT ((i.status = 'wrong_amount' AND m.autorefund_underpaid_since IS NOT NULL) OR (i.status = 'paid_over' AND m.autorefund_overpaid_since IS NOT NULL))
           AND i.resolution IS NULL AND i.payer_address <> '' AS owed
    FROM invoices i JOIN merchants m ON m.id = i.merchant_id WHERE i.id = ${invoiceId}::uuid`;
  return row?.owed ?? false;
}

/** Refusals after which the withdrawal stays on the balance for good (anything else is retried). */
const FINAL_REFUSALS: Record<string, "skipped" | "blocked"> = {
  "compliance.blocked": "blocked",
  "payout.destination_internal": "blocked",
  "payout.amount_below_fee": "skipped",
  "payout.insufficient_funds": "skipped",
  "payout.bad_address": "blocked",
  "payout.address_network_mismatch": "blocked",
};

/**
 * Turns due auto-withdrawals into payouts (order_id `autowithdraw:<lot id>`, so a retry finds
 * the same payout): the net amount, the fee taken from it, screened like any payout. A
 * refusal that cannot change (a blocked address, an amount the fee swallows, a balance spent
 * meanwhile) leaves the money on the balance; a passing one (a freeze, no rate, screening
 * down) is retried on the next pass.
 */
export async function processDueAutoWithdrawals(deps: PayoutDeps, limit = 200): Promise<number> {
  const due = await deps.db.autoWithdrawal.findMany({ where: { status: "due" }, orderBy: { createdAt: "asc" }, take: limit });
  let paidOut = 0;
  for (const withdrawal of due) {
    const decimals = findSettlementAsset(withdrawal.currency, withdrawal.network)?.decimals ?? 0;
    try {
      await createPayout(
        deps,
        withdrawal.merchantId,
        {
          amount: formatAmount(toMinor(withdrawal.amountMinor), decimals),
          currency: withdrawal.currency,
          network: withdrawal.network,
          address: withdrawal.address,
          order_id: `autowithdraw:${withdrawal.lotId}`,
          is_subtract: false,
        },
        {
          actor: "autowithdraw",
          kind: "auto_withdraw",
          // The withdrawal answers to who set the rule: that person is not the second one.
          askedBy: (await deps.db.autoWithdrawRule.findUnique({ where: { merchantId_currency_network: { merchantId: withdrawal.merchantId, currency: withdrawal.currency, network: withdrawal.network } }, select: { updatedBy: true } }))?.updatedBy,
          // Marked paid out in the payout's own transaction: a crash cannot leave it due, to be refused later.
          onWritten: async (tx, payout) => {
            await tx.autoWithdrawal.updateMany({ where: { lotId: withdrawal.lotId, status: "due" }, data: { status: "paid_out", payoutId: payout.id, reason: "", updatedAt: deps.now() } });
          },
        },
      );
      paidOut++;
    } catch (error) {
      const outcome = isAppError(error) ? FINAL_REFUSALS[error.code] : undefined;
      const reason = isAppError(error) ? `${error.code}: ${error.message}` : "internal error";
      await deps.db.autoWithdrawal.updateMany({ where: { lotId: withdrawal.lotId, status: "due" }, data: { ...(outcome ? { status: outcome } : {}), reason: reason.slice(0, 500), updatedAt: deps.now() } });
      if (!outcome) log.warn("auto-withdrawal not sent yet; the next pass retries", { lotId: withdrawal.lotId, error });
    }
  }
  return paidOut;
}
