import type { PublicPaymentObject } from "@/lib/api/serialize/payment";

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
