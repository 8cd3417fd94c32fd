import { randomUUID } from "node:crypto";
import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { addressChainOf } from "@/lib/chains/registry";
import { networkAvailability } from "@/lib/chains/network-sources";
import { computePayoutAmounts } from "@/lib/domain/payout/amounts";
import { MAX_MINOR_UNITS, parseAmount } from "@/lib/domain/money/amount";
import { AppError } from "@/lib/errors";
import { assetKey } from "@/lib/ledger/postings";
import { vetMerchantUrl } from "@/lib/net/outbound-url";
import { screenDestination } from "@/lib/services/compliance/screening";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { resolvePayoutDestination } from "@/lib/services/money-out/payout-destination";
import type { MoneyOutKind } from "@/lib/domain/payout/money-out-policy";
import { newPayoutRow, quoteFee, type PayoutDeps, type PayoutTerms } from "@/lib/services/money-out/payout-terms";
import { quoteConversion } from "@/lib/services/money-out/payout-conversion";
import { balanceTurn, recordNewPayout } from "@/lib/services/money-out/record-new-payout";
import type { PayoutWriterDeps } from "@/lib/services/money-out/write-payout";

/** spec: POST /v1/payout — the body, alone or as an element of a mass or batch call. */
export interface CreatePayoutInput {
  amount: string;
  currency: string;
  order_id?: string;
  address?: string;
  network?: string;
  is_subtract?: boolean;
  memo?: string;
  url_callback?: string;
  from_currency?: string;
  source?: "api" | "manual";
}

/**
 * What the requests of one merchant made together share, asked once: the fee-config,
 * each asset's fee, each destination's gateway and screening checks (see createPayoutsInOrder).
 */
export interface TermsMemo {
  feeOnTop?: Promise<boolean>;
  fees: Map<string, Promise<bigint>>;
  checkedDestinations: Map<string, Promise<void>>;
}

function remembered<T>(map: Map<string, Promise<T>> | undefined, key: string, make: () => Promise<T>): Promise<T> {
  if (!map) return make();
  let found = map.get(key);
  if (!found) map.set(key, (found = make()));
  return found;
}

export async function checkTerms(deps: PayoutDeps, merchantId: string, input: CreatePayoutInput, memo?: TermsMemo): Promise<PayoutTerms> {
  const orderId = input.order_id ?? "";
  if (orderId === "") throw new AppError("payout.order_id_required");
  const destination = resolvePayoutDestination(input, (network) => addressChainOf(deps.config, network));
  if (!networkAvailability(deps.config)(destination.network).payout) {
    // A node that is configured but not ready (unreachable, still checking) is a passing state.
    if (deps.config.rpcEndpoints[destination.network]) throw new AppError("payout.network_unavailable", `The ${destination.network} node is not ready; retry later.`);
    throw new AppError("payout.unknown_currency", `${destination.asset.symbol} on ${destination.network} is not paid out by this service.`);
  }
  const conversion = input.from_currency !== undefined && input.from_currency !== "" ? await quoteConversion(deps, input.from_currency, destination) : undefined;
  const requestedMinor = parseAmount(input.amount, destination.asset.decimals);
  if (requestedMinor === null || requestedMinor <= 0n) throw new AppError("payout.bad_amount", `amount must be a positive decimal with at most ${destination.asset.decimals} places.`);
  const urlCallback = await vetCallback(deps, input.url_callback);
  await remembered(memo?.checkedDestinations, `${destination.network}|${destination.address}`, async () => {
    await assertNotGatewayAddress(deps, destination);
    await screenDestination(deps, destination);
  });

  const feeOnTop = async () => (await deps.db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { payoutFeeOnTop: true } })).payoutFeeOnTop;
  const isSubtract = input.is_subtract ?? (await (memo ? (memo.feeOnTop ??= feeOnTop()) : feeOnTop()));
  const fee = await remembered(memo?.fees, assetKey(destination.asset.symbol, destination.network), () => quoteFee(deps, destination));
  const amounts = computePayoutAmounts({ requested: requestedMinor, fee, isSubtract });
  if (amounts === "below_fee") throw new AppError("payout.amount_below_fee", `amount must be above the payout fee when the recipient bears it.`);
  if (amounts.debit > MAX_MINOR_UNITS) throw new AppError("payout.bad_amount", "amount with the fee on top exceeds the largest amount this service holds.");
  return { orderId, source: input.source ?? "api", destination, requestedMinor, isSubtract, isSubtractGiven: input.is_subtract !== undefined, amounts, urlCallback, conversion };
}

async function vetCallback(deps: PayoutDeps, url: string | undefined): Promise<string | undefined> {
  if (url === undefined || url === "") return undefined;
  return vetMerchantUrl(url, { allowLoopback: deps.config.allowLoopbackUrls, refusal: "payout.bad_url_callback", field: "url_callback: " });
}

/** spec: POST /v1/payout, as one payout's maker asks it. */
export interface PayoutRequest {
  merchantId: string;
  input: CreatePayoutInput;
  /** Who asks: `key:<public id>` or `user:<id>`; a manual payout needs another approver. */
  actor: string;
  /** What kind of money out it is; by its source when absent (manual: `manual_payout`, else `api_payout`). */
  kind?: MoneyOutKind;
  /** Whose request the service carries out with it (see PayoutToWrite.askedBy). */
  askedBy?: string;
}

