import { createPublicClient, erc20Abi, http, type Address } from "viem";
import type { Db } from "@/lib/db/client";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { findEvmAsset, resolveEvmNetwork } from "@/lib/chains/evm";
import { tokenOverrides } from "@/lib/chains/real-chains";
import { createSandboxSender } from "@/lib/chains/sandbox/sandbox-sender";

/** An address's balance of one asset as its chain sees it, in on-chain minor units; null when this chain cannot be asked. */
export type BalanceReader = (input: { network: NetworkId; address: string; currency: string }) => Promise<bigint | null>;

/**
 * A sandbox chain keeps no balances (its sends never fail for want of funds), so the balance is
 * rebuilt from its transactions: what reached the address in a block, less what left it
 * (mempool included: it is spent), less the nominal network fee of each transaction it sent
 * when the asset is the native coin that pays it.
 */
export function createSandboxBalanceReader(db: Db): BalanceReader {
  return async ({ network, address, currency }) => {
    const [flows] = await db.$queryRaw<{ received: string; sent: string }[]>`
      SELECT COALESCE(SUM(amount_minor) FILTER (WHERE to_address = ${address} AND currency = ${currency} AND block_height IS NOT NULL), 0)::text AS received,
             COALESCE(SUM(amount_minor) FILTER (WHERE from_address = ${address} AND currency = ${currency}), 0)::text AS sent
      FROM sandbox_transactions WHERE network = ${network} AND (to_address = ${address} OR from_address = ${address})`;
    let balance = BigInt(flows.received) - BigInt(flows.sent);
    // The sandbox fee is nominal, the same for every transfer: the arguments do not change it.
    const fee = await createSandboxSender(db, network).estimateFee({ address, privateKey: new Uint8Array(), publicKey: new Uint8Array() }, { currency, toAddress: address, amountMinor: 1n });
    if (fee.feeCurrency === currency) {
      const transactionsSent = await db.sandboxTransaction.count({ where: { network, fromAddress: address } });
      balance -= fee.feeMinor * BigInt(transactionsSent);
    }
    return balance;
  };
}

/** A real EVM node asked over JSON-RPC: eth_getBalance for the native coin, balanceOf for tokens (with TOKEN_<NETWORK>_<SYMBOL> overrides). */
export function createEvmBalanceReader(rpcEndpoints: Readonly<Record<string, string | undefined>>, timeoutMs: number): BalanceReader {
  return async ({ network, address, currency }) => {
    const rpcUrl = rpcEndpoints[network];
    if (!rpcUrl || findNetwork(network)?.family !== "evm") return null;
    const evmNetwork = resolveEvmNetwork(network, tokenOverrides(process.env, network));
    const asset = findEvmAsset(evmNetwork, currency);
    if (!asset) return null;
    const client = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }) });
    if (asset.kind === "native") return client.getBalance({ address: address as Address });
    return client.readContract({ address: asset.token.contract as Address, abi: erc20Abi, functionName: "balanceOf", args: [address as Address] });
  };
}

/** Settles within `ms` or rejects, so that one silent node cannot hold the whole report. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
