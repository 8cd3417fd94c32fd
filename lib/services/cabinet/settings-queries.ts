import type { Prisma } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { findNetwork, findSettlementAsset, listSettlementAssets } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import type { Db } from "@/lib/db/client";
import { DEFAULT_PLATFORM_FEE, formatPercentBps } from "@/lib/domain/fees/platform-fee";
import { formatAmount } from "@/lib/domain/money/amount";
import { cidrContains, parseCidr, parseIp } from "@/lib/domain/net/ip";
import { MAX_WEBHOOK_ATTEMPTS } from "@/lib/domain/webhook-delivery/backoff";
import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import { listBalances } from "@/lib/services/balances/list-balances";
import { isUuid } from "@/lib/domain/input/uuid";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import { listAutoWithdrawRules } from "@/lib/services/payouts/auto-withdraw";
import { listPersonalWallets } from "@/lib/services/payouts/personal-wallet";
import { PAYMENT_EVENT_BY_STATUS, PAYOUT_INTERNAL_STATUSES } from "@/lib/webhooks/payloads";

// The cabinet's reads for the settings and webhooks pages that no API operation answers as such:
// the platform fee in force, the catalogue's assets as form choices, rules and wallets shown in
// their coins' units, and the store-wide webhook delivery log with filters and a keyset cursor.
// Every read is scoped by the merchant.

/** The platform fee taken from each payment: the store's override where the operator set one, else the service default. */
export interface PlatformFeeView {
  /** Percent of each payment, e.g. "1.5". */
  percent: string;
  /** Fixed part in USD, e.g. "0.30". */
  fixedUsd: string;
  isPercentOverride: boolean;
  isFixedOverride: boolean;
}

export async function describePlatformFee(db: Db, merchantId: string): Promise<PlatformFeeView> {
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { feePercentBps: true, feeFixedUsdMinor: true } });
  // The same fallbacks as invoice creation (create-invoice.ts): a null column is the service default.
  const percentBps = merchant.feePercentBps ?? DEFAULT_PLATFORM_FEE.percentBps;
  const fixedUsdMinor = merchant.feeFixedUsdMinor === null ? DEFAULT_PLATFORM_FEE.fixedUsdMinor : toMinor(merchant.feeFixedUsdMinor);
  return {
    percent: formatPercentBps(percentBps),
    fixedUsd: formatAmount(fixedUsdMinor, 2, 2),
    isPercentOverride: merchant.feePercentBps !== null,
    isFixedOverride: merchant.feeFixedUsdMinor !== null,
  };
}

/** A coin on a network of the catalogue, as a settings form offers it. */
export interface AssetOption {
  currency: string;
  network: string;
  networkName: string;
  decimals: number;
  /** Whether this service watches the network for deposits now. */
  canReceive: boolean;
  /** Whether this service can send on the network now. */
  canSend: boolean;
}

/** Every settlement asset of the catalogue, in catalogue order, with what this service does on its network now. */
export function listAssetOptions(config: AppDeps["config"]): AssetOption[] {
  const isServed = networkAvailability(config);
  return listSettlementAssets().map((asset) => ({
    currency: asset.symbol,
    network: asset.network,
    networkName: findNetwork(asset.network)?.displayName ?? asset.network,
    decimals: asset.decimals,
    canReceive: isServed(asset.network).deposit,
    canSend: isServed(asset.network).payout,
  }));
}

/** An auto-withdraw rule with its threshold in the coin's units (the API answers minor units). */
export interface AutoWithdrawRuleRow {
  currency: string;
  network: string;
  networkName: string;
  address: string;
  /** Decimal string in the asset's units; "0" means every credit. */
  min: string;
}

export async function describeAutoWithdrawRules(db: Db, merchantId: string): Promise<AutoWithdrawRuleRow[]> {
  const { rules } = await listAutoWithdrawRules(db, merchantId);
  return rules.map((rule) => ({
    currency: rule.currency,
    network: rule.network,
    networkName: findNetwork(rule.network)?.displayName ?? rule.network,
    address: rule.address,
    min: formatAmount(BigInt(rule.min_minor), findSettlementAsset(rule.currency, rule.network)?.decimals ?? 0),
  }));
}

/** A registered personal wallet with what the balance holds in its asset. */
export interface PersonalWalletRow {
  currency: string;
  network: string;
  networkName: string;
  address: string;
  label: string;
  /** When transfers to it may start (registration plus the payout freeze). */
  usableFrom: string;
  isUsable: boolean;
  decimals: number;
  /** What transfers may spend now (`available`), a decimal string in the asset's units. */
  available: string;
}

export async function listPersonalWalletRows(deps: Pick<AppDeps, "db" | "config" | "now">, merchantId: string): Promise<PersonalWalletRow[]> {
  const [wallets, balances] = await Promise.all([listPersonalWallets(deps, merchantId), listBalances(deps.db, merchantId)]);
  const now = deps.now();
  return wallets.map((wallet) => {
    const decimals = findSettlementAsset(wallet.currency, wallet.network)?.decimals ?? 0;
    const balance = balances.find((candidate) => candidate.currency === wallet.currency && candidate.network === wallet.network);
    return {
      currency: wallet.currency,
      network: wallet.network,
      networkName: findNetwork(wallet.network)?.displayName ?? wallet.network,
      address: wallet.address,
      label: wallet.label,
      usableFrom: wallet.usable_from,
      isUsable: new Date(wallet.usable_from) <= now,
      decimals,
      available: formatAmount(balance?.available ?? 0n, decimals),
    };
  });
}

