import { z } from "zod";
import { optionalText } from "@/lib/domain/input/optional-fields";
import type { InputSpec } from "@/lib/errors";

/** Designed: POST /v1/wallet — the body. */
export const createStaticWalletSchema = z.object({
  currency: z.string().describe("The coin to receive, e.g. `USDT` (a `currencies[].symbol` of `GET /v1/currencies`)."),
  network: optionalText.describe("The network id, e.g. `tron`; may be omitted where the coin is on one network only."),
  order_id: z.string().min(1).max(128).describe("Your reference of the customer the wallet is for: the same (order_id, currency, network) always answers the same wallet."),
  url_callback: optionalText.describe("An http(s) URL that also receives this wallet's `wallet.paid` events (not a private or metadata address); ignored on a repeat."),
});

export const CREATE_STATIC_WALLET_INPUT: InputSpec<typeof createStaticWalletSchema> = {
  schema: createStaticWalletSchema,
  invalidBody: "wallet.bad_request",
  fieldErrors: { currency: "wallet.unknown_currency", network: "wallet.unsupported_network", order_id: "wallet.bad_order_id", url_callback: "wallet.bad_url_callback" },
};

/** How the wallet operations name a wallet: its uuid, or the order_id it was made for in a coin (and network). */
export const walletLookupSchema = z.object({
  uuid: optionalText.describe("The wallet's `uuid`; or name it by `order_id` and `currency` instead."),
  order_id: optionalText.describe("The `order_id` the wallet was made for (with `currency`, and `network` where the coin has several); used when `uuid` is absent."),
  currency: optionalText.describe("The wallet's coin, with `order_id`."),
  network: optionalText.describe("The wallet's network, with `order_id`; may be omitted where the coin is on one network only."),
});

export type WalletLookup = z.output<typeof walletLookupSchema>;

export const WALLET_LOOKUP_INPUT: InputSpec<typeof walletLookupSchema> = {
  schema: walletLookupSchema,
  invalidBody: "wallet.bad_request",
  fieldErrors: { uuid: "wallet.bad_uuid", currency: "wallet.unknown_currency", network: "wallet.unsupported_network" },
};
