import type { MerchantInvoiceTerms } from "@/lib/domain/invoice/merchant-terms";

/** What a key may call (operator contract, section 2). */
export type ApiKeyKind = "unified" | "payment" | "payout";
export const API_KEY_KINDS: readonly ApiKeyKind[] = ["unified", "payment", "payout"];

export function isApiKeyKind(value: string): value is ApiKeyKind {
  return (API_KEY_KINDS as readonly string[]).includes(value);
}

/** The verified identity behind a signed request. */
export interface ActiveApiKey {
  publicId: string;
  kind: ApiKeyKind;
  secret: string;
  merchantId: string;
  allowlist: { enabled: boolean; entries: string[] };
  /** The merchant's fee and tolerance for new invoices, read in the same round trip. */
  invoiceTerms: MerchantInvoiceTerms;
}
