import type { Payout, Prisma } from "@/generated/prisma/client";
import type { GatewayConfig } from "@/lib/config/env";
import type { Db, Tx } from "@/lib/db/client";
import { OPERATOR } from "@/lib/auth/api-keys";
import { judgeReserve } from "@/lib/domain/payout/amounts";
import { decideMoneyOut, type MoneyOutDecision, type MoneyOutKind, type MoneyOutThreshold } from "@/lib/domain/payout/money-out-policy";
import type { PayoutStatus } from "@/lib/domain/payout/transition";
import { AppError } from "@/lib/errors";
import { lockSpendableBalance, type SpendableBalance } from "@/lib/ledger/balances";
import { lockAccounts, postJournals } from "@/lib/ledger/post";
import { assetKey, payoutReservedJournal, type Journal } from "@/lib/ledger/postings";
import { recordPayoutEvent } from "./payout-events";
import { freezeLiftsAt, frozenRefusal, MONEY_MOVING_KEY_KINDS } from "./payout-freeze";

export interface PayoutWriterDeps {
  config: Pick<GatewayConfig, "payoutFreezeSeconds" | "payoutWaitingSeconds">;
  now(): Date;
}

/** A payout's row as its maker builds it; the writer sets who decided it and its status. */
export type PayoutRowDraft = Omit<Prisma.PayoutCreateManyInput, "status" | "approvedBy" | "approvedAt" | "holdReason" | "autoApproveAt" | "createdBy" | "askedBy"> & { id: string };

export interface PayoutToWrite {
  row: PayoutRowDraft;
  kind: MoneyOutKind;
  /** Who asks: `key:<public id>`, `user:<id>`, `cli:…`, or the service's own maker (`payoutlink:<id>`, `split`, `autowithdraw`). */
  actor: string;
  /**
   * Whose request it carries out, when the service makes it on someone's behalf (a link's creator,
   * who set the auto-withdraw or split rule): that person is not the second one. The actor when absent.
   */
  askedBy?: string;
  /** Back to the address that paid (refunds): never frozen, never held. */
  isToPayer?: boolean;
  /**
   * How the debit is reserved into payout_held: from the merchant's available balance, checked
   * under its lock by the writer (`balance`: already locked by the caller, figures kept running);
   * or by the maker's own journals, whose accounts the maker has locked (a link's hold, a split
   * share, a blocked wallet's deposits). `afterInsert` runs once the row is in, before the balance
   * is judged (a from_currency conversion that funds it).
   */
  reserve: { from: "available"; balance?: SpendableBalance; afterInsert?: (tx: Tx) => Promise<void> } | { journals: Journal[] };
}

export interface WriteOptions {
  /** Journals are added here instead of posted (a batch posts its chunk at once). */
  journals?: Journal[];
  /** The policy's facts per asset, read once for payouts written together (see readPolicyFacts). */
  facts?: Map<string, PolicyFacts>;
  endpointUrl?: string | null;
}

/** What the policy needs of the database for one merchant's asset, and the person asking. */
export interface PolicyFacts {
  frozenUntil: Date | null;
  threshold: MoneyOutThreshold | null;
  /** Running: each payout written adds its debit. */
  spentLastDay: bigint;
  /** Members who may approve money out (user:<id>); read when first needed. */
  approvers?: string[];
}

/** Roles whose members may approve money out (the `money` permission). */
const APPROVER_ROLES = ["owner", "admin", "finance"];
const DAY_MS = 86_400_000;

/**
 * The one writer of new payouts, inside the caller's transaction, for every kind of money out:
 * the policy decides (lib/domain/payout/money-out-policy: the freeze, four eyes by person, the
 * owner's thresholds); the row is written with that status under its unique keys; its debit is
 * reserved into payout_held; its first status is announced. Returns null, writing nothing, when
 * a unique key is taken (the caller finds the existing payout); throws `payout.frozen` or the
 * reserve's refusal (before writing anything when the caller keeps a running balance), and the
 * caller's transaction rolls back.
 */
