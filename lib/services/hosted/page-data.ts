import type { PublicPaymentObject } from "@/lib/api/serialize/payment";
import type { PaymentUriTarget } from "@/lib/domain/payment-uri/payment-uri";

export type { PublicPaymentObject };

/** How the page names a network: "Tron", and the token standard used on it ("TRC-20"). */
export interface HostedNetworkInfo {
  name: string;
  tokenStandard: string;
}

/** A coin and network the buyer may pick on a currency-agnostic invoice. */
export interface HostedMethod {
  currency: string;
  network: string;
  kind: "native" | "token";
}

/**
 * Everything the hosted payment page receives from the server. It ends up in the page's HTML, so
 * it holds the public projection of the invoice and public catalogue facts only.
 */
export interface HostedPaymentPageData {
  payment: PublicPaymentObject;
  /** The merchant's name as buyers know it; "" when it has none. */
  storeName: string;
  /**
   * How a wallet app is asked to pay each coin the page may show (the invoice's own and every
   * selectable one), keyed `CURRENCY/network`; a pair without a URI scheme (Tron) is absent.
   */
  walletTargets: Record<string, PaymentUriTarget>;
  /** The methods a `select` invoice offers; empty otherwise. */
  methods: HostedMethod[];
  /** Whether the invoice's own coin is a token; null before a coin is chosen. */
  assetKind: "native" | "token" | null;
  networks: Record<string, HostedNetworkInfo>;
  /** Networks served by a sandbox chain here, where "Pay with a sandbox wallet" works; empty outside sandbox mode. */
  sandboxNetworks: string[];
  /** Server time when the page was rendered (ms since the epoch), so the countdown follows the server's clock. */
  renderedAtMs: number;
}

/** spec: Public payment-link card. */
export interface PublicLinkCard {
  link_id: string;
  title: string;
  description: string;
  /** `fixed`, `open` or `range`. */
  amount_mode: string;
  currency: string;
  amount_fixed?: string;
  amount_min?: string;
  amount_max?: string;
  pinned_currency?: string;
  pinned_network?: string;
}

/** Everything the checkout page of a payment link receives: the public card and public catalogue facts. */
export interface HostedCheckoutPageData {
  card: PublicLinkCard;
  /** The merchant's name as buyers know it; "" when it has none. */
  storeName: string;
  /** Decimal places of the price currency, for checking the buyer's amount as it is typed. */
  priceDecimals: number;
  /** The coins and networks the buyer may choose from, the link's pinned ones only. */
  methods: HostedMethod[];
  networks: Record<string, HostedNetworkInfo>;
}

/** spec: Public claim card, with the designed fields of a claimed link. */
export interface PublicClaimCard {
  status: "funded" | "claiming" | "claimed" | "expired" | "cancelled";
  amount: string;
  currency: string;
  network: string;
  title: string;
  note: string;
  expires_at: string;
  claimable: boolean;
  memo_supported: boolean;
  claim_address?: string;
  payout_status?: "check" | "process" | "paid" | "fail" | "cancel";
  payout_is_final?: boolean;
  txid?: string;
  receive_amount?: string;
  commission?: string;
}

/** Everything the claim page receives: the card (as the token's holder may see it) and how to check an address. */
export interface HostedClaimPageData {
  token: string;
  /** The name of the merchant who sent the check; "" when it has none. */
  storeName: string;
  card: PublicClaimCard;
  /** "Tron (TRC-20)". */
  networkName: string;
  /** Which chain's address encodings the network takes here (a sandbox or test node takes test ones). */
  addressChain: "main" | "test" | "regtest";
  /**
   * Before a claim: what it would deliver after the payout fee quoted now (decimal strings in the
   * check's coin); null after a claim (the card says what the payout delivers) or without a rate.
   */
  estimate: { receive: string; fee: string } | null;
  renderedAtMs: number;
}

/** The key of a coin on a network in `walletTargets`. */
export function walletTargetKey(currency: string, network: string): string {
  return `${currency}/${network}`;
}
