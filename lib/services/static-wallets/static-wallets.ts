import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Prisma, StaticWallet } from "@/generated/prisma/client";
import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db, Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { findPricingCurrency, findSettlementAsset, isSettlementSymbol, listNetworksOfSymbol, normalizeNetworkId, normalizeSymbol, type NetworkId } from "@/lib/catalogue";
import type { SettlementAsset } from "@/lib/catalogue/types";
import { allocateDepositAddress } from "@/lib/chains/allocate-address";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { networkAvailability } from "@/lib/chains/network-sources";
import { addressChainOf } from "@/lib/chains/registry";
import { DEFAULT_PLATFORM_FEE } from "@/lib/domain/fees/platform-fee";
import { AppError } from "@/lib/errors";
import { vetMerchantUrl } from "@/lib/net/outbound-url";
import type { RateProvider } from "@/lib/rates";
import { ensureWatchCursor } from "@/lib/chains/ensure-watch-cursor";
import { isUuid } from "@/lib/domain/input/uuid";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { fetchPricesOrThrow, quoteInSettlement } from "@/lib/services/invoices/pricing";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import type { createStaticWalletSchema, WalletLookup } from "@/lib/api/requests/static-wallet";
import { containsText } from "@/lib/db/text-search";

export interface StaticWalletDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "allowLoopbackUrls" | "staticWalletsEnabled">;
  rates: RateProvider;
  now(): Date;
}

/** One USD, in cents: what the wallet's quote converts to value its deposits. */
const ONE_USD_MINOR = 100n;

/** A wallet request: the merchant's customer and the coin. */
export interface StaticWalletRequest {
  merchantId: string;
  input: z.output<typeof createStaticWalletSchema>;
}

/** The wallet of a repeat, or a new wallet's row as priced and allocated before the transaction. */
export type StaticWalletPlan = { existing: StaticWallet } | { existing: null; row: Prisma.StaticWalletCreateManyInput };

/**
 * Designed: POST /v1/wallet. A permanent deposit address for the merchant's customer `order_id`
 * in one coin on one network — the same wallet for a repeat of the (order_id, coin, network),
 * also under concurrent requests (the unique key decides). The platform fee is fixed as an
 * invoice's is: the merchant's percentage and fixed USD part, that part in the coin at today's
 * rate (`wallet.quote_failed` when no rate answers).
 */
export const createStaticWallet = {
  prepare: planStaticWallet,
  async execute(tx: Tx, _deps: unknown, plan: StaticWalletPlan): Promise<StaticWallet> {
    if (plan.existing) return plan.existing;
    const { row } = plan;
    const { count } = await tx.staticWallet.createMany({
      data: [row],
      // A concurrent create of the same (order_id, coin, network) committed first: its wallet is the answer.
      skipDuplicates: true,
    });
    const key = { merchantId: row.merchantId, orderId: row.orderId, currency: row.currency, network: row.network };
    return count === 1 ? tx.staticWallet.findUniqueOrThrow({ where: { id: row.id } }) : tx.staticWallet.findFirstOrThrow({ where: key });
  },
} satisfies UnitOfWork<StaticWalletRequest, StaticWalletPlan, StaticWallet>;

async function planStaticWallet(deps: StaticWalletDeps, { merchantId, input }: StaticWalletRequest): Promise<StaticWalletPlan> {
  assertWalletsEnabled(deps);
  const asset = resolveWalletAsset(input.currency, input.network);
  if (!networkAvailability(deps.config)(asset.network).deposit) throw new AppError("wallet.unsupported_network", `${asset.network} is not available on this service.`);
  const key = { merchantId, orderId: input.order_id, currency: asset.symbol, network: asset.network };
  // A repeat answers the wallet before anything that may have changed (the rate, the node) is asked.
  const existing = await deps.db.staticWallet.findFirst({ where: key });
  if (existing) return { existing };

  const urlCallback =
    input.url_callback === undefined ? null : await vetMerchantUrl(input.url_callback, { allowLoopback: deps.config.allowLoopbackUrls, refusal: "wallet.bad_url_callback", field: "url_callback: " });
  const usd = findPricingCurrency("USD")!;
  const prices = await fetchPricesOrThrow(deps.rates, [usd.symbol, asset.symbol], "wallet.quote_failed");
  const merchant = await deps.db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { feePercentBps: true, feeFixedUsdMinor: true } });
  const feeFixedUsdMinor = merchant.feeFixedUsdMinor === null ? DEFAULT_PLATFORM_FEE.fixedUsdMinor : toMinor(merchant.feeFixedUsdMinor);
  const now = deps.now();
  const quote = quoteInSettlement({ priceCurrency: usd, priceMinor: ONE_USD_MINOR, symbol: asset.symbol, network: asset.network, prices, subtractPercent: 0, feeFixedUsdMinor, now, expiresAt: now });

  await ensureWatchCursor(deps, asset.network, now);
  // Allocated before the transaction, as for invoices: an index a lost race leaves unused is skipped, never reused.
  const keys = await loadKeyMaterial(deps.db, deps.secretBox);
  const allocated = await allocateDepositAddress(deps.db, keys, asset.network as NetworkId, addressChainOf(deps.config, asset.network));
  return {
    existing: null,
    row: {
      id: randomUUID(),
      ...key,
      address: allocated.address,
      addressIndex: allocated.index,
      urlCallback,
      feePercentBps: merchant.feePercentBps ?? DEFAULT_PLATFORM_FEE.percentBps,
      feeFixedUsdMinor: feeFixedUsdMinor.toString(),
      feeFixedAssetMinor: quote.feeFixedAssetMinor.toString(),
      usdUnitMinor: quote.payerAmountMinor.toString(),
      createdAt: now,
      updatedAt: now,
    },
  };
}

