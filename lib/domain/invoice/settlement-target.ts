import { AppError } from "@/lib/errors";

/** What the create-invoice request asks for, after upper/lower-casing. */
export interface SettlementRequest {
  /** Price currency. */
  currency: string;
  toCurrency?: string;
  network?: string;
}

export type SettlementTarget = { kind: "select" } | { kind: "fixed"; symbol: string; network: string };

/** The catalogue facts the rules need. */
export interface SettlementCatalogue {
  isFiat(symbol: string): boolean;
  isPricingCurrency(symbol: string): boolean;
  isSettlementSymbol(symbol: string): boolean;
  networksOf(symbol: string): readonly string[];
}

/**
 * spec: POST /v1/payment, "Currency and network modes" — which coin and network the invoice
 * settles in, or `select` for a currency-agnostic invoice.
 */
export function resolveSettlementTarget(request: SettlementRequest, catalogue: SettlementCatalogue): SettlementTarget {
  if (!catalogue.isPricingCurrency(request.currency)) throw new AppError("payment.unknown_currency");
  const { toCurrency, network } = request;
  if (!toCurrency && !network) return { kind: "select" };
  let symbol = toCurrency;
  if (!symbol) {
    if (catalogue.isFiat(request.currency)) throw new AppError("payment.to_currency_required");
    symbol = request.currency;
  }
  if (catalogue.isFiat(symbol) || !catalogue.isSettlementSymbol(symbol)) {
    throw new AppError(toCurrency ? "payment.unknown_to_currency" : "payment.unknown_currency");
  }
  const networks = catalogue.networksOf(symbol);
  if (!network) {
    if (networks.length !== 1) throw new AppError("payment.network_required");
    return { kind: "fixed", symbol, network: networks[0] };
  }
  if (!networks.includes(network)) throw new AppError("payment.unsupported_network");
  return { kind: "fixed", symbol, network };
}

/** spec: Limits — lifetime 300 to 43200 s, default 3600, clamped to the nearest bound. */
export function clampLifetime(seconds: number | undefined): number {
  if (seconds === undefined) return 3600;
  return Math.min(43_200, Math.max(300, Math.trunc(seconds)));
}
