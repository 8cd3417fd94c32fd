/** The currency catalogue: networks, settlement assets, pricing currencies and `GET /v1/currencies`. */
export type {
  AssetKind,
  ConfirmationPolicy,
  ConfirmationTier,
  ExplorerTemplates,
  Network,
  NetworkFamily,
  NetworkId,
  PricingCurrency,
  SettlementAsset,
  SettlementSymbol,
} from "@/lib/catalogue/types";
export { NETWORKS, explorerUrl, findNetwork, isNetworkId, listNetworks, networkDisplayName } from "@/lib/catalogue/networks";
export { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue/normalize";
export { CONFIRMATION_POLICIES } from "@/lib/catalogue/confirmation-policies";
export { minimumConfirmations, requiredConfirmations } from "@/lib/catalogue/required-confirmations";
export {
  SETTLEMENT_ASSETS,
  SETTLEMENT_SYMBOLS,
  findSettlementAsset,
  findSettlementSymbol,
  isSettlementSymbol,
  listNetworksOfSymbol,
  listSettlementAssets,
  listSettlementSymbols,
} from "@/lib/catalogue/settlement-assets";
export {
  FIAT_CURRENCIES,
  PRICING_CURRENCIES,
  findPricingCurrency,
  listPricingCurrencies,
} from "@/lib/catalogue/pricing-currencies";
export { buildCurrencyCatalogue } from "@/lib/catalogue/build-currency-catalogue";
export type {
  CatalogueCurrencyEntry,
  CatalogueNetworkEntry,
  CataloguePricingEntry,
  CurrencyCatalogue,
  NetworkAvailability,
} from "@/lib/catalogue/build-currency-catalogue";