/**
 * Whether an address falls in one of the allow-list's entries, by the same test as the API's
 * signature check (lib/api/dispatch.ts); false for an address that does not parse.
 */
export function isAddressInAllowlist(entries: readonly string[], addressText: string): boolean {
  const address = parseIp(addressText);
  if (!address) return false;
  return entries.some((entry) => {
    const range = parseCidr(entry);
    return range !== null && cidrContains(range, address);
  });
}

/** Every event type a delivery may carry (spec: Events). */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [...Object.values(PAYMENT_EVENT_BY_STATUS), "wallet.paid", ...PAYOUT_INTERNAL_STATUSES.map((status) => `payout.${status}`)];

/**
 * What the delivery log filters on: the stored statuses (pending, delivered, dead), and
 * `retrying` — pending deliveries that already failed at least once.
 */
export const DELIVERY_STATUS_FILTERS = ["pending", "retrying", "delivered", "dead"] as const satisfies readonly (DeliveryStatus | "retrying")[];
export type DeliveryStatusFilter = (typeof DELIVERY_STATUS_FILTERS)[number];

export interface DeliveryFilters {
  status?: DeliveryStatusFilter;
  eventType?: string;
  /** The payment, wallet deposit or payout the events are about. */
  objectId?: string;
}

export interface DeliveryRow {
  id: string;
  eventType: string;
  objectId: string;
  /** "endpoint" (the registered URL) or "callback" (the object's url_callback). */
  target: string;
  url: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string;
  /** When the next attempt is due; null once delivered or dead. */
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** For a dead delivery: the newest later delivery of the same event about the same object to the same URL (a resend). */
  resentAs: { id: string; status: string; createdAt: Date } | null;
}

export interface DeliveryPage {
  items: DeliveryRow[];
  nextCursor: string | null;
}

export const MAX_DELIVERY_PAGE = 100;

function deliveryWhere(merchantId: string, filters: DeliveryFilters): Prisma.WebhookDeliveryWhereInput {
  const status: Prisma.WebhookDeliveryWhereInput =
    filters.status === "retrying" ? { status: "pending", attempts: { gt: 0 } } : filters.status ? { status: filters.status } : {};
  return {
    merchantId,
    ...status,
    ...(filters.eventType ? { eventType: filters.eventType } : {}),
    ...(filters.objectId ? { objectId: filters.objectId } : {}),
  };
}

/**
 * The store's webhook deliveries, newest first, a page at a time (an opaque cursor; a cursor that
 * is not one is `cabinet.bad_request`). Unlike POST /v1/webhooks/deliveries (the 50 newest), this
 * reaches every delivery kept.
 */
export async function searchWebhookDeliveries(db: Db, merchantId: string, filters: DeliveryFilters, page: { limit: number; cursor?: string }): Promise<DeliveryPage> {
  const limit = Math.min(Math.max(page.limit, 1), MAX_DELIVERY_PAGE);
  const position = page.cursor ? decodeCursor(page.cursor, "cabinet.bad_request") : null;
  const rows = await db.webhookDelivery.findMany({
    where: { AND: [deliveryWhere(merchantId, filters), after(position)] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: {
      id: true,
      eventType: true,
      objectId: true,
      target: true,
      url: true,
      status: true,
      attempts: true,
      lastStatusCode: true,
      lastError: true,
      nextAttemptAt: true,
      deliveredAt: true,
      createdAt: true,
      updatedAt: true,
    },
  });
  const pageRows = rows.slice(0, limit);
  const dead = pageRows.filter((row) => row.status === "dead");
  // A resend records new deliveries and leaves the dead one as it was: one query for the later
  // deliveries about the page's dead objects (merchant_id, object_id index).
  const later =
    dead.length === 0
      ? []
      : await db.webhookDelivery.findMany({
          where: { merchantId, objectId: { in: [...new Set(dead.map((row) => row.objectId))] }, createdAt: { gt: dead.reduce((min, row) => (row.createdAt < min ? row.createdAt : min), dead[0].createdAt) } },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          select: { id: true, objectId: true, eventType: true, url: true, status: true, createdAt: true },
        });
  const items = pageRows.map((row) => {
    const resend =
      row.status === "dead"
        ? later.find((candidate) => candidate.objectId === row.objectId && candidate.eventType === row.eventType && candidate.url === row.url && candidate.createdAt > row.createdAt)
        : undefined;
    return {
      ...row,
      maxAttempts: MAX_WEBHOOK_ATTEMPTS,
      nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
      resentAs: resend ? { id: resend.id, status: resend.status, createdAt: resend.createdAt } : null,
    };
  });
  const last = pageRows[pageRows.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** One of the store's deliveries (what a resend needs), or null — another merchant's id included. */
export async function findMerchantDelivery(db: Db, merchantId: string, deliveryId: string): Promise<{ id: string; eventType: string; objectId: string; status: string } | null> {
  if (!isUuid(deliveryId)) return null;
  return db.webhookDelivery.findFirst({ where: { id: deliveryId.toLowerCase(), merchantId }, select: { id: true, eventType: true, objectId: true, status: true } });
}

/** Whether the service can record a delivery's event again: payment events only (spec: Events — a separate resend operation). */
export function isResendableEvent(eventType: string): boolean {
  return (Object.values(PAYMENT_EVENT_BY_STATUS) as string[]).includes(eventType);
}
