import { randomUUID } from "node:crypto";
import type { Payout, SplitShare } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import type { AppDeps } from "@/lib/deps/app-deps";
import { findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { applyShareMoves, planShareMoves, shareTarget, type ShareAmounts } from "@/lib/domain/split/shares";
import { computePayoutAmounts } from "@/lib/domain/payout/amounts";
import { LIVE_PAYOUT_STATUSES } from "@/lib/domain/payout/transition";
import { isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { repayDebtFromAvailable } from "@/lib/ledger/debt";
import { lockAccounts, postJournal } from "@/lib/ledger/post";
import { parseAssetKey, payoutReleasedJournal, splitShareAdjustedJournal, splitShareReleasedJournal, type AccountKey, type Bucket } from "@/lib/ledger/postings";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { screenDestination } from "@/lib/services/compliance/screening";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { quoteFee } from "@/lib/services/money-out/payout-terms";
import { writePayout } from "@/lib/services/money-out/write-payout";

/**
 * Split shares of one payment, inside the transaction that holds the payment's row lock: every
 * writer of a payment's shares (its settlement, a refund, a failed refund, a reorganisation, the
 * release) takes that lock first, so a share has one writer at a time.
 */

export interface SplitSettings {
  splitsEnabled: boolean;
  /** The maturity hold: a share is never released before the payment's own funds mature. */
  maturityHoldSeconds: number;
}

/**
 * At a payment's first settlement: one share per active rule of the merchant that applies to it
 * (an internal partner shares every payment; an external address, the payments received on its
 * network), to be released after the merchant's refund window. Rules deleted or added later do
 * not change a payment's shares.
 */
export async function takeSplitShares(
  tx: Tx,
  settings: SplitSettings,
  payment: { id: string; merchantId: string; network: string; asset: string },
  now: Date,
): Promise<void> {
  if (!settings.splitsEnabled) return;
  const rules = await tx.splitRule.findMany({ where: { merchantId: payment.merchantId, active: true }, orderBy: { createdAt: "asc" } });
  const applying = rules.filter((rule) => rule.partnerMerchantId !== null || rule.network === payment.network);
  if (applying.length === 0) return;
  const releaseAt = await shareReleaseAt(tx, settings, payment.merchantId, now);
  await tx.splitShare.createMany({
    data: applying.map((rule) => ({
      id: randomUUID(),
      invoiceId: payment.id,
      ruleId: rule.id,
      merchantId: payment.merchantId,
      partnerMerchantId: rule.partnerMerchantId,
      address: rule.address,
      network: rule.network,
      asset: payment.asset,
      percentBps: rule.percentBps,
      releaseAt,
      createdAt: now,
      updatedAt: now,
    })),
    skipDuplicates: true,
  });
}

/**
 * When shares of money settled now may leave: after the merchant's refund window, and never
 * before the settled funds' own maturity hold.
 */
export async function shareReleaseAt(tx: Tx, settings: SplitSettings, merchantId: string, now: Date): Promise<Date> {
  const merchant = await tx.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { splitRefundHoldHours: true } });
  return new Date(now.getTime() + Math.max(merchant.splitRefundHoldHours * 3_600_000, settings.maturityHoldSeconds * 1000));
}

/** Where the money for a share's growth comes from. */
export type ShareFunding =
  /**
   * The settlement being posted: its net credit, which the caller's settlement journal splits;
   * what it adds to a share waits for a window of its own (a late payment's starts anew).
   */
  | { kind: "settlement"; netMinor: bigint; settings: SplitSettings }
  /** The merchant's available funds (a refund that failed gives its amount back there). */
  | { kind: "available" };