/** The coin and network of a wallet request: the network may be omitted where the coin has only one. */
function resolveWalletAsset(currencyInput: string | undefined, networkInput: string | undefined): SettlementAsset {
  const symbol = normalizeSymbol(currencyInput ?? "");
  if (!isSettlementSymbol(symbol)) throw new AppError("wallet.unknown_currency", `${currencyInput ?? ""} is not a coin this service receives.`);
  let network = networkInput === undefined ? undefined : normalizeNetworkId(networkInput);
  if (network === undefined) {
    const networks = listNetworksOfSymbol(symbol);
    if (networks.length !== 1) throw new AppError("wallet.no_network", `${symbol} is on ${networks.join(", ")}: set network.`);
    network = networks[0];
  }
  const asset = findSettlementAsset(symbol, network);
  if (!asset) throw new AppError("wallet.unsupported_network", `${symbol} is not received on ${network}.`);
  return asset;
}

/**
 * A merchant's wallet by uuid, or by the order_id it was made for with its coin (and network,
 * where the coin has several). Another merchant's wallet is `wallet.static_not_found`, exactly
 * like a missing one.
 */
export async function getMerchantWalletOrThrow(deps: Pick<StaticWalletDeps, "db" | "config">, merchantId: string, lookup: WalletLookup): Promise<StaticWallet> {
  assertWalletsEnabled(deps);
  let wallet: StaticWallet | null;
  if (lookup.uuid !== undefined) {
    if (!isUuid(lookup.uuid)) throw new AppError("wallet.bad_uuid");
    wallet = await deps.db.staticWallet.findFirst({ where: { id: lookup.uuid.toLowerCase(), merchantId } });
  } else if (lookup.order_id !== undefined) {
    const asset = resolveWalletAsset(lookup.currency, lookup.network);
    wallet = await deps.db.staticWallet.findFirst({ where: { merchantId, orderId: lookup.order_id, currency: asset.symbol, network: asset.network } });
  } else {
    throw new AppError("wallet.no_lookup");
  }
  if (!wallet) throw new AppError("wallet.static_not_found");
  return wallet;
}

/** Designed: POST /v1/wallet/list — newest first, keyset-paginated. */
export async function listStaticWallets(deps: Pick<StaticWalletDeps, "db" | "config">, merchantId: string, page: { limit: number; cursor?: string; query?: string }) {
  assertWalletsEnabled(deps);
  const position = page.cursor ? decodeCursor(page.cursor, "wallet.bad_cursor") : null;
  // The cabinet's search box: part of the order id or the address, any case.
  const query = page.query?.trim() ?? "";
  const found: Prisma.StaticWalletWhereInput = query === "" ? {} : { OR: [{ orderId: containsText(query) }, { address: containsText(query) }] };
  const rows = await deps.db.staticWallet.findMany({ where: { merchantId, AND: [found, after(position)] }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit + 1 });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? encodeCursor(items[items.length - 1]) : null };
}

/**
 * Designed: POST /v1/wallet/block. From now on the address credits nothing: later deposits are
 * held for the blocked-address refund. Under the wallet's row lock, so a deposit being credited
 * finishes first; blocking again answers the wallet as it is.
 */
export const blockStaticWallet = {
  prepare: async (deps: Pick<StaticWalletDeps, "db" | "config">, { merchantId, lookup }: { merchantId: string; lookup: WalletLookup }) => getMerchantWalletOrThrow(deps, merchantId, lookup),
  async execute(tx: Tx, deps: Pick<StaticWalletDeps, "now">, found: StaticWallet): Promise<StaticWallet> {
    const wallet = await lockStaticWallet(tx, found.id);
    if (wallet.status === "blocked") return wallet;
    const now = deps.now();
    return tx.staticWallet.update({ where: { id: wallet.id }, data: { status: "blocked", blockedAt: now, updatedAt: now } });
  },
} satisfies UnitOfWork<{ merchantId: string; lookup: WalletLookup }, StaticWallet, StaticWallet>;

/** Takes the wallet's row lock, which orders every writer of its deposits (crediting, blocking, refunds), and reads it. */
export async function lockStaticWallet(tx: Tx, walletId: string): Promise<StaticWallet> {
  await tx.$queryRaw`SELECT id FROM static_wallets WHERE id = ${walletId}::uuid FOR UPDATE`;
  return tx.staticWallet.findUniqueOrThrow({ where: { id: walletId } });
}

/** The wallet's newest recorded deposits (orphaned ones left out), and the sum it holds with no refund bound yet (minor units). */
export async function listWalletDeposits(db: Db, walletId: string, limit: number) {
  const deposits = await db.chainTransfer.findMany({ where: { staticWalletId: walletId, status: { not: "orphaned" } }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  const held = await db.chainTransfer.aggregate({ where: { staticWalletId: walletId, status: "confirmed", isHeld: true, refundPayoutId: null }, _sum: { amountMinor: true } });
  return { deposits, heldMinor: toMinor(held._sum.amountMinor) };
}

function assertWalletsEnabled(deps: { config: Pick<GatewayConfig, "staticWalletsEnabled"> }): void {
  if (!deps.config.staticWalletsEnabled) throw new AppError("wallet.disabled");
}