/** A new payout whose terms are checked, to be recorded in its balance's turn. */
export interface NewPayoutPlan {
  merchantId: string;
  terms: PayoutTerms;
  kind: MoneyOutKind;
  actor: string;
  askedBy?: string;
}

/** What a payout request comes to before the database is locked: the payout its order_id already names, or a new one. */
export type PayoutPlan = { repeat: Payout } | NewPayoutPlan;

/**
 * Before the transaction: a repeat answers the payout it names before anything that may have
 * changed since (a freeze, the rate, screening, the node) is asked again — the payout exists and
 * will be sent; a new request has its terms checked (rates, screening, the node's readiness).
 */
export async function preparePayout(deps: PayoutDeps, request: PayoutRequest): Promise<PayoutPlan> {
  const { merchantId, input } = request;
  if (input.order_id) {
    const existing = await deps.db.payout.findUnique({ where: { merchantId_orderId: { merchantId, orderId: input.order_id } } });
    if (existing) return { repeat: checkRepeat(deps, existing, input) };
  }
  const terms = await checkTerms(deps, merchantId, input);
  return newPayoutPlan(merchantId, terms, request);
}

/** The plan of a new payout whose terms are checked. */
export function newPayoutPlan(merchantId: string, terms: PayoutTerms, who: Pick<PayoutRequest, "actor" | "kind" | "askedBy">): NewPayoutPlan {
  return { merchantId, terms, kind: who.kind ?? kindOf(terms), actor: who.actor, askedBy: who.askedBy };
}

/** A new payout waits for its balance's turn; a repeat waits for nothing. */
export function payoutTurn(plan: PayoutPlan): string | undefined {
  if ("repeat" in plan) return undefined;
  const { destination } = plan.terms;
  return balanceTurn(plan.merchantId, assetKey(destination.asset.symbol, destination.network));
}

/**
 * In the caller's transaction: the payout under its unique (merchant, order_id) — a repeat with
 * the same terms returns the first, other terms are `payout.duplicate_reference` — then, under
 * the balance's row lock, its debit reserved `available → payout_held`, and its first event. A
 * payout made with an API key is approved at once; a manual one waits for another approver.
 */
export async function recordPayout(tx: Tx, deps: PayoutWriterDeps, plan: PayoutPlan): Promise<Payout> {
  if ("repeat" in plan) return plan.repeat;
  const { merchantId, terms } = plan;
  const { destination } = terms;
  const conversion = terms.conversion && { quote: terms.conversion, destination };
  const payout = await recordNewPayout(tx, deps, { row: newPayoutRow(randomUUID(), merchantId, terms, deps.now()), kind: plan.kind, actor: plan.actor, askedBy: plan.askedBy }, conversion);
  if (payout) return payout;
  // The order_id is taken (the unique index waited for a concurrent creator to commit).
  const existing = await tx.payout.findUniqueOrThrow({ where: { merchantId_orderId: { merchantId, orderId: terms.orderId } } });
  if (!hasSameTerms(existing, { ...terms, isConverted: terms.conversion !== undefined })) {
    throw new AppError("payout.duplicate_reference", `order_id ${terms.orderId} is payout ${existing.id}, made with other terms.`);
  }
  return existing;
}

/** spec: POST /v1/payout — checked outside the transaction, recorded in the balance's turn. */
export const createPayout = { prepare: preparePayout, turnOf: payoutTurn, execute: recordPayout } satisfies UnitOfWork<PayoutRequest, PayoutPlan, Payout>;

/** The money-out kind of a payout made by POST /v1/payout or the cabinet's form. */
export function kindOf(terms: Pick<PayoutTerms, "source">): MoneyOutKind {
  return terms.source === "manual" ? "manual_payout" : "api_payout";
}

/** The payout an order_id names, when the repeat asks for the same; `payout.duplicate_reference` otherwise. */
export function checkRepeat(deps: Pick<PayoutDeps, "config">, existing: Payout, input: CreatePayoutInput): Payout {
  const destination = resolvePayoutDestination(input, (network) => addressChainOf(deps.config, network));
  const requestedMinor = parseAmount(input.amount, destination.asset.decimals);
  if (requestedMinor === null || requestedMinor <= 0n) throw new AppError("payout.bad_amount");
  const terms = {
    destination,
    requestedMinor,
    source: input.source ?? "api",
    isSubtract: input.is_subtract ?? false,
    isSubtractGiven: input.is_subtract !== undefined,
    isConverted: input.from_currency !== undefined && input.from_currency !== "",
  };
  if (!hasSameTerms(existing, terms)) throw new AppError("payout.duplicate_reference", `order_id ${existing.orderId} is payout ${existing.id}, made with other terms.`);
  return existing;
}

/** Whether a repeated request asks for the same payout as the one recorded under its order_id. */
export function hasSameTerms(
  existing: Payout,
  terms: Pick<PayoutTerms, "destination" | "requestedMinor" | "source" | "isSubtract" | "isSubtractGiven"> & { isConverted: boolean },
): boolean {
  return (
    existing.currency === terms.destination.asset.symbol &&
    (existing.convertFromCurrency !== null) === terms.isConverted &&
    existing.network === terms.destination.network &&
    existing.address === terms.destination.address &&
    (existing.memo ?? undefined) === terms.destination.memo &&
    existing.requestedAmount === terms.requestedMinor.toString() &&
    existing.source === terms.source &&
    (!terms.isSubtractGiven || existing.isSubtract === terms.isSubtract)
  );
}
