import type { Db, Tx } from "@/lib/db/client";
import type { AutoWithdrawal, Payout } from "@/generated/prisma/client";
import { unitOf, type UnitOfWork } from "@/lib/deps/unit-of-work";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { addressChainOf } from "@/lib/chains/registry";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { AppError, isAppError } from "@/lib/errors";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { parseAssetKey } from "@/lib/ledger/postings";
import { payoutTurn, preparePayout, recordPayout, type PayoutPlan } from "@/lib/services/payouts/create-payout";
import type { PayoutWriterDeps } from "@/lib/services/money-out/write-payout";
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

export interface AutoWithdrawRuleChange {
  merchantId: string;
  input: { currency?: string; network?: string; address?: string; min?: string };
  actor: string;
}

interface CheckedRule {
  merchantId: string;
  currency: string;
  network: string;
  address: string;
  minMinor: bigint;
  actor: string;
}

/**
 * spec: POST /v1/auto-withdraw/set — one rule per (merchant, asset); `min` in asset units
 * (default 0). The address is checked for the network like a payout's.
 */
export const setAutoWithdrawRule = {
  async prepare(deps: Pick<PayoutDeps, "config">, { merchantId, input, actor }: AutoWithdrawRuleChange): Promise<CheckedRule> {
    if (!input.currency || !input.network || !input.address) throw new AppError("autowithdraw.missing", "currency, network and address are required.");
    const currency = normalizeSymbol(input.currency);
    const network = normalizeNetworkId(input.network);
    if (!isSettlementSymbol(currency) || !findSettlementAsset(currency, network)) throw new AppError("autowithdraw.unknown_currency", `${input.currency} on ${input.network} is not a settlement asset.`);
    const destination = resolvePayoutDestination({ currency, network, address: input.address }, (id) => addressChainOf(deps.config, id));
    const minMinor = parseAmount(input.min ?? "0", destination.asset.decimals);
    if (minMinor === null) throw new AppError("autowithdraw.bad_min", `min must be a decimal of at most ${destination.asset.decimals} places, in ${currency} units.`);
    return { merchantId, currency, network, address: destination.address, minMinor, actor };
  },
  async execute(tx: Tx, deps: { now(): Date }, rule: CheckedRule): Promise<AutoWithdrawRuleView> {
    const { merchantId, currency, network, address } = rule;
    const data = { address, minMinor: rule.minMinor.toString(), updatedBy: rule.actor };
    const key = { merchantId_currency_network: { merchantId, currency, network } };
    const earlier = await tx.autoWithdrawRule.findUnique({ where: key, select: { address: true } });
    await tx.autoWithdrawRule.upsert({ where: key, create: { merchantId, currency, network, ...data }, update: data });
    // Money pointed somewhere new: a stolen key or session cannot redirect it at once.
    if (earlier?.address !== address) await markControlsLoosened(tx, merchantId, deps.now());
    return { currency, network, address, min_minor: rule.minMinor.toString() };
  },
} satisfies UnitOfWork<AutoWithdrawRuleChange, CheckedRule, AutoWithdrawRuleView>;

/** spec: POST /v1/auto-withdraw/delete — disables the rules of a currency (of one network when given). */
export const deleteAutoWithdrawRule = unitOf(async (tx, _deps, { merchantId, input }: { merchantId: string; input: { currency?: string; network?: string } }): Promise<{ deleted: boolean }> => {
  if (!input.currency) throw new AppError("autowithdraw.missing", "currency is required.");
  const currency = normalizeSymbol(input.currency);
  if (!isSettlementSymbol(currency)) throw new AppError("autowithdraw.unknown_currency");
  const { count } = await tx.autoWithdrawRule.deleteMany({ where: { merchantId, currency, ...(input.network ? { network: normalizeNetworkId(input.network) } : {}) } });
  return { deleted: count > 0 };
});

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

/** Auto-withdrawals due to become payouts, oldest first. */
export async function listDueAutoWithdrawals(db: Db, limit: number): Promise<AutoWithdrawal[]> {
  return db.autoWithdrawal.findMany({ where: { status: "due" }, orderBy: { createdAt: "asc" }, take: limit });
}

export interface AutoWithdrawalPlan {
  lotId: string;
  payout: PayoutPlan;
}

/**
 * One due auto-withdrawal as a payout (order_id `autowithdraw:<lot id>`, so a retry finds the
 * same payout): the net amount, the fee taken from it, screened like any payout, and marked paid
 * out in the payout's own transaction — a crash cannot leave it due, to be refused later.
 */
export const payOutAutoWithdrawal = {
  async prepare(deps: PayoutDeps, withdrawal: AutoWithdrawal): Promise<AutoWithdrawalPlan> {
    const decimals = findSettlementAsset(withdrawal.currency, withdrawal.network)?.decimals ?? 0;
    // The withdrawal answers to who set the rule: that person is not the second one.
    const rule = await deps.db.autoWithdrawRule.findUnique({ where: { merchantId_currency_network: { merchantId: withdrawal.merchantId, currency: withdrawal.currency, network: withdrawal.network } }, select: { updatedBy: true } });
    const payout = await preparePayout(deps, {
      merchantId: withdrawal.merchantId,
      input: {
        amount: formatAmount(toMinor(withdrawal.amountMinor), decimals),
        currency: withdrawal.currency,
        network: withdrawal.network,
        address: withdrawal.address,
        order_id: `autowithdraw:${withdrawal.lotId}`,
        is_subtract: false,
      },
      actor: "autowithdraw",
      kind: "auto_withdraw",
      askedBy: rule?.updatedBy,
    });
    return { lotId: withdrawal.lotId, payout };
  },
  turnOf: (plan: AutoWithdrawalPlan) => payoutTurn(plan.payout),
  async execute(tx: Tx, deps: PayoutWriterDeps, plan: AutoWithdrawalPlan): Promise<Payout> {
    const payout = await recordPayout(tx, deps, plan.payout);
    await tx.autoWithdrawal.updateMany({ where: { lotId: plan.lotId, status: "due" }, data: { status: "paid_out", payoutId: payout.id, reason: "", updatedAt: deps.now() } });
    return payout;
  },
} satisfies UnitOfWork<AutoWithdrawal, AutoWithdrawalPlan, Payout>;

/**
 * A refused auto-withdrawal: a refusal that cannot change (a blocked address, an amount the fee
 * swallows, a balance spent meanwhile) leaves the money on the balance for good; a passing one
 * (a freeze, no rate, screening down) is retried on the next pass. Answers whether it is final.
 */
export async function recordAutoWithdrawalRefusal(tx: Tx, deps: { now(): Date }, lotId: string, error: unknown): Promise<boolean> {
  const outcome = isAppError(error) ? FINAL_REFUSALS[error.code] : undefined;
  const reason = isAppError(error) ? `${error.code}: ${error.message}` : "internal error";
  await tx.autoWithdrawal.updateMany({ where: { lotId, status: "due" }, data: { ...(outcome ? { status: outcome } : {}), reason: reason.slice(0, 500), updatedAt: deps.now() } });
  return outcome !== undefined;
}
