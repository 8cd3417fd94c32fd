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
  /** Platform only: fees taken. */
  | "fees"
  /** Platform only: network fees paid for the service's own transfers (sweeps); an expense, below zero. */
  | "network_fees";

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

/** Whether every asset's postings sum to zero. */
export function isBalanced(journal: Pick<Journal, "postings">): boolean {
  const sums = new Map<string, bigint>();
  for (const posting of journal.postings) sums.set(posting.account.asset, (sums.get(posting.account.asset) ?? 0n) + posting.amount);
  return journal.postings.length >= 2 && [...sums.values()].every((sum) => sum === 0n);
}

/**
 * A confirmed deposit for an invoice: from the outside world into the merchant's incoming
 * bucket. The reference names the block that holds it: a transfer orphaned by a reorganisation
 * and mined again in another block is credited again (after its first credit was reversed).
 */
export function depositConfirmedJournal(input: { transferId: string; blockHash: string; merchantId: string; asset: string; amount: bigint }): Journal {
  return {
    reference: `transfer:${input.transferId}:confirmed:${input.blockHash}`,
    kind: "deposit_confirmed",
    postings: [
      { account: { owner: PLATFORM, asset: input.asset, bucket: "chain" }, amount: -input.amount },
      { account: { owner: input.merchantId, asset: input.asset, bucket: "incoming" }, amount: input.amount },
    ],
  };
}

/**
 * An invoice reached a final status with `received` in incoming: the platform fee goes to the
 * platform, the rest starts maturing for the merchant. `fee` never exceeds `received`.
 */
export function invoiceSettledJournal(input: { invoiceId: string; settlement: number; merchantId: string; asset: string; received: bigint; fee: bigint }): Journal {
  const fee = input.fee > input.received ? input.received : input.fee;
  const postings: Posting[] = [
    { account: { owner: input.merchantId, asset: input.asset, bucket: "incoming" }, amount: -input.received },
    { account: { owner: input.merchantId, asset: input.asset, bucket: "maturing" }, amount: input.received - fee },
  ];
  if (fee > 0n) postings.push({ account: { owner: PLATFORM, asset: input.asset, bucket: "fees" }, amount: fee });
  return { reference: `invoice:${input.invoiceId}:settle:${input.settlement}`, kind: "invoice_settled", postings };
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

/** Accounts that may go negative: the platform's view of the outside world, and its expenses. */
export function mayGoNegative(account: AccountKey): boolean {
  return account.owner === PLATFORM && (account.bucket === "chain" || account.bucket === "network_fees");
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
