import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { listNetworks } from "@/lib/catalogue";
import { getKeyTree } from "@/lib/chains/addresses/derivation-paths";
import { accountForms } from "@/lib/chains/addresses";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { addressChainOf } from "@/lib/chains/registry";
import { AppError, type ErrorCode } from "@/lib/errors";
import type { PayoutDestination } from "./payout-destination";

/**
 * spec: "Paying to a gateway-owned address is refused" — the network's hot wallet and every
 * deposit address the service ever handed out, an invoice's or a static wallet's (on any network: an EVM key is the same address
 * on all of them). Money sent there would come back as somebody's deposit.
 */
export async function assertNotGatewayAddress(
  deps: { db: Db; secretBox: SecretBox; config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints"> },
  destination: Pick<PayoutDestination, "network" | "address">,
  code: ErrorCode = "payout.destination_internal",
): Promise<void> {
  const keys = await loadKeyMaterial(deps.db, deps.secretBox);
  const hot = hotWalletAddress(keys, destination.network, addressChainOf(deps.config, destination.network));
  // The forms one account has: EVM addresses are checksummed on both sides; a TON account has a
  // form per flag (bounceable, test-only) besides its raw one, and every form is the same account.
  const forms = accountForms(destination.address);
  const isHotWallet = forms.includes(hot);
  const sameKeys = listNetworks().filter((network) => getKeyTree(network.id) === getKeyTree(destination.network)).map((network) => network.id);
  const isDepositAddress =
    !isHotWallet &&
    ((await deps.db.invoice.findFirst({ where: { network: { in: sameKeys }, address: { in: forms } }, select: { id: true } })) !== null ||
      (await deps.db.staticWallet.findFirst({ where: { network: { in: sameKeys }, address: { in: forms } }, select: { id: true } })) !== null);
  if (isHotWallet || isDepositAddress) throw new AppError(code, "The address belongs to this service; pay out to an outside address.");
}
