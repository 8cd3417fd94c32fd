import type { Payout } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { addressChainOf } from "@/lib/chains/registry";
import { computePayoutAmounts } from "@/lib/domain/payout/amounts";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { AppError } from "@/lib/errors";
import { findSettlementAsset, isSettlementSymbol, listNetworksOfSymbol, normalizeNetworkId, normalizeSymbol, type NetworkId, type SettlementAsset } from "@/lib/catalogue";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import { applyPayoutFact } from "./apply-payout-fact";
import { quoteFee, type PayoutDeps } from "@/lib/services/money-out/payout-terms";
import { frozenRefusal, readFrozenUntil } from "@/lib/services/money-out/payout-freeze";
import { personOf } from "@/lib/services/money-out/write-payout";
import { resolvePayoutDestination } from "@/lib/services/money-out/payout-destination";
import { chooseConversionSource, CONVERTIBLE_FROM, quoteConversion } from "@/lib/services/money-out/payout-conversion";
import { isCabinetRole, roleAllows } from "@/lib/domain/cabinet/permissions";
import { isUuid } from "@/lib/domain/input/uuid";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A payout of the merchant by uuid or order_id; another merchant's payout is not found. */
export async function getMerchantPayoutOrThrow(db: Db, merchantId: string, lookup: { uuid?: string; order_id?: string }): Promise<Payout> {
  if (lookup.uuid !== undefined && lookup.uuid !== "") {
    if (!UUID.test(lookup.uuid)) throw new AppError("payout.bad_uuid");
    const payout = await db.payout.findFirst({ where: { id: lookup.uuid, merchantId } });
    if (!payout) throw new AppError("payout.not_found");
    return payout;
  }
  if (lookup.order_id !== undefined && lookup.order_id !== "") {
    const payout = await db.payout.findUnique({ where: { merchantId_orderId: { merchantId, orderId: lookup.order_id } } });
    if (!payout) throw new AppError("payout.not_found");
    return payout;
  }
  throw new AppError("payout.no_lookup");
}

export interface PayoutDecisionRequest {
  merchantId: string;
  input: { uuid?: string; order_id?: string; approve?: boolean };
  actor: string;
}

interface PayoutDecision {
  payout: Payout;
  isApproval: boolean;
  actor: string;
}

/**
 * Designed: /v1/payout/approve. A manual payout waits for someone other than its creator: with
 * `approve` (the default) it is approved and goes out; with `approve: false` it is rejected
 * (status `fail`) and its reserve returns to the balance.
 */
export const decidePendingPayout = {
  async prepare(deps: Pick<PayoutDeps, "db">, { merchantId, input, actor }: PayoutDecisionRequest): Promise<PayoutDecision> {
    const payout = await getMerchantPayoutOrThrow(deps.db, merchantId, input);
    if (payout.status !== "pending") throw new AppError("payout.not_pending", `The payout is ${payout.status}; only a pending payout is approved or rejected.`);
    // Four eyes are two people: a key answers to the user who made it (or the operator), the CLI is the operator.
    const approver = await personOf(deps.db, merchantId, actor);
    // The person it answers to: its creator, or whoever it was made for (a link's creator, a rule's author).
    if ((await personOf(deps.db, merchantId, payout.askedBy || payout.createdBy)) === approver) throw new AppError("payout.approver_is_creator");
    // ...and the second one may move money: a key outlives its maker's role or membership.
    if (!(await mayApprove(deps.db, merchantId, actor, approver))) throw new AppError("payout.approver_not_allowed");
    return { payout, isApproval: input.approve ?? true, actor };
  },
  async execute(tx: Tx, deps: Pick<PayoutDeps, "config" | "now">, { payout, isApproval, actor }: PayoutDecision): Promise<Payout> {
    const now = deps.now();
    // Read with the decision: a key minted a moment ago freezes this approval too.
    if (isApproval) {
      const frozenUntil = await readFrozenUntil(tx, deps, payout.merchantId);
      if (frozenUntil) throw frozenRefusal(frozenUntil);
    }
    const decided = await applyPayoutFact(tx, payout, { kind: isApproval ? "approve" : "reject" }, now, isApproval ? { approvedBy: actor, approvedAt: now, nextAttemptAt: now } : {});
    if (!decided) throw new AppError("payout.not_pending", "The payout was decided meanwhile.");
    return decided;
  },
} satisfies UnitOfWork<PayoutDecisionRequest, PayoutDecision, Payout>;

