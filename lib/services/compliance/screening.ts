import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { findNetwork, normalizeNetworkId, type NetworkId } from "@/lib/catalogue";
import { accountForms, validateAddress } from "@/lib/chains/addresses";
import { normalizeEvmAddress } from "@/lib/chains/addresses/evm-address";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

/** Where money would go. */
export interface Destination {
  network: string;
  address: string;
}

export interface ScreeningVerdict {
  isBlocked: boolean;
  /** For the operator's log; never shown to the merchant. */
  reason?: string;
}

/**
 * One screening service: the built-in deny list, or an external provider (a sanctions or
 * risk-scoring service) plugged in beside it. A provider that cannot answer throws: money does
 * not leave unscreened.
 */
export interface ScreeningProvider {
  name: string;
  screen(destination: Destination): Promise<ScreeningVerdict>;
}

/** The operator's deny list (`gateway compliance block`): an address on its network, or on every network. */
export function denyListProvider(db: Db): ScreeningProvider {
  return {
    name: "deny-list",
    async screen(destination) {
      const canonicalForm = canonical(destination.network, destination.address);
      const candidates = [destination.address, ...(canonicalForm ? accountForms(canonicalForm) : [])];
      const block = await db.complianceBlock.findFirst({ where: { address: { in: [...new Set(candidates)] }, network: { in: [destination.network, "*"] } } });
      return block ? { isBlocked: true, reason: block.reason || "on the deny list" } : { isBlocked: false };
    },
  };
}

const externalProviders: ScreeningProvider[] = [];

/** The slot for an external screening service: every destination is also put to it. */
export function addScreeningProvider(provider: ScreeningProvider): () => void {
  externalProviders.push(provider);
  return () => {
    const index = externalProviders.indexOf(provider);
    if (index >= 0) externalProviders.splice(index, 1);
  };
}

/**
 * The one screening every destination passes — payouts, refunds, claims, auto-withdrawals and
 * split shares alike: `compliance.blocked` (403) when any provider blocks it,
 * `compliance.unavailable` (503) when one cannot answer.
 */
export async function screenDestination(deps: { db: Db }, destination: Destination): Promise<void> {
  for (const provider of [denyListProvider(deps.db), ...externalProviders]) {
    let verdict: ScreeningVerdict;
    try {
      verdict = await provider.screen(destination);
    } catch (error) {
      throw new AppError("compliance.unavailable", `Screening (${provider.name}) did not answer; nothing was sent. Retry later.`, { cause: error });
    }
    if (verdict.isBlocked) {
      log.warn("destination refused by compliance screening", { provider: provider.name, network: destination.network, address: destination.address, reason: verdict.reason });
      throw new AppError("compliance.blocked", "The destination failed compliance screening.");
    }
  }
}

function canonical(network: string, address: string): string | null {
  if (!findNetwork(network)) return null;
  const validation = validateAddress(network as NetworkId, address.trim());
  return validation.ok ? validation.normalized : null;
}

/** How the deny list stores an address: canonical for its network; for every network, EVM addresses checksummed. */
function canonicalOn(network: string, address: string): string {
  const text = address.trim();
  if (network !== "*") return canonical(network, text) ?? text;
  return normalizeEvmAddress(text) ?? text;
}

/** Operator: adds an address to the deny list (canonical for its network when one is named). */
export async function blockAddress(db: Db, input: { address: string; network?: string; reason?: string }): Promise<{ address: string; network: string; reason: string }> {
  const network = input.network ? normalizeNetworkId(input.network) : "*";
  if (network !== "*" && !findNetwork(network)) throw new Error(`Unknown network ${input.network}`);
  const address = canonicalOn(network, input.address);
  if (address === "") throw new Error("--address is required");
  const reason = input.reason ?? "";
  await db.complianceBlock.upsert({
    where: { address_network: { address, network } },
    create: { id: randomUUID(), address, network, reason },
    update: { reason },
  });
  return { address, network, reason };
}

/** Operator: removes an address from the deny list; false when it was not there. */
export async function unblockAddress(db: Db, input: { address: string; network?: string }): Promise<boolean> {
  const network = input.network ? normalizeNetworkId(input.network) : "*";
  const address = canonicalOn(network, input.address);
  const { count } = await db.complianceBlock.deleteMany({ where: { address, network } });
  return count > 0;
}

export async function listBlockedAddresses(db: Db) {
  const rows = await db.complianceBlock.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map((row) => ({ address: row.address, network: row.network, reason: row.reason, created_at: row.createdAt.toISOString() }));
}
