import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { planConversion, postConversion, type ConversionQuote } from "./payout-conversion";
import type { PayoutDestination } from "./payout-destination";
import { writePayout, type PayoutToWrite, type PayoutWriterDeps } from "./write-payout";

/**
 * The turn (TransactionOptions.turn) of work that reserves from one merchant balance: the
 * balance's row lock decides between processes; the turn keeps a burst for one balance from
 * holding every pooled connection while its transactions wait on that lock.
 */
export function balanceTurn(merchantId: string, asset: string): string {
  return `balance:${merchantId}|${asset}`;
}

/**
 * Inside the caller's transaction: a new payout (or refund) through the one writer (writePayout),
 * reserved from the available balance — funded first, with from_currency, by converting the
 * merchant's USDT (the USDT side chosen and locked first; its journal follows the row, so a taken
 * order_id converts nothing). Null, writing nothing, when a unique key is taken.
 */
export async function recordNewPayout(
  tx: Tx,
  deps: PayoutWriterDeps,
  payout: Omit<PayoutToWrite, "reserve">,
  conversion?: { quote: ConversionQuote; destination: PayoutDestination },
): Promise<Payout | null> {
  const { row } = payout;
  const debit = BigInt(String(row.debitMinor));
  const now = conversion ? deps.now() : undefined;
  const plan = conversion && (await planConversion(tx, { merchantId: row.merchantId, destination: conversion.destination, debit, quote: conversion.quote }, now!));
  const afterInsert = conversion && plan ? (inner: Tx) => postConversion(inner, { payoutId: row.id, merchantId: row.merchantId, destination: conversion.destination, debit, plan }, now!) : undefined;
  return writePayout(tx, deps, { ...payout, row: { ...row, ...plan?.row }, reserve: { from: "available", afterInsert } });
}
