import { z } from "zod";
import type { CurrencyCatalogue } from "@/lib/catalogue";

/** One quote of `POST /v1/exchange-rate/list`: how many USDT one unit of `from` is worth. */
export interface ExchangeRateItem {
  from: string;
  to: "USDT";
  course: string;
  source: string;
  is_offline: boolean;
}

/** spec: Service entry. */
export interface ServiceEntry {
  network: string;
  currency: string;
  is_available: boolean;
  limit: { min_amount: string; max_amount: string };
  commission: { fee_amount: string; percent: string };
}

/** True when two types describe the same values: ties each schema below to the type its builder returns. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AssertTrue<T extends true> = T;

/** spec: Currency catalogue — one network of a settlement currency. */
export const CATALOGUE_NETWORK_SCHEMA = z
  .object({
    network: z.string().describe("The network id, e.g. `tron`; the `network` of other operations."),
    kind: z.enum(["native", "token"]).describe("`native` (the network's own coin) or `token` (a token contract)."),
    contract: z.string().optional().describe("The token contract (ERC-20/BEP-20, TRC-20, SPL mint or jetton master); present for tokens only."),
    decimals: z.number().int().describe("On-chain decimals of the asset on this network (18 for USDT and USDC on BSC, while the symbol's `decimals` is 6)."),
    min_confirmations: z.number().int().describe("Confirmations a deposit needs at the least (larger amounts may need more)."),
    available: z.boolean().describe("Synonym of `deposit_available`."),
    deposit_available: z.boolean().describe("Whether deposits (invoices, static wallets) work on this network now."),
    payout_available: z.boolean().describe("Whether payouts can be sent on this network now."),
  })
  .meta({ id: "CatalogueNetwork", description: "A network a settlement currency is received and paid out on." });

/** spec: Currency catalogue (`GET /v1/currencies`), returned without the envelope. */
export const CURRENCY_CATALOGUE_SCHEMA = z
  .object({
    currencies: z
      .array(
        z.object({
          symbol: z.string().describe("The coin's symbol, e.g. `USDT`: the `to_currency`/`currency` of settlement."),
          decimals: z.number().int().describe("Canonical decimals of the coin (USDT and USDC: 6): amounts have at most this many fraction digits."),
          networks: z.array(CATALOGUE_NETWORK_SCHEMA).describe("Every network the coin is on, available or not."),
        }),
      )
      .describe("Settlement currencies (crypto only), each with its networks."),
    pricing_currencies: z
      .array(
        z.object({
          symbol: z.string().describe("e.g. `USD`, `BTC`."),
          decimals: z.number().int().describe("Fraction digits a price in it may have (2 for most fiats, 0 for JPY and KRW)."),
          fiat: z.boolean().describe("True for a fiat, which can only be a price currency."),
        }),
      )
      .describe("Currencies an invoice may be priced in: the coins and 23 fiats."),
  })
  .meta({ id: "CurrencyCatalogue", description: "Every settlement currency with its networks, and every pricing currency." });

export const CURRENCY_CATALOGUE_EXAMPLE: CurrencyCatalogue = {
  currencies: [
    {
      symbol: "BTC",
      decimals: 8,
      networks: [{ network: "bitcoin", kind: "native", decimals: 8, min_confirmations: 1, available: true, deposit_available: true, payout_available: true }],
    },
    {
      symbol: "USDT",
      decimals: 6,
      networks: [
        {
          network: "tron",
          kind: "token",
          contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
          decimals: 6,
          min_confirmations: 10,
          available: true,
          deposit_available: true,
          payout_available: true,
        },
        {
          network: "bsc",
          kind: "token",
          contract: "0x55d398326f99059fF775485246999027B3197955",
          decimals: 18,
          min_confirmations: 15,
          available: true,
          deposit_available: true,
          payout_available: false,
        },
      ],
    },
  ],
  pricing_currencies: [
    { symbol: "BTC", decimals: 8, fiat: false },
    { symbol: "USDT", decimals: 6, fiat: false },
    { symbol: "USD", decimals: 2, fiat: true },
    { symbol: "JPY", decimals: 0, fiat: true },
  ],
};

