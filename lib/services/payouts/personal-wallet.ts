import { randomUUID } from "node:crypto";
import type { Payout } from "@/generated/prisma/client";
import { findSettlementAsset, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { addressChainOf } from "@/lib/chains/registry";
import { AppError } from "@/lib/errors";
import { screenDestination } from "@/lib/services/compliance/screening";
import { createPayout, type PayoutPlan } from "@/lib/services/payouts/create-payout";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { type PayoutDeps } from "@/lib/services/money-out/payout-terms";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { resolvePayoutDestination } from "@/lib/services/money-out/payout-destination";

export interface PersonalWalletView {
  currency: string;
  network: string;
  address: string;
  label: string;
  /** When transfers to it may start: the registration plus the payout freeze. */
  usable_from: string;
}

function viewOf(row: { currency: string; network: string; address: string; label: string; updatedAt: Date }, freezeSeconds: number): PersonalWalletView {
  return { currency: row.currency, network: row.network, address: row.address, label: row.label, usable_from: new Date(row.updatedAt.getTime() + freezeSeconds * 1000).toISOString() };
}

/**
 * Registers (or changes) the merchant's own wallet for an asset: checked like a payout
 * destination, never a gateway-owned address, screened. The cabinet calls this under two-factor
 * authentication; a changed address waits out the payout freeze before it receives anything.
 */
export async function registerPersonalWallet(
  deps: PayoutDeps,
  merchantId: string,
  input: { currency: string; network: string; address: string; label?: string },
): Promise<PersonalWalletView> {
  const destination = resolvePayoutDestination({ currency: input.currency, network: input.network, address: input.address }, (network) => addressChainOf(deps.config, network));
  await assertNotGatewayAddress(deps, destination);
  await screenDestination(deps, destination);
  const key = { merchantId, currency: destination.asset.symbol, network: destination.network };
  const existing = await deps.db.personalWallet.findUnique({ where: { merchantId_currency_network: key } });
  const label = (input.label ?? existing?.label ?? "").slice(0, 100);
  if (existing && existing.address === destination.address) {
    const row = await deps.db.personalWallet.update({ where: { merchantId_currency_network: key }, data: { label, updatedAt: existing.updatedAt } });
    return viewOf(row, deps.config.payoutFreezeSeconds);
  }
  const now = deps.now();
  const row = await deps.db.personalWallet.upsert({
    where: { merchantId_currency_network: key },
    create: { ...key, address: destination.address, label, createdAt: now, updatedAt: now },
    update: { address: destination.address, label, updatedAt: now },
  });
  return viewOf(row, deps.config.payoutFreezeSeconds);
}

export async function listPersonalWallets(deps: Pick<PayoutDeps, "db" | "config">, merchantId: string): Promise<PersonalWalletView[]> {
  const rows = await deps.db.personalWallet.findMany({ where: { merchantId }, orderBy: [{ currency: "asc" }, { network: "asc" }] });
  return rows.map((row) => viewOf(row, deps.config.payoutFreezeSeconds));
}

export async function removePersonalWallet(deps: Pick<PayoutDeps, "db">, merchantId: string, input: { currency: string; network: string }): Promise<boolean> {
  const { count } = await deps.db.personalWallet.deleteMany({ where: { merchantId, currency: normalizeSymbol(input.currency), network: normalizeNetworkId(input.network) } });
  return count > 0;
}

export interface PersonalTransfer {
  merchantId: string;
  input: { currency: string; network: string; amount: string; reference?: string };
  actor: string;
}

/**
 * Transfer to a personal wallet: a payout of `amount` to the merchant's registered wallet for
 * the asset, with `source: manual` — it waits for approval by another user or key, like every
 * manual payout. `reference` makes a repeated request the same transfer.
 */
async function prepareTransfer(deps: PayoutDeps, { merchantId, input, actor }: PersonalTransfer): Promise<PayoutPlan> {
  const currency = normalizeSymbol(input.currency);
  const network = normalizeNetworkId(input.network);
  if (!findSettlementAsset(currency, network)) throw new AppError("payout.asset_mismatch", `${input.currency} is not carried on network ${input.network}.`);
  const wallet = await deps.db.personalWallet.findUnique({ where: { merchantId_currency_network: { merchantId, currency, network } } });
  if (!wallet) throw new AppError("payout.no_destination", `No personal wallet is registered for ${currency} on ${network}.`);
  const usableFrom = new Date(wallet.updatedAt.getTime() + deps.config.payoutFreezeSeconds * 1000);
  if (usableFrom > deps.now()) throw new AppError("payout.frozen", `The personal wallet was registered recently; transfers start at ${usableFrom.toISOString()}.`);
  return createPayout.prepare(deps, {
    merchantId,
    input: { amount: input.amount, currency, network, address: wallet.address, order_id: `transfer:${input.reference ?? randomUUID()}`, source: "manual" },
    actor,
  });
}

/** The transfer to a personal wallet: the wallet checked, then recorded as createPayout records a payout. */
export const transferToPersonalWallet = { ...createPayout, prepare: prepareTransfer } satisfies UnitOfWork<PersonalTransfer, PayoutPlan, Payout>;
