/**
 * Journals as plain data: which accounts move by how much, for each money event. Pure; the
 * only writer is post.ts, which refuses an unbalanced journal.
 *
 * Accounts are (owner, asset, bucket). The owner is a merchant id or "platform"; the asset is
 * "<SYMBOL>:<network>" in that asset's on-chain minor units.
 */

/** Where money sits. */
export type Bucket =
  /** Platform only: the outside world. Money received from a chain makes it negative. */
  | "chain"
  /** Confirmed on chain for an invoice that has not reached a final status yet. */
  | "incoming"
  /** Credited to the merchant, waiting for the maturity hold to end. */
  | "maturing"
  /** Credited and mature: payouts may use it. */
  | "available"
  /** Reserved for payout links and pending payouts. */
  | "payout_held"
  /** Partners' shares of the merchant's payments, held until their refund window ends. */
  | "split_held"
  /** Deposits to a blocked static wallet: never the merchant's, held until the blocked-address refund returns them. */
  | "blocked_held"
  /** Platform only: fees taken. */
  | "fees"
  /** Platform only: payout fees merchants paid (income apart from the fees taken at reception). */
  | "payout_fees"
  /** Platform only: network fees paid for the service's own transfers (sweeps); an expense, below zero. */
  | "network_fees"
  /** Platform only: its side of merchants' conversions — what it took (above zero) and gave (below zero) per asset. */
  | "conversions"
  /**
   * Platform only: what the service moved from its hot wallet to the operator's cold address —
   * still the service's money, held outside the keys it controls. Below zero, as `chain`.
   */
  | "cold"
  /**
   * Merchant only, never above zero: what a reversal took back that the merchant no longer had
   * (funds already paid out). Newly available funds cover it first; payouts wait until it is zero.
   */
  | "debt";

export const PLATFORM = "platform";

export interface AccountKey {
  owner: string;
  asset: string;
  bucket: Bucket;
}

export interface Posting {
  account: AccountKey;
  /** Signed minor units: positive adds to the account. */
  amount: bigint;
}

export interface Journal {
  /** Unique per money event, so a replay fails on the unique index instead of posting twice. */
  reference: string;
  kind: string;
  postings: Posting[];
}

export function assetKey(symbol: string, network: string): string {
  return `${symbol}:${network}`;
}

/** The symbol and network of an asset key (assetKey's inverse). */
export function parseAssetKey(asset: string): { symbol: string; network: string } {
  const [symbol, network] = asset.split(":");
  return { symbol, network };
}

/** Whether every asset's postings sum to zero. */
export function isBalanced(journal: Pick<Journal, "postings">): boolean {
  const sums = new Map<string, bigint>();
  for (const posting of journal.postings) sums.set(posting.account.asset, (sums.get(posting.account.asset) ?? 0n) + posting.amount);
  return journal.postings.length >= 2 && [...sums.values()].every((sum) => sum === 0n);
}

/**
 * Credit number `credit` (1, 2, …) of a confirmed deposit: from the outside world into the
 * merchant's incoming bucket (an invoice's or a static wallet's payment), or into blocked_held
 * (a deposit to a blocked static wallet). A transfer orphaned by a reorganisation and included
 * again (in another block, or the same one) is credited again under the next number, after the
 * previous credit was reversed.
 */
export function depositConfirmedJournal(input: { transferId: string; credit: number; merchantId: string; asset: string; amount: bigint; into?: "incoming" | "blocked_held" }): Journal {
  return {
    reference: `transfer:${input.transferId}:credit:${input.credit}`,
    kind: input.into === "blocked_held" ? "deposit_held" : "deposit_confirmed",
    postings: [
      { account: { owner: PLATFORM, asset: input.asset, bucket: "chain" }, amount: -input.amount },
      { account: { owner: input.merchantId, asset: input.asset, bucket: input.into ?? "incoming" }, amount: input.amount },
    ],
  };
}

/**
 * An invoice reached a final status with `received` in incoming: the platform fee goes to the
 * platform, partners' split shares (`splitHeld`) are held for their refund window, and the rest
 * starts maturing for the merchant. `fee + splitHeld` never exceeds `received`.
 */
export function invoiceSettledJournal(input: { invoiceId: string; settlement: number; merchantId: string; asset: string; received: bigint; fee: bigint; splitHeld?: bigint }): Journal {
  const reference = `invoice:${input.invoiceId}:settle:${input.settlement}`;
  return { reference, kind: "invoice_settled", postings: settlementPostings(reference, input) };
}

/**
 * Credit number `credit` of a static wallet's deposit, in incoming, is settled at once: the
 * platform fee to the platform, the rest maturing for the merchant (spec: the fee is taken at
 * reception). Example: 100 USDT received with a fee of 1.8 USDT → 98.2 maturing.
 */