/**
 * Whether an actor may decide on money out: the operator at the CLI, or an enrolled member with
 * the money permission (through the cabinet, or a key the member made). A key the operator made
 * and handed to a store is not a second person of that store.
 */
async function mayApprove(db: Db, merchantId: string, actor: string, person: string): Promise<boolean> {
  if (actor.startsWith("cli:")) return true;
  if (!person.startsWith("user:")) return false;
  const id = person.slice("user:".length);
  if (!isUuid(id)) return false;
  const member = await db.cabinetUser.findFirst({ where: { id, merchantId, disabledAt: null, totpEnabledAt: { not: null } }, select: { role: true } });
  return member !== null && isCabinetRole(member.role) && roleAllows(member.role, "money");
}

/** Who approved a payout that waited out its period (money-out policy): the service itself. */
export const WAITED_APPROVER = "policy:waited";

/** Pending payouts whose waiting period ended by `now`, the longest waiting first. */
export async function listWaitedPayouts(db: Db, now: Date, limit: number): Promise<Payout[]> {
  return db.payout.findMany({ where: { status: "pending", autoApproveAt: { lte: now } }, orderBy: { autoApproveAt: "asc" }, take: limit });
}

/**
 * A pending payout whose waiting period ended (nobody else could approve it, or an automatic kind
 * held by a freeze) is approved by the service, unless a freeze holds money out now — then it
 * waits for the freeze to lift. A second person may approve, reject or cancel it earlier.
 * Answers whether it was approved.
 */
export async function approveWaitedPayout(tx: Tx, deps: Pick<PayoutDeps, "config" | "now">, payout: Payout, now: Date): Promise<boolean> {
  // Read with the decision: a key minted a moment ago freezes this approval too.
  const frozenUntil = await readFrozenUntil(tx, deps, payout.merchantId);
  if (frozenUntil) {
    await tx.payout.updateMany({ where: { id: payout.id, status: "pending", autoApproveAt: payout.autoApproveAt }, data: { autoApproveAt: frozenUntil, updatedAt: now } });
    return false;
  }
  return (await applyPayoutFact(tx, payout, { kind: "approve" }, now, { approvedBy: WAITED_APPROVER, approvedAt: now, nextAttemptAt: now })) !== null;
}

/** Designed: /v1/payout/cancel. Only a pending payout (not yet approved) can be cancelled; its reserve returns. */
export const cancelPayout = {
  async prepare(deps: Pick<PayoutDeps, "db">, { merchantId, lookup }: { merchantId: string; lookup: { uuid?: string; order_id?: string } }): Promise<Payout> {
    const found = await getMerchantPayoutOrThrow(deps.db, merchantId, lookup);
    if (found.status !== "pending") throw new AppError("payout.not_pending", `The payout is ${found.status}; only a pending payout can be cancelled.`);
    return found;
  },
  async execute(tx: Tx, deps: Pick<PayoutDeps, "now">, found: Payout): Promise<Payout> {
    const cancelled = await applyPayoutFact(tx, found, { kind: "cancel" }, deps.now());
    if (!cancelled) throw new AppError("payout.not_pending", "The payout was decided meanwhile.");
    return cancelled;
  },
} satisfies UnitOfWork<{ merchantId: string; lookup: { uuid?: string; order_id?: string } }, Payout, Payout>;

/** Designed: payout fee-config — whether the fee goes on top of the amount when a payout does not say. */
export async function getPayoutFeeConfig(db: Db, merchantId: string): Promise<{ is_subtract: boolean }> {
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { payoutFeeOnTop: true } });
  return { is_subtract: merchant.payoutFeeOnTop };
}

