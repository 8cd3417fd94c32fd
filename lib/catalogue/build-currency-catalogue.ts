import { listPricingCurrencies } from "@/lib/catalogue/pricing-currencies";
import { minimumConfirmations } from "@/lib/catalogue/required-confirmations";
import { listSettlementAssets, listSettlementSymbols } from "@/lib/catalogue/settlement-assets";
import type { AssetKind } from "@/lib/catalogue/types";

/** Whether deposits and payouts currently work on a network; depends on configuration, so it is passed in. */
export interface NetworkAvailability {
  deposit: boolean;
  payout: boolean;
}

/** One network of a settlement currency in `GET /v1/currencies`. */
export interface CatalogueNetworkEntry {
  network: string;
  kind: AssetKind;
  /** Present only for tokens. */
  contract?: string;
  /** On-chain decimals on this network (BSC USDT/USDC: 18). Not in the spec's list; an extra field clients may ignore. */
  decimals: number;
  min_confirmations: number;
  /** Synonym of `deposit_available` (spec: Currency catalogue). */
  available: boolean;
  deposit_available: boolean;
  payout_available: boolean;
}

/** One settlement currency in `GET /v1/currencies`. */
export interface CatalogueCurrencyEntry {
  symbol: string;
  /** Canonical decimals of the asset (USDT and USDC: 6). */
  decimals: number;
  networks: CatalogueNetworkEntry[];
}

/** One pricing currency in `GET /v1/currencies`. */
export interface CataloguePricingEntry {
  symbol: string;
  decimals: number;
  fiat: boolean;
}

/** The body of `GET /v1/currencies` (returned without the envelope). */
export interface CurrencyCatalogue {
  currencies: CatalogueCurrencyEntry[];
  pricing_currencies: CataloguePricingEntry[];
}

/**
 * Builds the exact JSON object of `GET /v1/currencies` from the catalogue data and the per-network
 * availability of the running configuration. Every settlement currency is listed, even when none of its
 * networks is available, so clients see the whole catalogue.
 */
export function buildCurrencyCatalogue(
  availability: (network: string) => NetworkAvailability,
): CurrencyCatalogue {
  // Ask once per network: the callback may consult configuration or adapter state.
  const availabilityByNetwork = new Map<string, NetworkAvailability>();
  const availabilityOf = (network: string): NetworkAvailability => {
    let known = availabilityByNetwork.get(network);
    if (known === undefined) {
      const answer = availability(network);
      known = { deposit: answer.deposit, payout: answer.payout };
      availabilityByNetwork.set(network, known);
    }
    return known;
  };

  const assets = listSettlementAssets();
  const currencies = listSettlementSymbols().map(({ symbol, decimals }) => ({
    symbol,
    decimals,
    networks: assets
      .filter((asset) => asset.symbol === symbol)
      .map((asset): CatalogueNetworkEntry => {
        const { deposit, payout } = availabilityOf(asset.network);
        return {
          network: asset.network,
          kind: asset.kind,
          ...(asset.contract === undefined ? {} : { contract: asset.contract }),
          decimals: asset.decimals,
          min_confirmations: minimumConfirmations(asset),
          available: deposit,
          deposit_available: deposit,
          payout_available: payout,
        };
      }),
  }));

  const pricingCurrencies = listPricingCurrencies().map(({ symbol, decimals, isFiat }) => ({
    symbol,
    decimals,
    fiat: isFiat,
  }));

  return { currencies, pricing_currencies: pricingCurrencies };
}
