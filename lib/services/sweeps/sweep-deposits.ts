import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/generated/prisma/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { GatewayConfig } from "@/lib/config/env";
import { findNetwork, findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf } from "@/lib/chains/registry";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import type { ChainSender, SigningKey } from "@/lib/chains/types";
import { planOutgoingTransfer } from "@/lib/services/outgoing/plan-outgoing";
import { log } from "@/lib/log";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";

export interface SweepDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "replaceAfterSeconds">;
  now(): Date;
}

/** The sweeper's own transfers; payouts from the hot wallet are the payout job's. */
export const SWEEP_TRANSFERS = { kinds: ["sweep", "gas"] };

/** Gas sent for a token sweep: the estimate with room for price moves. */
const GAS_MARGIN_PERCENT = 150n;
/** A sweep in these states may still move the deposit: no other is planned meanwhile. */
const IN_FLIGHT = new Set(["planned", "signed", "broadcast", "seen"]);
/** A deposit whose sweep failed or was dropped this often is left for an operator. */
const MAX_GIVEN_UP_SWEEPS = 10;

/** Failed (refused, reverted) or replaced (dropped for good): nothing moved, a new attempt may follow. */
function isGivenUp(status: string): boolean {
  return status === "failed" || status === "replaced";
}

export interface Keys {
  key(index: number): SigningKey;
  /** Derived on first use: a pass with nothing to sweep derives no key (two BIP32 derivations per network every 30 s). */
  hot(): SigningKey;
}

/** The network's deposit keys and its hot wallet key, derived on demand. */
export async function keysFor(deps: SweepDeps, network: NetworkId): Promise<Keys> {
  const material = await loadKeyMaterial(deps.db, deps.secretBox);
  const chain = addressChainOf(deps.config, network);
  const seed = material.openSeed();
  let hot: SigningKey | undefined;
  return { key: (index) => deriveSigningKey(seed, network, index, chain), hot: () => (hot ??= deriveSigningKey(seed, network, HOT_WALLET_INDEX, chain)) };
}

/** A deposit address the sweeper empties: an invoice's, or a static wallet's (whose deposits keep coming). */
interface DepositAddress {
  /** The invoice or wallet id: the sweeps' and gas transfers' references are named after it. */
  id: string;
  address: string;
  addressIndex: number;
  currency: string;
  /** Its confirmed transfers: what it has received, credited (or held for a refund). */
  credited: Prisma.ChainTransferWhereInput;
}

/**
 * Plans the sweeps that are due, each under a unique reference (so two workers plan once): credited
 * deposits move from their invoice and static wallet addresses to the network's hot wallet; a token
 * sweep on an account-based network, where the address pays gas in the native coin, first gets
 * that gas from the hot wallet. Returns how many were planned.
 */
export async function planSweeps(deps: SweepDeps, network: NetworkId, sender: ChainSender, keys: Keys): Promise<number> {
  const nativeSymbol = findNetwork(network)?.nativeSymbol ?? "";
  const invoices = await deps.db.invoice.findMany({
    where: { network, isFinal: true, settledMinor: { gt: 0 }, address: { not: null }, addressIndex: { not: null } },
    select: { id: true, address: true, addressIndex: true, payerCurrency: true },
  });
  // A wallet's held deposits are swept too: the refund that returns them leaves from the hot wallet.
  const wallets = await deps.db.staticWallet.findMany({ where: { network, transfers: { some: { status: "confirmed" } } }, select: { id: true, address: true, addressIndex: true, currency: true } });
  const deposits: DepositAddress[] = [
    ...invoices.map((invoice) => ({ id: invoice.id, address: invoice.address!, addressIndex: invoice.addressIndex!, currency: invoice.payerCurrency!, credited: { invoiceId: invoice.id } })),
    ...wallets.map((wallet) => ({ ...wallet, credited: { staticWalletId: wallet.id } })),
  ];
  let planned = 0;
  for (const deposit of deposits) {
    // One deposit that cannot be planned now (a node error) does not hold up the others.
    try {
      planned += await planDepositSweep(deps, network, sender, keys, deposit, nativeSymbol);
    } catch (error) {
      log.warn("sweep not planned; the next pass retries", { network, depositOf: deposit.id, error });
    }
  }
  return planned;
}

