import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { SplitRule } from "@/generated/prisma/client";
import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { unitOf, type UnitOfWork } from "@/lib/deps/unit-of-work";
import { toSplitRuleObject, type SplitRuleObject } from "@/lib/api/serialize/split-rule";
import { findNetwork, normalizeNetworkId, type NetworkId } from "@/lib/catalogue";
import { addressChainOf } from "@/lib/chains/registry";
import { networkAvailability } from "@/lib/chains/network-sources";
import { bpsToPercent, MAX_SPLIT_BPS, percentToBps } from "@/lib/domain/split/shares";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { screenDestination } from "@/lib/services/compliance/screening";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { checkAddressOn } from "@/lib/services/money-out/payout-destination";
import { markControlsLoosened } from "@/lib/services/money-out/payout-freeze";
import type { createSplitRuleSchema } from "@/lib/api/requests/split-rule";

export interface SplitDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "splitsEnabled">;
}

const MAX_NOTE_LENGTH = 255;

export interface NewSplitRule {
  merchantId: string;
  input: z.output<typeof createSplitRuleSchema>;
  actor: string;
}

interface SplitRulePlan {
  merchantId: string;
  percentBps: number;
  note: string;
  recipient: { partnerMerchantId: string } | { address: string; network: NetworkId };
  actor: string;
}

/**
 * spec: POST /v1/split/rule. One recipient — another merchant of this service (an internal,
 * reversible share) or an address on a network (an external share, sent on chain, screened) —
 * and a percentage in 0.01 steps. Under the merchant's row lock, its active rules never add up
 * to more than 100 %, however many are created at once.
 */
export const createSplitRule: UnitOfWork<NewSplitRule, SplitRulePlan, SplitRule> = {
  async prepare(deps, { merchantId, input, actor }) {
    assertSplitsEnabled(deps);
    const address = input.address?.trim() ?? "";
    const partnerId = input.merchant_id?.trim() ?? "";
    if ((address === "") === (partnerId === "")) throw new AppError("split.bad_destination");
    const percentBps = percentToBps(input.percent);
    if (percentBps === null) throw new AppError("split.bad_percent");
    const note = input.note ?? "";
    if (note.length > MAX_NOTE_LENGTH) throw new AppError("split.bad_note");
    const recipient = partnerId !== "" ? await checkPartner(deps, merchantId, partnerId) : await checkExternal(deps, address, input.network);
    return { merchantId, percentBps, note, recipient, actor };
  },
  async execute(tx, deps, { merchantId, percentBps, note, recipient, actor }) {
    const now = deps.now();
    // The merchant's row lock orders rule changes: two creations cannot both see room for themselves.
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchantId}::uuid FOR NO KEY UPDATE`;
    const active = await tx.splitRule.aggregate({ where: { merchantId, active: true }, _sum: { percentBps: true } });
    const total = (active._sum.percentBps ?? 0) + percentBps;
    if (total > MAX_SPLIT_BPS) throw new AppError("split.exceeds_100", `The rules would add up to ${bpsToPercent(total)} percent.`);
    // A share of every payment pointed somewhere new (an outside address, or another store whose
    // own money out this store's limits do not govern): money out waits out a freeze.
    await markControlsLoosened(tx, merchantId, now);
    return tx.splitRule.create({ data: { id: randomUUID(), merchantId, percentBps, note, ...recipient, createdBy: actor, createdAt: now } });
  },
};

async function checkPartner(deps: SplitDeps, merchantId: string, partnerId: string): Promise<{ partnerMerchantId: string }> {
  if (!isUuid(partnerId)) throw new AppError("split.bad_merchant", "merchant_id is not a UUID.");
  if (partnerId.toLowerCase() === merchantId.toLowerCase()) throw new AppError("split.self_destination", "A split cannot go to the merchant itself.");
  const partner = await deps.db.merchant.findUnique({ where: { id: partnerId.toLowerCase() }, select: { id: true } });
  if (!partner) throw new AppError("split.bad_merchant");
  return { partnerMerchantId: partner.id };
}

async function checkExternal(deps: SplitDeps, address: string, networkInput: string | undefined): Promise<{ address: string; network: NetworkId }> {
  if (networkInput === undefined || networkInput.trim() === "") throw new AppError("split.network_required");
  const network = normalizeNetworkId(networkInput);
  if (!findNetwork(network)) throw new AppError("split.network_required", `${networkInput} is not a network of the catalogue.`);
  // A share sent where no chain serves the network would wait for ever.
  if (!networkAvailability(deps.config)(network).payout) throw new AppError("split.network_required", `${network} is not paid out by this service.`);
  const normalized = checkAddressOn(network as NetworkId, address, addressChainOf(deps.config, network as NetworkId));
  const destination = { network: network as NetworkId, address: normalized };
  await assertNotGatewayAddress(deps, destination, "split.self_destination");
  await screenDestination(deps, destination);
  return destination;
}

/** spec: POST /v1/split/rule/list — the active rules, oldest first (designed: `include_deleted` adds the deleted ones). */
export async function listSplitRules(deps: SplitDeps, merchantId: string, input: { include_deleted?: boolean }): Promise<{ items: SplitRuleObject[] }> {
  assertSplitsEnabled(deps);
  const rules = await deps.db.splitRule.findMany({ where: { merchantId, ...(input.include_deleted ? {} : { active: true }) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { items: rules.map(toSplitRuleObject) };
}

/**
 * spec: POST /v1/split/rule/delete — payments settled from now on take no share under it;
 * shares already taken still go out. Deleting a deleted rule answers the same again.
 */
export const deleteSplitRule = unitOf(async (tx, deps, { merchantId, ruleId }: { merchantId: string; ruleId: string }): Promise<{ deleted: true }> => {
  assertSplitsEnabled(deps);
  if (!isUuid(ruleId)) throw new AppError("split.bad_id");
  const rule = await tx.splitRule.findFirst({ where: { id: ruleId.toLowerCase(), merchantId } });
  if (!rule) throw new AppError("split.not_found");
  await tx.splitRule.updateMany({ where: { id: rule.id, active: true }, data: { active: false, deletedAt: deps.now() } });
  return { deleted: true };
});

/** Designed: split config — the refund window partners' shares wait for, in hours (0 to 2160, 90 days). */
export async function getSplitConfig(deps: SplitDeps, merchantId: string): Promise<{ refund_hold_hours: number }> {
  assertSplitsEnabled(deps);
  const merchant = await deps.db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { splitRefundHoldHours: true } });
  return { refund_hold_hours: merchant.splitRefundHoldHours };
}

export const MAX_REFUND_HOLD_HOURS = 2160;

/** Designed: split config set — applies to payments settled from now on. */
export const setSplitConfig = unitOf(async (tx, deps, { merchantId, hours }: { merchantId: string; hours: number }): Promise<{ refund_hold_hours: number }> => {
  assertSplitsEnabled(deps);
  if (!Number.isInteger(hours) || hours < 0 || hours > MAX_REFUND_HOLD_HOURS) throw new AppError("split.bad_hold_hours");
  await tx.merchant.update({ where: { id: merchantId }, data: { splitRefundHoldHours: hours } });
  return { refund_hold_hours: hours };
});

function assertSplitsEnabled(deps: Pick<SplitDeps, "config">): void {
  if (!deps.config.splitsEnabled) throw new AppError("split.disabled");
}