export function walletDepositSettledJournal(input: { transferId: string; credit: number; merchantId: string; asset: string; received: bigint; fee: bigint }): Journal {
  const reference = `transfer:${input.transferId}:settle:${input.credit}`;
  return { reference, kind: "wallet_deposit_settled", postings: settlementPostings(reference, input) };
}

/** incoming → maturing (net), split_held (partners' shares) and the platform's fees; the fee never exceeds what was received. */
function settlementPostings(reference: string, input: { merchantId: string; asset: string; received: bigint; fee: bigint; splitHeld?: bigint }): Posting[] {
  const fee = input.fee > input.received ? input.received : input.fee;
  const splitHeld = input.splitHeld ?? 0n;
  if (splitHeld < 0n || fee + splitHeld > input.received) throw new RangeError(`settlement ${reference} holds more than it received`);
  const merchant = (bucket: Bucket, amount: bigint): Posting => ({ account: { owner: input.merchantId, asset: input.asset, bucket }, amount });
  const postings: Posting[] = [merchant("incoming", -input.received), merchant("maturing", input.received - fee - splitHeld)];
  if (splitHeld > 0n) postings.push(merchant("split_held", splitHeld));
  if (fee > 0n) postings.push({ account: { owner: PLATFORM, asset: input.asset, bucket: "fees" }, amount: fee });
  return postings;
}

/**
 * A partner's share of a payment moved towards what it should be after a refund, a failed
 * refund or a reorganisation: `hold` more (from the merchant's available), `unhold` less (back to
 * the merchant: to available, or to maturing while the payment's own funds still mature);
 * `clawedBack` taken from a partner it was released to — from its available as far as that
 * reaches, the rest as the partner's debt — back to the merchant's available.
 */
export function splitShareAdjustedJournal(input: {
  reference: string;
  merchantId: string;
  partnerMerchantId: string | null;
  asset: string;
  hold: bigint;
  unhold: bigint;
  unheldTo: "available" | "maturing";
  clawedBack: { fromAvailable: bigint; asDebt: bigint };
}): Journal {
  const { fromAvailable, asDebt } = input.clawedBack;
  if (input.hold < 0n || input.unhold < 0n || fromAvailable < 0n || asDebt < 0n) throw new RangeError(`split move ${input.reference} has a negative part`);
  if (fromAvailable + asDebt > 0n && !input.partnerMerchantId) throw new RangeError(`split move ${input.reference} claws back from no partner`);
  const postings: Posting[] = [];
  const add = (owner: string, bucket: Bucket, amount: bigint) => {
    if (amount !== 0n) postings.push({ account: { owner, asset: input.asset, bucket }, amount });
  };
  add(input.merchantId, "split_held", input.hold - input.unhold);
  add(input.merchantId, "available", fromAvailable + asDebt - input.hold + (input.unheldTo === "available" ? input.unhold : 0n));
  add(input.merchantId, "maturing", input.unheldTo === "maturing" ? input.unhold : 0n);
  if (input.partnerMerchantId) {
    add(input.partnerMerchantId, "available", -fromAvailable);
    add(input.partnerMerchantId, "debt", -asDebt);
  }
  return { reference: input.reference, kind: "split_adjusted", postings };
}

/**
 * A held share whose refund window ended leaves split_held: to the partner merchant's available
 * (internal), into the merchant's payout_held for the payout that sends it (external), or back
 * to the merchant's available when it cannot go out.
 */
export function splitShareReleasedJournal(input: { reference: string; merchantId: string; asset: string; amount: bigint; to: { partnerMerchantId: string } | "payout" | "merchant" }): Journal {
  const destination: AccountKey =
    input.to === "payout"
      ? { owner: input.merchantId, asset: input.asset, bucket: "payout_held" }
      : input.to === "merchant"
        ? { owner: input.merchantId, asset: input.asset, bucket: "available" }
        : { owner: input.to.partnerMerchantId, asset: input.asset, bucket: "available" };
  return {
    reference: input.reference,
    kind: input.to === "merchant" ? "split_returned" : "split_released",
    postings: [
      { account: { owner: input.merchantId, asset: input.asset, bucket: "split_held" }, amount: -input.amount },
      { account: destination, amount: input.amount },
    ],
  };
}

/** A maturity lot whose hold ended: maturing → available. */
export function lotMaturedJournal(input: { lotId: string; merchantId: string; asset: string; amount: bigint }): Journal {
  return {
    reference: `lot:${input.lotId}:matured`,
    kind: "lot_matured",
    postings: [
      { account: { owner: input.merchantId, asset: input.asset, bucket: "maturing" }, amount: -input.amount },
      { account: { owner: input.merchantId, asset: input.asset, bucket: "available" }, amount: input.amount },
    ],
  };
}