export async function setPayoutFeeConfig(db: Db, merchantId: string, isSubtract: boolean): Promise<{ is_subtract: boolean }> {
  await db.merchant.update({ where: { id: merchantId }, data: { payoutFeeOnTop: isSubtract } });
  return { is_subtract: isSubtract };
}

/**
 * Designed: /v1/payout/calculate — what a payout of `amount` would cost and deliver now, with
 * the same rules as POST /v1/payout: the fee of /v1/payout/services, `is_subtract` or the
 * fee-config default. An address, when given, fixes the network as the payout would.
 */
export async function calculatePayout(
  deps: Pick<PayoutDeps, "db" | "config" | "rates">,
  merchantId: string,
  input: { amount: string; currency: string; network?: string; address?: string; is_subtract?: boolean; from_currency?: string },
) {
  const currency = normalizeSymbol(input.currency);
  if (!isSettlementSymbol(currency)) throw new AppError("payout.unknown_currency");
  let asset;
  if (input.address !== undefined && input.address !== "") {
    asset = resolvePayoutDestination(input, (network) => addressChainOf(deps.config, network)).asset;
  } else {
    const networks = listNetworksOfSymbol(currency);
    const network = input.network !== undefined ? normalizeNetworkId(input.network) : networks.length === 1 ? networks[0] : undefined;
    if (network === undefined) throw new AppError("payout.no_destination", `network is required: ${currency} is on ${networks.join(", ")}.`);
    asset = findSettlementAsset(currency, network);
    if (!asset) throw new AppError("payout.asset_mismatch", `${currency} is not carried on network ${input.network}.`);
  }
  const requested = parseAmount(input.amount, asset.decimals);
  if (requested === null || requested <= 0n) throw new AppError("payout.bad_amount");
  const isSubtract = input.is_subtract ?? (await getPayoutFeeConfig(deps.db, merchantId)).is_subtract;
  const fee = await quoteFee(deps, { asset });
  const amounts = computePayoutAmounts({ requested, fee, isSubtract });
  if (amounts === "below_fee") throw new AppError("payout.amount_below_fee", "amount must be above the payout fee when the recipient bears it.");
  const format = (minor: bigint) => formatAmount(minor, asset.decimals);
  return {
    currency: asset.symbol,
    network: asset.network,
    amount: format(requested),
    is_subtract: isSubtract,
    commission: format(fee),
    receive_amount: format(amounts.amount),
    debit_amount: format(amounts.debit),
    ...(input.from_currency ? { convert: await quoteConvert(deps, merchantId, input.from_currency, asset, amounts.debit) } : {}),
  };
}

/** What creating the payout with `from_currency` would convert now, from which USDT balance, at what rate. */
async function quoteConvert(deps: Pick<PayoutDeps, "db" | "config" | "rates">, merchantId: string, fromCurrency: string, asset: SettlementAsset, debit: bigint) {
  const destination = { asset, network: asset.network as NetworkId, address: "", memo: undefined };
  const quote = await quoteConversion(deps, fromCurrency, destination);
  const source = await chooseConversionSource(deps.db, { merchantId, destination, debit, quote });
  const usdt = findSettlementAsset(CONVERTIBLE_FROM, source.network)!;
  return { from_currency: CONVERTIBLE_FROM, to_currency: asset.symbol, from_amount: formatAmount(source.fromAmount, usdt.decimals), rate: source.rate, from_network: source.network };
}

/** Designed: /v1/payout/list — the merchant's payouts, newest first, with keyset pagination. */
export async function listPayouts(db: Db, merchantId: string, filters: { status?: string[]; currency?: string; network?: string }, page: { limit: number; cursor?: string }) {
  const position = page.cursor ? decodeCursor(page.cursor, "payout.bad_cursor") : null;
  const rows = await db.payout.findMany({
    where: {
      merchantId,
      ...(filters.status ? { status: { in: filters.status } } : {}),
      ...(filters.currency ? { currency: filters.currency } : {}),
      ...(filters.network ? { network: filters.network } : {}),
      ...after(position),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? encodeCursor(items[items.length - 1]) : null };
}
