import { randomUUID } from "node:crypto";
import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { AppError, isAppError, parseInput } from "@/lib/errors";
import { lockSpendableBalance, type SpendableBalance } from "@/lib/ledger/balances";
import { postJournals } from "@/lib/ledger/post";
import { assetKey, type Journal } from "@/lib/ledger/postings";
import { findEndpointUrl } from "@/lib/webhooks/record-event";
import { checkRepeat, checkTerms, hasSameTerms, kindOf, type CreatePayoutInput, type TermsMemo } from "@/lib/services/payouts/create-payout";
import { newPayoutRow, type PayoutDeps, type PayoutTerms } from "@/lib/services/money-out/payout-terms";
import { CREATE_PAYOUT_INPUT } from "@/lib/api/requests/payout";
import { writePayout, type PayoutWriterDeps, type PolicyFacts } from "@/lib/services/money-out/write-payout";

/** What became of one element: its payout, or why there is none. */
export type ElementOutcome = { payout: Payout } | { error: AppError | Error };

/** Elements checked before the database: the outcomes settled already, and the new payouts' terms in order. */
export interface PayoutsInOrderPlan {
  merchantId: string;
  actor: string;
  /** By element: refused or repeated ones are settled; the fresh ones are null until recorded. */
  outcomes: (ElementOutcome | null)[];
  fresh: { index: number; terms: PayoutTerms }[];
}

/**
 * Many payouts of one merchant, in order against its balances, as the single call would make
 * each — but checked with what they share asked once (the fee-config, each asset's fee, each
 * address's screening), before any transaction. A repeated order_id answers its payout; an
 * element refused by its checks gets its error, and the next ones still may pass.
 */
export async function preparePayoutsInOrder(deps: PayoutDeps, merchantId: string, requests: unknown[], actor: string): Promise<PayoutsInOrderPlan> {
  const outcomes: (ElementOutcome | null)[] = requests.map(() => null);
  const memo: TermsMemo = { fees: new Map(), checkedDestinations: new Map() };
  const inputs: (CreatePayoutInput | null)[] = requests.map((request, index) => {
    try {
      return parseInput(CREATE_PAYOUT_INPUT, request);
    } catch (error) {
      outcomes[index] = { error: error as Error };
      return null;
    }
  });
  const orderIds = inputs.flatMap((input) => (input?.order_id ? [input.order_id] : []));
  const existing = new Map((await deps.db.payout.findMany({ where: { merchantId, orderId: { in: orderIds } } })).map((payout) => [payout.orderId, payout]));

  const fresh: { index: number; terms: PayoutTerms }[] = [];
  for (const [index, input] of inputs.entries()) {
    if (!input) continue;
    try {
      const earlier = input.order_id ? existing.get(input.order_id) : undefined;
      // (A second element with an order_id of this batch finds the first's payout when reserved.)
      if (earlier) outcomes[index] = { payout: checkRepeat(deps, earlier, input) };
      else fresh.push({ index, terms: await checkTerms(deps, merchantId, input, memo) });
    } catch (error) {
      outcomes[index] = { error: error as Error };
    }
  }
  return { merchantId, actor, outcomes, fresh };
}

/**
 * Whether the fresh elements are recorded one transaction each, in order, as the single call
 * records them (createPayout): a conversion locks a USDT balance besides the payout's, each
 * element taking its locks in the ledger's order.
 */
export function isRecordedOneByOne(plan: PayoutsInOrderPlan): boolean {
  return plan.fresh.some(({ terms }) => terms.conversion);
}

/**
 * In one transaction: the fresh elements reserved together under each balance's lock, so a batch
 * of thousands does not pay a transaction and a lock per element. An element that does not fit
 * the balance left by the ones before it is refused as the single call would refuse it, and the
 * next ones still may fit. Answers every element's outcome.
 */
export async function reservePayoutsTogether(tx: Tx, deps: PayoutWriterDeps, plan: PayoutsInOrderPlan): Promise<ElementOutcome[]> {
  const { merchantId, actor, fresh } = plan;
  const outcomes = [...plan.outcomes];
  const now = deps.now();
  const assets = [...new Set(fresh.map(({ terms }) => assetKey(terms.destination.asset.symbol, terms.destination.network)))].sort();
  // Each balance locked once, in the ledger's order; the running figures stay exact under the locks.
  const balances = new Map<string, SpendableBalance>();
  for (const asset of assets) balances.set(asset, await lockSpendableBalance(tx, merchantId, asset));
  const endpointUrl = await findEndpointUrl(tx, merchantId);
  const reserves: Journal[] = [];
  const facts = new Map<string, PolicyFacts>();
  for (const { index, terms } of fresh) {
    const balance = balances.get(assetKey(terms.destination.asset.symbol, terms.destination.network))!;
    // A refusal (the balance, a freeze) writes nothing: the next elements still may fit.
    try {
      const payout = await writePayout(tx, deps, { row: newPayoutRow(randomUUID(), merchantId, terms, now), kind: kindOf(terms), actor, reserve: { from: "available", balance } }, { journals: reserves, facts, endpointUrl });
      if (payout) {
        outcomes[index] = { payout };
        continue;
      }
      // The order_id was made meanwhile (by this batch's earlier element, or another request).
      const other = await tx.payout.findUniqueOrThrow({ where: { merchantId_orderId: { merchantId, orderId: terms.orderId } } });
      outcomes[index] = hasSameTerms(other, { ...terms, isConverted: false }) ? { payout: other } : { error: new AppError("payout.duplicate_reference", `order_id ${terms.orderId} is payout ${other.id}, made with other terms.`) };
    } catch (error) {
      if (!isAppError(error)) throw error;
      outcomes[index] = { error };
    }
  }
  // The chunk's reservations in one posting: each payout its own journal, each account updated once.
  await postJournals(tx, reserves, now);
  return settledOutcomes(outcomes);
}

/** The outcomes by element; one left unrecorded is an error. */
export function settledOutcomes(outcomes: (ElementOutcome | null)[]): ElementOutcome[] {
  return outcomes.map((outcome) => outcome ?? { error: new Error("element not processed") });
}
