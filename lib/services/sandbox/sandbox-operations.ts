import type { GatewayConfig } from "@/lib/config/env";
import type { Db, Tx } from "@/lib/db/client";
import type { TxDeps, UnitOfWork } from "@/lib/deps/unit-of-work";
import type { Invoice } from "@/generated/prisma/client";
import { findNetwork, findSettlementAsset, normalizeNetworkId, normalizeSymbol, type NetworkId } from "@/lib/catalogue";
import { validateAddress } from "@/lib/chains/addresses";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";
import { mineSandboxBlocks, randomSandboxPayerAddress, submitSandboxTransaction } from "@/lib/chains/sandbox/sandbox-chain";
import { parseAmount } from "@/lib/domain/money/amount";
import { AppError } from "@/lib/errors";
import { evaluateInvoice, evaluationDepsOf } from "@/lib/services/deposits/evaluate-invoice";
import { isUuid } from "@/lib/domain/input/uuid";

export interface SandboxDeps {
  db: Db;
  config: GatewayConfig;
  now(): Date;
}

/** spec: operator contract §3 — the sandbox operations exist only with GATEWAY_SANDBOX=1. */
export function assertSandboxEnabled(config: Pick<GatewayConfig, "sandbox">): void {
  if (!config.sandbox) throw new AppError("request.not_found");
}

/** The network, if a sandbox chain serves it: `sandbox.unknown_network` / `sandbox.not_sandbox`. */
function sandboxNetworkOrThrow(config: GatewayConfig, networkText: string): NetworkId {
  const network = findNetwork(normalizeNetworkId(networkText));
  if (!network) throw new AppError("sandbox.unknown_network");
  if (resolveNetworkStatus(network, config).source !== "sandbox") throw new AppError("sandbox.not_sandbox");
  return network.id;
}

/**
 * `POST /v1/sandbox/deposit`: a 0-confirmation transaction in the network's sandbox mempool; the
 * network it went to, for its entry point to let the watcher see it (lib/jobs/handlers/sandbox-chain).
 */
export async function sandboxDeposit(
  deps: SandboxDeps,
  input: { network: string; currency: string; address: string; amount: string; from_address?: string },
): Promise<{ txid: string; network: NetworkId }> {
  assertSandboxEnabled(deps.config);
  const network = sandboxNetworkOrThrow(deps.config, input.network);
  const asset = findSettlementAsset(normalizeSymbol(input.currency), network);
  if (!asset) throw new AppError("sandbox.unknown_network", `${input.currency} is not carried on ${network}.`);
  const to = validateAddress(network, input.address);
  if (!to.ok) throw new AppError("sandbox.bad_address", `address: ${to.reason.replace("_", " ")}.`);
  let fromAddress = randomSandboxPayerAddress(network);
  if (input.from_address) {
    const from = validateAddress(network, input.from_address);
    if (!from.ok) throw new AppError("sandbox.bad_address", `from_address: ${from.reason.replace("_", " ")}.`);
    fromAddress = from.normalized;
  }
  const amountMinor = parseAmount(input.amount, asset.decimals);
  if (amountMinor === null || amountMinor <= 0n) throw new AppError("sandbox.bad_amount");
  const txid = await submitSandboxTransaction(deps.db, { network, currency: asset.symbol, fromAddress, toAddress: to.normalized, amountMinor, now: deps.now() });
  return { txid, network };
}

/** `POST /v1/sandbox/mine`: mines blocks (1 to 1000), confirming what is in the mempool; the network mined, as sandboxDeposit. */
export async function sandboxMine(deps: SandboxDeps, input: { network: string; blocks?: number }): Promise<{ height: number; network: NetworkId }> {
  assertSandboxEnabled(deps.config);
  const network = sandboxNetworkOrThrow(deps.config, input.network);
  const blocks = input.blocks ?? 1;
  if (!Number.isInteger(blocks) || blocks < 1 || blocks > 1000) throw new AppError("sandbox.bad_request", "blocks must be a whole number from 1 to 1000.");
  const height = await mineSandboxBlocks(deps.db, network, blocks, deps.now());
  return { height, network };
}

interface SandboxExpiry {
  merchantId: string;
  uuid: string;
}

/** `POST /v1/sandbox/expire` with an invoice uuid: its term is treated as reached and expiry runs. */
export const sandboxExpireInvoice = {
  prepare: async (deps: Pick<SandboxDeps, "db" | "config">, { merchantId, uuid }: SandboxExpiry): Promise<SandboxExpiry> => {
    assertSandboxEnabled(deps.config);
    if (!isUuid(uuid)) throw new AppError("sandbox.not_found");
    if (!(await deps.db.invoice.findFirst({ where: { id: uuid, merchantId }, select: { id: true } }))) throw new AppError("sandbox.not_found");
    return { merchantId, uuid };
  },
  execute: async (tx: Tx, deps: Pick<TxDeps, "config" | "now">, { uuid }: SandboxExpiry): Promise<Invoice> => {
    const now = deps.now();
    await tx.invoice.updateMany({ where: { id: uuid, isFinal: false, expiresAt: { gt: now } }, data: { expiresAt: now } });
    await evaluateInvoice(tx, evaluationDepsOf(deps.config), uuid, now);
    return tx.invoice.findUniqueOrThrow({ where: { id: uuid } });
  },
} satisfies UnitOfWork<SandboxExpiry, SandboxExpiry, Invoice>;