/**
 * Brings every share of a payment to its rule's percentage of what the payment credited less
 * what is refunded of it (spec: Split rules). Within the window a refund shrinks the held share
 * (a full refund cancels it) and the money returns to the merchant's available, before the
 * refund reserves it; after the window an internal share is clawed back from the partner (into
 * the partner's debt where its available falls short); an external share already sent stays
 * sent. Growth (a settlement, a refund that failed) goes into held.
 *
 * @param creditedDelta what this event adds to (or, for a reorganisation, takes from) the payment's net credit
 * @param refundedMinor what counts as refunded; omitted, the payment's live refunds
 * @returns what the shares took from a settlement's net credit (split_held in its journal)
 */
export async function moveSplitShares(
  tx: Tx,
  input: { invoiceId: string; creditedDelta: bigint; refundedMinor?: bigint; funding: ShareFunding },
  now: Date,
): Promise<bigint> {
  const shares = await tx.splitShare.findMany({ where: { invoiceId: input.invoiceId }, orderBy: { createdAt: "asc" } });
  if (shares.length === 0) return 0n;
  const refunded = input.refundedMinor ?? (await liveRefundedMinor(tx, input.invoiceId));
  const { merchantId, asset } = shares[0];
  let room: bigint;
  let releaseAt: Date | undefined;
  let maturingLot: { id: string } | null = null;
  if (input.funding.kind === "settlement") {
    room = input.funding.netMinor;
    releaseAt = await shareReleaseAt(tx, input.funding.settings, merchantId, now);
  } else {
    // The payment's funds still maturing (its newest unmatured lot) take back what a share gives
    // up, so a refund cannot spend them before the hold ends. The lot first, as the maturity job
    // takes a lot before the merchant's accounts.
    maturingLot = await lockMaturingLot(tx, { invoiceId: input.invoiceId, merchantId, asset });
    await lockSplitAccounts(tx, shares, now);
    room = await balanceOf(tx, { owner: merchantId, asset, bucket: "available" });
  }
  let heldFromSettlement = 0n;
  for (const share of shares) {
    const credited = toMinor(share.creditedMinor) + input.creditedDelta;
    if (credited < 0n) throw new RangeError(`split share ${share.id} would be credited less than nothing`);
    const amounts = amountsOf(share);
    const moves = planShareMoves({ ...amounts, isReversible: share.partnerMerchantId !== null }, shareTarget(credited, refunded, share.percentBps), room);
    const heldFromAvailable = input.funding.kind === "available" ? moves.hold : 0n;
    if (input.funding.kind === "settlement") {
      // A settlement only grows shares (its credit raises every target; a shrink drains held
      // first, so no share is above its target here): what it holds is paid from its net alone.
      if (moves.unhold + moves.clawBack > 0n) throw new RangeError(`settlement of payment ${input.invoiceId} would shrink split share ${share.id}`);
      room -= moves.hold;
      heldFromSettlement += moves.hold;
    } else {
      room += (maturingLot ? 0n : moves.unhold) + moves.clawBack - moves.hold;
    }
    // Growth funded by a settlement is posted in the settlement's own journal; everything else here.
    const isPosted = heldFromAvailable + moves.unhold + moves.clawBack > 0n;
    if (isPosted) {
      const partnerAvailable = share.partnerMerchantId && moves.clawBack > 0n ? await balanceOf(tx, { owner: share.partnerMerchantId, asset, bucket: "available" }) : 0n;
      const fromAvailable = moves.clawBack < partnerAvailable ? moves.clawBack : partnerAvailable;
      await postJournal(
        tx,
        splitShareAdjustedJournal({
          reference: `split:${share.id}:move:${share.moves + 1}`,
          merchantId,
          partnerMerchantId: share.partnerMerchantId,
          asset,
          hold: heldFromAvailable,
          unhold: moves.unhold,
          unheldTo: maturingLot ? "maturing" : "available",
          clawedBack: { fromAvailable, asDebt: moves.clawBack - fromAvailable },
        }),
        now,
      );
      if (maturingLot && moves.unhold > 0n) await tx.maturityLot.update({ where: { id: maturingLot.id }, data: { amount: { increment: moves.unhold.toString() } } });
    }
    const after = applyShareMoves(amounts, moves);
    await tx.splitShare.update({
      where: { id: share.id },
      data: {
        creditedMinor: credited.toString(),
        heldMinor: after.held.toString(),
        releasedMinor: after.released.toString(),
        returnedMinor: after.returned.toString(),
        ...(isPosted ? { moves: { increment: 1 } } : {}),
        ...(releaseAt && moves.hold > 0n && releaseAt > share.releaseAt ? { releaseAt } : {}),
        updatedAt: now,
      },
    });
  }
  return heldFromSettlement;
}