/** A credited deposit was orphaned by a reorganisation: the journal that credited it, reversed. */
export function reversalJournal(original: Journal, reason: string): Journal {
  return {
    reference: `${original.reference}:reversed`,
    kind: `reversal:${reason}`,
    postings: original.postings.map((posting) => ({ account: posting.account, amount: -posting.amount })),
  };
}

/**
 * Part of an invoice's settlement taken back because a credited transfer was orphaned:
 * `received` returns to incoming (to be reversed with the deposit), `fee` comes back from the
 * platform, and the merchant's share `received − fee` is taken from `taken` (the invoice's own
 * maturing lots first, then available); what they cannot cover becomes debt.
 */
export function settlementClawbackJournal(input: {
  reference: string;
  merchantId: string;
  asset: string;
  received: bigint;
  fee: bigint;
  taken: { maturing: bigint; available: bigint };
}): Journal {
  const share = input.received - input.fee;
  const shortfall = share - input.taken.maturing - input.taken.available;
  if (input.fee < 0n || share < 0n || shortfall < 0n) throw new RangeError(`clawback ${input.reference} takes more than the share`);
  const merchant = (bucket: Bucket, amount: bigint): Posting[] => (amount === 0n ? [] : [{ account: { owner: input.merchantId, asset: input.asset, bucket }, amount }]);
  return {
    reference: input.reference,
    kind: "settlement_clawback",
    postings: [
      { account: { owner: input.merchantId, asset: input.asset, bucket: "incoming" }, amount: input.received },
      ...(input.fee === 0n ? [] : [{ account: { owner: PLATFORM, asset: input.asset, bucket: "fees" as const }, amount: -input.fee }]),
      ...merchant("maturing", -input.taken.maturing),
      ...merchant("available", -input.taken.available),
      ...merchant("debt", -shortfall),
    ],
  };
}

/** Newly available funds pay back a merchant's debt: available → debt (towards zero). */
export function debtRepaymentJournal(input: { reference: string; merchantId: string; asset: string; amount: bigint }): Journal {
  return {
    reference: input.reference,
    kind: "debt_repayment",
    postings: [
      { account: { owner: input.merchantId, asset: input.asset, bucket: "available" }, amount: -input.amount },
      { account: { owner: input.merchantId, asset: input.asset, bucket: "debt" }, amount: input.amount },
    ],
  };
}

/**
 * Accounts that may go negative: the platform's view of the outside world and its expenses, and
 * a merchant's debt (which is never above zero).
 */
export function mayGoNegative(account: AccountKey): boolean {
  if (account.owner !== PLATFORM) return account.bucket === "debt";
  return account.bucket === "chain" || account.bucket === "network_fees" || account.bucket === "conversions" || account.bucket === "cold";
}

/** A network fee the service paid for one of its own transfers: money out to the world, as an expense. */
export function networkFeeJournal(input: { transferId: string; asset: string; fee: bigint }): Journal {
  return {
    reference: `outgoing:${input.transferId}:fee`,
    kind: "network_fee",
    postings: [
      { account: { owner: PLATFORM, asset: input.asset, bucket: "chain" }, amount: input.fee },
      { account: { owner: PLATFORM, asset: input.asset, bucket: "network_fees" }, amount: -input.fee },
    ],
  };
}

/**
 * The hot wallet's excess arrived at the cold address (an outgoing transfer of kind "cold",
 * confirmed): it leaves the custody the chain account stands for and is kept as cold storage.
 * The network fee is booked apart (networkFeeJournal). Example: 2500 USDT moved → chain +2500,
 * cold −2500 (in minor units).
 */
export function movedToColdJournal(input: { transferId: string; asset: string; amount: bigint }): Journal {
  if (input.amount <= 0n) throw new RangeError(`a move to cold storage of ${input.amount} moves nothing`);
  return {
    reference: `outgoing:${input.transferId}:cold`,
    kind: "moved_to_cold",
    postings: [
      { account: { owner: PLATFORM, asset: input.asset, bucket: "chain" }, amount: input.amount },
      { account: { owner: PLATFORM, asset: input.asset, bucket: "cold" }, amount: -input.amount },
    ],
  };
}

/**
 * Coins the operator sent back from the cold address to the hot wallet (transaction `txid`): they
 * are in the custody the chain account stands for again. The reverse of movedToColdJournal, once
 * per transaction and asset. Example: 1000 USDT back → chain −1000, cold +1000 (in minor units).
 */
