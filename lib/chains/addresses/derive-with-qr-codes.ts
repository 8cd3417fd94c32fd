import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "./address-chain";
import { deriveDepositAddresses } from "./derive-address";
import { renderQrCode } from "./qr-code";

/** The addresses of an xpub network at some indexes, as a derivation thread is asked for them. */
export interface XpubDerivationJob {
  network: NetworkId;
  chain: AddressChain;
  accountXpub: string;
  indexes: readonly number[];
}

/** Addresses of an xpub network with their QR codes (`data:` URIs), in the order of the indexes asked. */
export interface DerivedWithQrCodes {
  addresses: string[];
  qrCodes: string[];
}

/** The work of a derivation thread, on whichever thread calls it. */
export async function deriveXpubAddressesWithQrCodes(job: XpubDerivationJob): Promise<DerivedWithQrCodes> {
  const addresses = deriveDepositAddresses(job).map((entry) => entry.address);
  return { addresses, qrCodes: await Promise.all(addresses.map(renderQrCode)) };
}
