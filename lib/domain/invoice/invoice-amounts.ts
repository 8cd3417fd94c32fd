import { findPricingCurrency, findSettlementAsset, findSettlementSymbol } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import type { Invoice } from "@/generated/prisma/client";

/** Minor units from a Decimal(78,0) column. */
export function toMinor(value: { toFixed(): string } | null | undefined): bigint {
  return value === null || value === undefined ? 0n : BigInt(value.toFixed());
}

/** The invoice's amounts as the API writes them: decimal strings in each currency's units. */
export interface InvoiceAmounts {
  amount: string;
  payerAmount: string;
  amountPaid: string;
  amountRemaining: string;
  /** Null until a payment exists. */
  paymentAmount: string | null;
}

export function settlementDecimals(row: Pick<Invoice, "payerCurrency" | "network">): { onChain: number; display: number } | null {
  if (!row.payerCurrency || !row.network) return null;
  const asset = findSettlementAsset(row.payerCurrency, row.network);
  if (!asset) return null;
  return { onChain: asset.decimals, display: findSettlementSymbol(row.payerCurrency)?.decimals ?? asset.decimals };
}

export function describeInvoiceAmounts(row: Invoice): InvoiceAmounts {
  const pricing = findPricingCurrency(row.priceCurrency);
  const priceDecimals = pricing?.decimals ?? 2;
  const amount = formatAmount(toMinor(row.priceAmountMinor), priceDecimals, pricing?.isFiat ? priceDecimals : 0);
  const decimals = settlementDecimals(row);
  if (!decimals || row.payerAmountMinor === null) {
    // spec: Payment — empty on a currency-agnostic invoice until the buyer selects.
    return { amount, payerAmount: "", amountPaid: "", amountRemaining: "", paymentAmount: null };
  }
  const expected = toMinor(row.payerAmountMinor);
  const paid = toMinor(row.amountPaidMinor);
  const remaining = paid >= expected ? 0n : expected - paid;
  return {
    amount,
    payerAmount: formatAmount(expected, decimals.onChain),
    amountPaid: formatAmount(paid, decimals.onChain),
    amountRemaining: formatAmount(remaining, decimals.onChain),
    paymentAmount: paid > 0n ? formatAmount(paid, decimals.onChain) : null,
  };
}