/** spec: Service entry — one (network, currency) pair for reception or for payouts. */
export const SERVICE_ENTRY_SCHEMA = z
  .object({
    network: z.string().describe("The network id, e.g. `tron`."),
    currency: z.string().describe("The coin, e.g. `USDT`."),
    is_available: z.boolean().describe("Whether the pair works now (the network is served and a rate is known); check it before creating."),
    limit: z
      .object({
        min_amount: z.string().describe("The network's minimum, in the coin, a decimal string (`0` without a rate)."),
        max_amount: z.string().describe("The largest amount, in the coin, a decimal string (`0` without a rate)."),
      })
      .describe("Amount limits, converted from USD at the current rate."),
    commission: z
      .object({
        fee_amount: z.string().describe("The fixed part of the fee, in the coin, a decimal string (`0` without a rate)."),
        percent: z.string().describe("The percentage part, a decimal string (e.g. `1.5`); `0` for payouts."),
      })
      .describe("For reception the platform fee (taken when a payment is received); for payouts the network fee."),
  })
  .meta({ id: "ServiceEntry", description: "A (network, currency) pair with its limits and commission." });

export const PAYMENT_SERVICES_EXAMPLE: ServiceEntry[] = [
  { network: "tron", currency: "USDT", is_available: true, limit: { min_amount: "2", max_amount: "1000000" }, commission: { fee_amount: "0.3", percent: "1.5" } },
  {
    network: "bitcoin",
    currency: "BTC",
    is_available: true,
    limit: { min_amount: "0.00004797", max_amount: "9.59232613" },
    commission: { fee_amount: "0.00000288", percent: "1.5" },
  },
];

export const PAYOUT_SERVICES_EXAMPLE: ServiceEntry[] = [
  { network: "tron", currency: "USDT", is_available: true, limit: { min_amount: "2", max_amount: "1000000" }, commission: { fee_amount: "1", percent: "0" } },
  {
    network: "bitcoin",
    currency: "BTC",
    is_available: false,
    limit: { min_amount: "0.00004797", max_amount: "9.59232613" },
    commission: { fee_amount: "0.00001439", percent: "0" },
  },
];

/** Designed: one quote of `POST /v1/exchange-rate/list`. */
export const EXCHANGE_RATE_SCHEMA = z
  .object({
    from: z.string().describe("The pricing currency quoted, e.g. `BTC` or `EUR`."),
    to: z.literal("USDT").describe("Always `USDT`."),
    course: z.string().describe("How many USDT one unit of `from` is worth, an exact decimal string (up to 12 fraction digits)."),
    source: z.string().describe("The rate source, e.g. `coinbase`, or `snapshot` for the fixed offline table."),
    is_offline: z.boolean().describe("True when the source is a fixed offline table, not market data."),
  })
  .meta({ id: "ExchangeRate", description: "A quote of a pricing currency against USDT." });

export const EXCHANGE_RATE_EXAMPLE: ExchangeRateItem[] = [
  { from: "BTC", to: "USDT", course: "104250", source: "coinbase", is_offline: false },
  { from: "EUR", to: "USDT", course: "1.0834", source: "coinbase", is_offline: false },
];

// Each schema describes exactly what its builder returns: a change to one fails the type check until the other follows.
export type SchemasMatchBuilders = [
  AssertTrue<Same<z.output<typeof CURRENCY_CATALOGUE_SCHEMA>, CurrencyCatalogue>>,
  AssertTrue<Same<z.output<typeof SERVICE_ENTRY_SCHEMA>, ServiceEntry>>,
  AssertTrue<Same<z.output<typeof EXCHANGE_RATE_SCHEMA>, ExchangeRateItem>>,
];