async function planDepositSweep(
  deps: SweepDeps,
  network: NetworkId,
  sender: ChainSender,
  keys: Keys,
  deposit: DepositAddress,
  nativeSymbol: string,
): Promise<number> {
  const { currency } = deposit;
  const asset = findSettlementAsset(currency, network);
  if (!asset) return 0;
  const outgoing = await deps.db.outgoingTransfer.findMany({ where: { network, fromAddress: deposit.address, kind: "sweep" } });
  if (outgoing.some((transfer) => IN_FLIGHT.has(transfer.status))) return 0;
  if (outgoing.filter((transfer) => isGivenUp(transfer.status)).length >= MAX_GIVEN_UP_SWEEPS) return 0;
  const credited = await deps.db.chainTransfer.aggregate({ where: { ...deposit.credited, status: "confirmed", currency }, _sum: { amountMinor: true } });
  const swept = outgoing.filter((transfer) => transfer.status === "confirmed").reduce((sum, transfer) => sum + toMinor(transfer.coveredMinor), 0n);
  const remaining = toMinor(credited._sum.amountMinor) - swept;
  if (remaining <= 0n) return 0;
  const from = keys.key(deposit.addressIndex);
  const hot = keys.hot();
  const transfer = { currency, toAddress: hot.address, amountMinor: remaining, changeAddress: hot.address };
  // A deposit with no native coin yet may not be able to simulate its own transfer (TON): the
  // same transfer from the hot wallet costs the same and sizes the gas.
  const fee = (await sender.estimateFee(from, transfer).catch(() => sender.estimateFee(hot, transfer))).feeMinor;
  const attempt = outgoing.length;
  // Change (UTXO) goes to the hot wallet: a deposit address never receives the service's own coins back.
  const sweep = (amountMinor: bigint) =>
    planOutgoingTransfer(
      deps.db,
      { kind: "sweep", reference: `sweep:${deposit.id}:${attempt}`, network, currency, fromAddress: from.address, fromIndex: deposit.addressIndex, toAddress: hot.address, changeAddress: hot.address, amountMinor, coveredMinor: remaining },
      deps.now(),
    );
  if (asset.kind === "native") {
    // The coin pays its own fee: what is left after it (with a margin, as the fee may rise
    // before sending) goes to the hot wallet; dust stays.
    const reserve = (fee * GAS_MARGIN_PERCENT) / 100n;
    return remaining > reserve ? sweep(remaining - reserve) : 0;
  }
  const isSandbox = !deps.config.rpcEndpoints[network];
  // On an account-based network a token is moved by its holder, who pays the fee in the native coin.
  if (findNetwork(network)?.isAccountBased === true && !isSandbox) {
    // Gas for this attempt: planned again when a transfer of it failed or was dropped.
    const gasTransfers = await deps.db.outgoingTransfer.findMany({ where: { kind: "gas", reference: { startsWith: `gas:${deposit.id}:${attempt}` } }, orderBy: { createdAt: "asc" } });
    const gas = gasTransfers.at(-1);
    if (!gas || (isGivenUp(gas.status) && gasTransfers.length < MAX_GIVEN_UP_SWEEPS)) {
      const amount = (fee * GAS_MARGIN_PERCENT) / 100n;
      const reference = gasTransfers.length === 0 ? `gas:${deposit.id}:${attempt}` : `gas:${deposit.id}:${attempt}:${gasTransfers.length}`;
      return planOutgoingTransfer(
        deps.db,
        { kind: "gas", reference, network, currency: nativeSymbol, fromAddress: hot.address, fromIndex: HOT_WALLET_INDEX, toAddress: from.address, amountMinor: amount, coveredMinor: amount },
        deps.now(),
      );
    }
    if (gas.status !== "confirmed") return 0; // the token moves once its gas is there
  }
  return sweep(remaining);
}
