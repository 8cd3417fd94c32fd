import type { oas31 } from "zod-openapi";

/**
 * The document's sections in reading order, and the path prefixes of each. A path belongs to the
 * section with its longest matching prefix, so `/v1/payment/link` is a payment link although it
 * also starts with the invoices' `/v1/payment`.
 */
const SECTIONS: readonly { name: string; description: string; prefixes: readonly string[] }[] = [
  { name: "Invoices", description: "Invoices (payments): create, read, list, resend, accepted coins.", prefixes: ["/v1/payment"] },
  { name: "Payment links", description: "Reusable links that make an invoice per buyer.", prefixes: ["/v1/payment/link", "/v1/link/"] },
  { name: "Static wallets", description: "Permanent deposit addresses per customer.", prefixes: ["/v1/wallet"] },
  { name: "Refunds", description: "Refunds, payment resolution and their fee settings.", prefixes: ["/v1/payment/refund", "/v1/refund/", "/v1/payment/resolve", "/v1/payment/autorefund"] },
  { name: "Payouts", description: "Payouts, balances, fees and auto-withdrawal.", prefixes: ["/v1/payout", "/v1/balance", "/v1/auto-withdraw"] },
  { name: "Payout links", description: "Crypto checks a recipient claims.", prefixes: ["/v1/payout/link", "/v1/claim/"] },
  { name: "Split rules", description: "Shares of each payment sent on to partners.", prefixes: ["/v1/split/"] },
  { name: "Batches", description: "Asynchronous batches of up to 5000 items.", prefixes: ["/v1/batch/", "/v1/payment/batch"] },
  { name: "Webhooks", description: "The endpoint, its secret, deliveries and test events.", prefixes: ["/v1/webhooks", "/v1/test-webhook", "/v1/payment/testing-webhook"] },
  { name: "Events", description: "Every webhook event, kept 30 days, and its redelivery.", prefixes: ["/v1/events"] },
  { name: "Catalogue", description: "Currencies, networks, services and exchange rates.", prefixes: ["/v1/currencies", "/v1/payment/services", "/v1/payout/services", "/v1/exchange-rate"] },
  { name: "IP allow-list", description: "Restrict the API to known addresses.", prefixes: ["/v1/api-allowlist/"] },
  { name: "Hosted payment page", description: "What the buyer's page calls (public).", prefixes: ["/v1/pay/"] },
  { name: "Sandbox", description: "Drive the sandbox chains (404 when sandbox mode is off).", prefixes: ["/v1/sandbox/"] },
  { name: "Meta", description: "This document.", prefixes: ["/v1/openapi"] },
];

export const TAGS: oas31.TagObject[] = [
  ...SECTIONS.map(({ name, description }) => ({ name, description })),
  { name: "Webhook events", description: "What the service POSTs to your endpoint." },
];

/** The section a path belongs to: the one with the longest prefix of the path. */
export function tagOf(path: string): string {
  let best: { name: string; length: number } | undefined;
  for (const section of SECTIONS) {
    for (const prefix of section.prefixes) {
      if (path.startsWith(prefix) && prefix.length > (best?.length ?? -1)) best = { name: section.name, length: prefix.length };
    }
  }
  if (!best) throw new Error(`No section of the API document covers ${path}`);
  return best.name;
}