export async function writePayout(tx: Tx, deps: PayoutWriterDeps, payout: PayoutToWrite, options: WriteOptions = {}): Promise<Payout | null> {
  const { row } = payout;
  // The moment its maker stamped the row: created, reserved and announced at one time.
  const now = row.createdAt ? new Date(row.createdAt) : deps.now();
  const asset = assetKey(row.currency, row.network);
  const debit = BigInt(String(row.debitMinor));
  let balance = "from" in payout.reserve ? (payout.reserve.balance ?? (await lockSpendableBalance(tx, row.merchantId, asset))) : null;
  // A maker that reserves with its own journals: the balance and every account of those journals
  // locked here in the ledger's order (those the maker took already are no-ops), so the facts
  // below are read under the balance's lock whatever the kind.
  if ("journals" in payout.reserve) {
    const balanceAccounts = (["available", "debt", "maturing", "payout_held"] as const).map((bucket) => ({ owner: row.merchantId, asset, bucket }));
    await lockAccounts(tx, [...balanceAccounts, ...payout.reserve.journals.flatMap((journal) => journal.postings.map((posting) => posting.account))], now);
  }
  // Read under the balance's lock: what was spent today cannot move underneath.
  const facts = await policyFactsOf(tx, deps, row.merchantId, asset, now, options.facts);
  const decide = (hasOtherApprover: boolean) =>
    decideMoneyOut({
      kind: payout.kind,
      isToPayer: payout.isToPayer === true,
      frozenUntil: facts.frozenUntil,
      debit,
      threshold: facts.threshold,
      spentLastDay: facts.spentLastDay,
      hasOtherApprover,
      waitingPeriodMs: deps.config.payoutWaitingSeconds * 1000,
      now,
    });
  let decision = decide(true);
  // Who else may approve matters only to money out that waits for a second person.
  if (decision.outcome === "needs_approval") {
    facts.approvers ??= await readApprovers(tx, row.merchantId);
    const asker = await personOf(tx, row.merchantId, payout.askedBy || payout.actor);
    decision = decide(facts.approvers.some((person) => person !== asker));
  }
  if (decision.outcome === "frozen") throw frozenRefusal(decision.liftsAt);
  // A batch's running balance is judged before the row is written, so a refused element writes
  // nothing and the batch's transaction goes on with the next.
  const isBatch = "from" in payout.reserve && payout.reserve.balance !== undefined;
  if (isBatch) judge(balance!, debit);
  const [written] = await tx.payout.createManyAndReturn({ data: [{ ...row, createdBy: payout.actor, askedBy: payout.askedBy ?? "", ...statusOf(decision, payout.actor, now) }], skipDuplicates: true });
  // A taken unique key answers before the balance does: the caller finds the existing payout.
  if (!written) return null;
  if ("from" in payout.reserve && payout.reserve.afterInsert) {
    await payout.reserve.afterInsert(tx);
    balance = await lockSpendableBalance(tx, row.merchantId, asset);
  }
  if (balance && !isBatch) judge(balance, debit);
  const journals = "journals" in payout.reserve ? payout.reserve.journals : [payoutReservedJournal({ payoutId: row.id, merchantId: row.merchantId, asset, debit })];
  if (options.journals) options.journals.push(...journals);
  else await postJournals(tx, journals, now);
  if (balance) balance.available -= debit;
  facts.spentLastDay += debit;
  await recordPayoutEvent(tx, written, now, options.endpointUrl === undefined ? {} : { endpointUrl: options.endpointUrl });
  return written;
}

function judge(balance: SpendableBalance, debit: bigint): void {
  const verdict = judgeReserve(balance, debit);
  if (verdict !== "ok") throw reserveRefusal(verdict);
}

function statusOf(decision: Exclude<MoneyOutDecision, { outcome: "frozen" }>, actor: string, now: Date) {
  if (decision.outcome === "approved") return { status: "approved" satisfies PayoutStatus, approvedBy: actor, approvedAt: now, holdReason: "", autoApproveAt: null };
  return { status: "pending" satisfies PayoutStatus, approvedBy: null, approvedAt: null, holdReason: decision.reason, autoApproveAt: decision.outcome === "waits" ? decision.until : null };
}

