import { findNetwork, findSettlementAsset, isSettlementSymbol, listNetworksOfSymbol, normalizeNetworkId, normalizeSymbol, type NetworkId, type SettlementAsset } from "@/lib/catalogue";
import { validateAddress, type AddressChain } from "@/lib/chains/addresses";
import { AppError } from "@/lib/errors";

/** Whether the network's transfers carry a memo (the catalogue's `sendsMemo`: TON's comment, a jetton transfer's forward payload). */
export function sendsMemo(network: string): boolean {
  return findNetwork(network)?.sendsMemo === true;
}

/** Where a payout goes, checked against the catalogue and the network's address format. */
export interface PayoutDestination {
  asset: SettlementAsset;
  network: NetworkId;
  /** The address in the network's canonical form. */
  address: string;
  memo: string | undefined;
}

/**
 * spec: POST /v1/payout — the currency, network, address and memo of a payout, checked: an
 * unknown coin, a network that does not carry it, an address that is malformed or belongs to
 * another network, a memo where the network has none. Without `network`, a coin on one network
 * goes there, and a coin on several goes to the one network whose address format fits.
 */
export function resolvePayoutDestination(
  input: { currency: string; network?: string; address?: string; memo?: string },
  chainOf: (network: NetworkId) => AddressChain,
): PayoutDestination {
  const currency = normalizeSymbol(input.currency);
  if (!isSettlementSymbol(currency)) throw new AppError("payout.unknown_currency", `${input.currency} is not a currency this service pays out.`);
  const address = input.address?.trim() ?? "";
  if (address === "") throw new AppError("payout.no_destination", "address is required.");

  let network: NetworkId;
  if (input.network !== undefined) {
    const named = normalizeNetworkId(input.network);
    if (!findSettlementAsset(currency, named)) throw new AppError("payout.asset_mismatch", `${currency} is not carried on network ${input.network}.`);
    network = named as NetworkId;
  } else {
    const networks = listNetworksOfSymbol(currency);
    const fitting = networks.length === 1 ? networks : networks.filter((candidate) => validateAddress(candidate, address, { chain: chainOf(candidate) }).ok);
    if (fitting.length === 0) throw new AppError("payout.bad_address", `${address} is not an address of any network that carries ${currency}.`);
    if (fitting.length > 1) throw new AppError("payout.no_destination", `network is required: ${currency} is on ${fitting.join(", ")}, and the address fits several of them.`);
    network = fitting[0];
  }

  const normalized = checkAddressOn(network, address, chainOf(network));
  const memo = input.memo === undefined || input.memo === "" ? undefined : input.memo;
  if (memo !== undefined && !sendsMemo(network)) throw new AppError("payout.memo_unsupported", `${network} transfers carry no memo.`);
  return { asset: findSettlementAsset(currency, network)!, network, address: normalized, memo };
}

/**
 * An address checked for a network, in the network's canonical form: `payout.bad_address` when
 * malformed, `payout.address_network_mismatch` when it is another network's.
 */
export function checkAddressOn(network: NetworkId, address: string, chain: AddressChain): string {
  const validation = validateAddress(network, address, { chain });
  if (validation.ok) return validation.normalized;
  if (validation.reason === "wrong_network") throw new AppError("payout.address_network_mismatch", `${address} is an address of another network, not of ${network}.`);
  throw new AppError("payout.bad_address", `${address} is not a valid ${network} address.`);
}