export function returnedFromColdJournal(input: { txid: string; asset: string; amount: bigint }): Journal {
  if (input.amount <= 0n) throw new RangeError(`a return from cold storage of ${input.amount} moves nothing`);
  return {
    reference: `cold-return:${input.asset}:${input.txid}`,
    kind: "returned_from_cold",
    postings: [
      { account: { owner: PLATFORM, asset: input.asset, bucket: "chain" }, amount: -input.amount },
      { account: { owner: PLATFORM, asset: input.asset, bucket: "cold" }, amount: input.amount },
    ],
  };
}

/**
 * A payout's debit moves to what is held for it: from what the merchant may spend (available →
 * payout_held), or, for the refund of a blocked static wallet, from the deposits it holds
 * (blocked_held → payout_held).
 */
export function payoutReservedJournal(input: { payoutId: string; merchantId: string; asset: string; debit: bigint; from?: "available" | "blocked_held" }): Journal {
  return {
    reference: `payout:${input.payoutId}:reserve`,
    kind: "payout_reserved",
    postings: [
      { account: { owner: input.merchantId, asset: input.asset, bucket: input.from ?? "available" }, amount: -input.debit },
      { account: { owner: input.merchantId, asset: input.asset, bucket: "payout_held" }, amount: input.debit },
    ],
  };
}

/**
 * A payout that will not be sent (cancelled, rejected, given up) gives its reserve back:
 * payout_held → available, → split_held for a partner's share that will be sent again, or →
 * blocked_held for a blocked wallet's deposits that wait for another refund.
 */
export function payoutReleasedJournal(input: { payoutId: string; merchantId: string; asset: string; debit: bigint; to?: "available" | "split_held" | "blocked_held" }): Journal {
  return {
    reference: `payout:${input.payoutId}:release`,
    kind: "payout_released",
    postings: [
      { account: { owner: input.merchantId, asset: input.asset, bucket: "payout_held" }, amount: -input.debit },
      { account: { owner: input.merchantId, asset: input.asset, bucket: input.to ?? "available" }, amount: input.debit },
    ],
  };
}

/**
 * A payout confirmed on chain: its amount goes to the outside world and its fee to the
 * platform, both out of payout_held. The network fee the chain took is booked apart, from the
 * transfer's receipt (networkFeeJournal).
 */
export function payoutPaidJournal(input: { payoutId: string; merchantId: string; asset: string; amount: bigint; fee: bigint }): Journal {
  const postings: Posting[] = [
    { account: { owner: input.merchantId, asset: input.asset, bucket: "payout_held" }, amount: -(input.amount + input.fee) },
    { account: { owner: PLATFORM, asset: input.asset, bucket: "chain" }, amount: input.amount },
  ];
  if (input.fee > 0n) postings.push({ account: { owner: PLATFORM, asset: input.asset, bucket: "payout_fees" }, amount: input.fee });
  return { reference: `payout:${input.payoutId}:paid`, kind: "payout_paid", postings };
}

/**
 * A payout funded by conversion (`from_currency`): the merchant's `from` asset goes to the
 * platform, which gives the `to` asset into the merchant's available, at the quoted rate, right
 * before the payout reserves it.
 */
export function payoutConvertedJournal(input: { payoutId: string; merchantId: string; from: { asset: string; amount: bigint }; to: { asset: string; amount: bigint } }): Journal {
  return {
    reference: `payout:${input.payoutId}:convert`,
    kind: "payout_converted",
    postings: [
      { account: { owner: input.merchantId, asset: input.from.asset, bucket: "available" }, amount: -input.from.amount },
      { account: { owner: PLATFORM, asset: input.from.asset, bucket: "conversions" }, amount: input.from.amount },
      { account: { owner: PLATFORM, asset: input.to.asset, bucket: "conversions" }, amount: -input.to.amount },
      { account: { owner: input.merchantId, asset: input.to.asset, bucket: "available" }, amount: input.to.amount },
    ],
  };
}

/**
 * A payout link's reserve: `reserve` moves its amount available → payout_held when the link is
 * made; `release` gives it back (cancelled, expired) or hands it to the claim's payout, whose own
 * reserve journal follows in the same transaction.
 */
export function payoutLinkHeldJournal(input: { linkId: string; merchantId: string; asset: string; amount: bigint; step: "reserve" | "release" }): Journal {
  const sign = input.step === "reserve" ? 1n : -1n;
  return {
    reference: `link:${input.linkId}:${input.step}`,
    kind: input.step === "reserve" ? "payout_link_reserved" : "payout_link_released",
    postings: [
      { account: { owner: input.merchantId, asset: input.asset, bucket: "available" }, amount: -sign * input.amount },
      { account: { owner: input.merchantId, asset: input.asset, bucket: "payout_held" }, amount: sign * input.amount },
    ],
  };
}
