import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { validateAddress } from "@/lib/chains/addresses/validate-address";

/** Where a form sends money: the network, its name as the page shows it, and which chain's encodings it takes here. */
export interface DestinationNetwork {
  network: string;
  networkName: string;
  addressChain: AddressChain;
}

/**
 * Why an address typed in a money form would be refused, checked in the browser by the rule the
 * service applies (payout.bad_address, payout.address_network_mismatch), so that a typo is told
 * before a fresh code is asked for and spent; null when it would pass. Empty is not judged here.
 */
export function destinationProblem(destination: DestinationNetwork, text: string): string | null {
  const address = text.trim();
  if (address === "") return null;
  const validation = validateAddress(destination.network as NetworkId, address, { chain: destination.addressChain });
  if (validation.ok) return null;
  return validation.reason === "wrong_network"
    ? `This is an address of another network, not of ${destination.networkName}: funds sent there would be lost.`
    : `This is not a valid ${destination.networkName} address. Check it for missing or extra characters.`;
}