/**
 * Takes a payment's row lock and, when it has split shares, the accounts their moves touch (in
 * the ledger's order, before the caller's first journal). Returns the shares.
 */
export async function lockPaymentShares(tx: Tx, invoiceId: string, now: Date): Promise<SplitShare[]> {
  await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${invoiceId}::uuid FOR UPDATE`;
  const shares = await tx.splitShare.findMany({ where: { invoiceId } });
  await lockSplitAccounts(tx, shares, now);
  return shares;
}

/** The newest lot of a payment's settlements still maturing, locked; null when all matured. */
async function lockMaturingLot(tx: Tx, payment: { invoiceId: string; merchantId: string; asset: string }): Promise<{ id: string } | null> {
  const [lot] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM maturity_lots
    WHERE merchant_id = ${payment.merchantId}::uuid AND asset = ${payment.asset} AND matured_at IS NULL AND reference LIKE ${`invoice:${payment.invoiceId}:settle:%`}
    ORDER BY created_at DESC LIMIT 1 FOR UPDATE`;
  return lot ?? null;
}

/** What the live refunds of a payment take back of it, in its minor units. */
export async function liveRefundedMinor(tx: Tx, invoiceId: string): Promise<bigint> {
  const refunds = await tx.payout.findMany({ where: { invoiceId, kind: "refund", status: { in: LIVE_PAYOUT_STATUSES } }, select: { requestedAmount: true } });
  return refunds.reduce((sum, refund) => sum + BigInt(refund.requestedAmount), 0n);
}

/**
 * Every account a move of these shares may touch — the merchant's spendable, held and split
 * accounts and each internal partner's available and debt — locked in the ledger's one order
 * before the first journal (so this never deadlocks with a payout, a settlement or a release).
 */
export async function lockSplitAccounts(tx: Tx, shares: Pick<SplitShare, "merchantId" | "asset" | "partnerMerchantId">[], now: Date): Promise<void> {
  if (shares.length === 0) return;
  const { merchantId, asset } = shares[0];
  const merchant = (bucket: Bucket): AccountKey => ({ owner: merchantId, asset, bucket });
  const accounts: AccountKey[] = [merchant("available"), merchant("debt"), merchant("maturing"), merchant("payout_held"), merchant("split_held")];
  for (const share of shares) {
    if (share.partnerMerchantId) accounts.push({ owner: share.partnerMerchantId, asset, bucket: "available" }, { owner: share.partnerMerchantId, asset, bucket: "debt" });
  }
  await lockAccounts(tx, accounts, now);
}

function amountsOf(share: SplitShare): ShareAmounts {
  return { held: toMinor(share.heldMinor), released: toMinor(share.releasedMinor), returned: toMinor(share.returnedMinor) };
}

async function balanceOf(tx: Tx, account: AccountKey): Promise<bigint> {
  const row = await tx.ledgerAccount.findUnique({ where: { owner_asset_bucket: account }, select: { balance: true } });
  return row ? toMinor(row.balance) : 0n;
}

/** Why a held external share did not go out and returned to the merchant. */
type ReleaseRefusal = "below_fee" | "compliance.blocked" | "destination_internal";

/** What a release knows before its transaction: screening's refusal (external shares) and the network fee. */
interface ReleasePlan {
  shareId: string;
  refusal: ReleaseRefusal | null;
  fee: bigint;
}

/** Shares held past their window, oldest first: what the release job works through. */
export function listDueSplitShares(db: Db, now: Date, limit: number): Promise<SplitShare[]> {
  return db.splitShare.findMany({ where: { heldMinor: { gt: 0 }, releaseAt: { lte: now } }, orderBy: { releaseAt: "asc" }, take: limit });
}