async function policyFactsOf(tx: Tx, deps: PayoutWriterDeps, merchantId: string, asset: string, now: Date, memo: Map<string, PolicyFacts> | undefined): Promise<PolicyFacts> {
  const known = memo?.get(asset);
  if (known) return known;
  const facts = await readPolicyFacts(tx, deps, merchantId, asset, now);
  memo?.set(asset, facts);
  return facts;
}

/** The policy's facts for one merchant's asset now (read inside the writing transaction), in one query. */
export async function readPolicyFacts(tx: Tx, deps: PayoutWriterDeps, merchantId: string, asset: string, now: Date): Promise<PolicyFacts> {
  const since = new Date(now.getTime() - DAY_MS);
  const [symbol, network] = asset.split(":");
  const [row] = await tx.$queryRaw<{ keyAt: Date | null; changedAt: Date | null; perPayout: string | null; perDay: string | null; spent: string }[]>`
    SELECT
      (SELECT MAX(created_at) FROM api_keys WHERE merchant_id = m.id AND kind = ANY(${MONEY_MOVING_KEY_KINDS}) AND revoked_at IS NULL) AS "keyAt",
      m.controls_changed_at AS "changedAt",
      t.per_payout_minor::text AS "perPayout",
      t.per_day_minor::text AS "perDay",
      CASE WHEN t.per_day_minor IS NULL THEN '0' ELSE (
        SELECT COALESCE(SUM(debit_minor), 0) FROM payouts
        WHERE merchant_id = m.id AND currency = ${symbol} AND network = ${network} AND created_at > ${since} AND status NOT IN ('failed', 'cancelled')
      )::text END AS spent
    FROM merchants m LEFT JOIN money_out_thresholds t ON t.merchant_id = m.id AND t.asset = ${asset}
    WHERE m.id = ${merchantId}::uuid`;
  const hasThreshold = row !== undefined && (row.perPayout !== null || row.perDay !== null);
  return {
    frozenUntil: freezeLiftsAt([row?.keyAt, row?.changedAt], deps.config.payoutFreezeSeconds * 1000, now),
    threshold: hasThreshold ? { perPayout: row.perPayout === null ? null : BigInt(row.perPayout), perDay: row.perDay === null ? null : BigInt(row.perDay) } : null,
    spentLastDay: BigInt(row?.spent ?? "0"),
  };
}

/** Members who may approve money out: enrolled, not removed, with the money permission. */
async function readApprovers(tx: Tx, merchantId: string): Promise<string[]> {
  const members = await tx.cabinetUser.findMany({ where: { merchantId, role: { in: APPROVER_ROLES }, disabledAt: null, totpEnabledAt: { not: null } }, select: { id: true } });
  return members.map((member) => `user:${member.id}`);
}

/**
 * The person behind an actor as payouts record it: a key's owner (the user who made it, or the
 * operator), a cabinet user, the operator for the CLI. Four eyes compare people, not credentials.
 */
export async function personOf(db: Db | Tx, merchantId: string, actor: string): Promise<string> {
  if (actor.startsWith("key:")) {
    const key = await db.apiKey.findFirst({ where: { merchantId, publicId: actor.slice("key:".length) }, select: { owner: true } });
    return key?.owner ?? actor;
  }
  if (actor.startsWith("cli:")) return OPERATOR;
  return actor;
}

/** The refusal of a reservation the balance cannot take. */
export function reserveRefusal(verdict: "in_debt" | "funds_maturing" | "insufficient_funds"): AppError {
  if (verdict === "in_debt") return new AppError("payout.insufficient_funds", "A reversal left a debt in this asset; payouts resume once it is repaid.");
  if (verdict === "funds_maturing") return new AppError("payout.funds_maturing", "The amount will be available once credited funds mature; retry later with the same order_id.");
  return new AppError("payout.insufficient_funds");
}