/**
 * Releases one held share whose window ended. An internal share moves to the partner's available
 * (paying back the partner's debt first); an external one becomes a payout of kind `split` from
 * the merchant's account, its fee taken from the share, sent like any payout and announced with
 * `payout.*`. A share the fee would swallow, or whose address screening now refuses, returns to
 * the merchant with its reason. Idempotent: each release is one journal under the share's next
 * move number, in the transaction that empties held; false when a refund or another worker got
 * there first.
 */
export const releaseSplitShare: UnitOfWork<SplitShare, ReleasePlan | "skip", boolean> = {
  async prepare(deps, share) {
    const refusal = share.partnerMerchantId ? null : await checkExternalRelease(deps, share);
    if (refusal === "skip") return "skip";
    const { symbol, network } = parseAssetKey(share.asset);
    const fee = share.partnerMerchantId ? 0n : await quoteFee(deps, { asset: findSettlementAsset(symbol, network)! });
    return { shareId: share.id, refusal, fee };
  },
  async execute(tx, deps, plan) {
    if (plan === "skip") return false;
    const { shareId, refusal: screened, fee } = plan;
    const now = deps.now();
    const { invoiceId } = await tx.splitShare.findUniqueOrThrow({ where: { id: shareId }, select: { invoiceId: true } });
    await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${invoiceId}::uuid FOR UPDATE`;
    const share = await tx.splitShare.findUniqueOrThrow({ where: { id: shareId } });
    const held = toMinor(share.heldMinor);
    if (held === 0n || share.releaseAt > now) return false; // a refund or another worker got there first
    await lockSplitAccounts(tx, [share], now);
    const reference = `split:${share.id}:move:${share.moves + 1}`;
    const moved = { moves: { increment: 1 }, heldMinor: "0", updatedAt: now };

    if (share.partnerMerchantId) {
      await postJournal(tx, splitShareReleasedJournal({ reference, merchantId: share.merchantId, asset: share.asset, amount: held, to: { partnerMerchantId: share.partnerMerchantId } }), now);
      await repayDebtFromAvailable(tx, { merchantId: share.partnerMerchantId, asset: share.asset, reference: `${reference}:debt` }, now);
      await tx.splitShare.update({ where: { id: share.id }, data: { ...moved, releasedMinor: (toMinor(share.releasedMinor) + held).toString(), reason: "" } });
      return true;
    }

    const amounts = computePayoutAmounts({ requested: held, fee, isSubtract: false });
    const refusal = screened ?? (amounts === "below_fee" ? "below_fee" : null);
    if (refusal || amounts === "below_fee") {
      await postJournal(tx, splitShareReleasedJournal({ reference, merchantId: share.merchantId, asset: share.asset, amount: held, to: "merchant" }), now);
      await tx.splitShare.update({ where: { id: share.id }, data: { ...moved, returnedMinor: (toMinor(share.returnedMinor) + held).toString(), reason: refusal ?? "below_fee" } });
      log.warn("split share returned to the merchant", { shareId: share.id, reason: refusal });
      return true;
    }
    const { symbol: currency, network } = parseAssetKey(share.asset);
    const payoutId = randomUUID();
    // The share's hold becomes the payout's reserve, under the reference every payout's reserve
    // has (the audit pairs them); the money-out policy decides whether it goes out at once.
    const written = await writePayout(tx, deps, {
      row: {
        id: payoutId,
        merchantId: share.merchantId,
        orderId: `split:${share.id}:${share.moves + 1}`,
        kind: "split",
        invoiceId: share.invoiceId,
        source: "api",
        currency,
        network,
        address: share.address!,
        amountMinor: amounts.amount.toString(),
        feeMinor: amounts.fee.toString(),
        debitMinor: amounts.debit.toString(),
        requestedAmount: held.toString(),
        isSubtract: false,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      },
      kind: "split",
      actor: "split",
      // The share's payout answers to who made the rule: that person is not the second one.
      askedBy: (await tx.splitRule.findUnique({ where: { id: share.ruleId }, select: { createdBy: true } }))?.createdBy,
      reserve: { journals: [splitShareReleasedJournal({ reference: `payout:${payoutId}:reserve`, merchantId: share.merchantId, asset: share.asset, amount: held, to: "payout" })] },
    });
    // The order id counts the share's moves under the payment's lock: taken only by a bug.
    if (!written) throw new Error(`split payout split:${share.id}:${share.moves + 1} exists already`);
    await tx.splitShare.update({ where: { id: share.id }, data: { ...moved, releasedMinor: (toMinor(share.releasedMinor) + held).toString(), reason: "" } });
    return true;
  },
};

/** Screening and the gateway's own addresses, asked before the transaction; "skip" when screening cannot answer now. */
async function checkExternalRelease(deps: AppDeps, share: SplitShare): Promise<ReleaseRefusal | null | "skip"> {
  const destination = { network: share.network as NetworkId, address: share.address! };
  try {
    await assertNotGatewayAddress(deps, destination);
    await screenDestination(deps, destination);
    return null;
  } catch (error) {
    if (isAppError(error) && error.code === "compliance.blocked") return "compliance.blocked";
    if (isAppError(error) && error.code === "payout.destination_internal") return "destination_internal";
    if (isAppError(error) && error.code === "compliance.unavailable") return "skip";
    throw error;
  }
}

/** Failed payouts of one share after which it stops trying and returns to the merchant. */
export const MAX_SPLIT_PAYOUT_FAILURES = 3;
/** The wait before a share whose payout failed is sent again. */
const SPLIT_RETRY_MS = 3_600_000;

/**
 * Inside the transaction that moved a `split` payout to failed: its reserve goes back to the
 * share it paid (`split_held`, released again after an hour), so the partner is still owed it —
 * or, after MAX_SPLIT_PAYOUT_FAILURES failed payouts of the share, to the merchant's available,
 * the share recording why. Under the payment's lock, as every writer of its shares.
 */
export async function returnSplitPayout(tx: Tx, payout: Payout, now: Date): Promise<void> {
  const shareId = /^split:([0-9a-f-]{36}):\d+$/.exec(payout.orderId)?.[1];
  if (!shareId || !payout.invoiceId) throw new Error(`payout ${payout.id} is not a split share's payout`);
  await tx.$queryRaw`SELECT id FROM invoices WHERE id = ${payout.invoiceId}::uuid FOR UPDATE`;
  const share = await tx.splitShare.findUniqueOrThrow({ where: { id: shareId } });
  await lockSplitAccounts(tx, [share], now);
  const debit = toMinor(payout.debitMinor);
  const failures = await tx.payout.count({ where: { merchantId: payout.merchantId, orderId: { startsWith: `split:${share.id}:` }, status: "failed" } });
  const isGivenUp = failures >= MAX_SPLIT_PAYOUT_FAILURES;
  await postJournal(tx, payoutReleasedJournal({ payoutId: payout.id, merchantId: payout.merchantId, asset: share.asset, debit, to: isGivenUp ? "available" : "split_held" }), now);
  const reason = `payout ${payout.id} failed${payout.waitReason ? `: ${payout.waitReason}` : ""}`.slice(0, 500);
  await tx.splitShare.update({
    where: { id: share.id },
    data: isGivenUp
      ? { releasedMinor: (toMinor(share.releasedMinor) - debit).toString(), returnedMinor: (toMinor(share.returnedMinor) + debit).toString(), reason, updatedAt: now }
      : {
          releasedMinor: (toMinor(share.releasedMinor) - debit).toString(),
          heldMinor: (toMinor(share.heldMinor) + debit).toString(),
          releaseAt: new Date(now.getTime() + SPLIT_RETRY_MS),
          reason,
          updatedAt: now,
        },
  });
}

