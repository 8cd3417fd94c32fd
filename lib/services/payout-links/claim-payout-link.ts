import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { PayoutLink } from "@/generated/prisma/client";
import { findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { addressChainOf } from "@/lib/chains/registry";
import type { Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { AppError, isAppError } from "@/lib/errors";
import { lockAccounts } from "@/lib/ledger/post";
import { assetKey, payoutLinkHeldJournal, payoutReservedJournal } from "@/lib/ledger/postings";
import { screenDestination } from "@/lib/services/compliance/screening";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { checkAddressOn, sendsMemo } from "@/lib/services/money-out/payout-destination";
import { quoteFee } from "@/lib/services/money-out/payout-terms";
import { balanceTurn } from "@/lib/services/money-out/record-new-payout";
import { writePayout, type PayoutWriterDeps } from "@/lib/services/money-out/write-payout";
import { findPayoutLinkByToken, lockLink, releaseClaim, type PayoutLinkDeps } from "./payout-link-records";
import type { claimSchema } from "@/lib/api/requests/payout-link";

/** A claim call: the link's token and where it is to be paid. */
export interface ClaimRequest {
  token: string;
  input: z.output<typeof claimSchema>;
}

/** The address (and memo) a claim binds the link to, checked before the database. */
export interface ClaimBinding {
  linkId: string;
  address: string;
  memo: string | null;
}

/**
 * spec: POST /v1/claim/{token}, two units its entry point runs in turn. The first address binds
 * the link: funded → claiming (this unit, a transaction of its own); then, after the address is
 * screened and the fee quoted, finishPayoutLinkClaim makes the payout (`order_id`
 * `payoutlink:<link_id>`, the fee from the amount), which takes the link's reserve over, and marks
 * the link claimed. A repeat with the same address answers that payout (a claimed link needs no
 * second unit); another address is `payoutlink.claim_in_progress`.
 */
export const beginPayoutLinkClaim = {
  async prepare(deps: PayoutLinkDeps, { token, input }: ClaimRequest): Promise<ClaimBinding> {
    const found = await findPayoutLinkByToken(deps, token);
    const address = (input.address ?? "").trim();
    if (address === "") throw new AppError("payoutlink.no_address");
    const network = found.network as NetworkId;
    const normalized = checkAddressOn(network, address, addressChainOf(deps.config, network));
    const memo = input.memo === undefined ? null : input.memo;
    if (memo !== null && !sendsMemo(network)) throw new AppError("payout.memo_unsupported", `${network} transfers carry no memo.`);
    if (memo !== null && memo.length > 120) throw new AppError("payout.memo_too_long");
    return { linkId: found.id, address: normalized, memo };
  },
  async execute(tx: Tx, deps: Pick<PayoutLinkDeps, "now">, { linkId, address, memo }: ClaimBinding): Promise<PayoutLink> {
    const link = await lockLink(tx, linkId);
    if (link.status === "claimed" || link.status === "claiming") {
      if (link.claimAddress !== address) throw new AppError("payoutlink.claim_in_progress", "The link is bound to the address it was first claimed with.");
      return link;
    }
    if (link.status === "cancelled") throw new AppError("payoutlink.cancelled");
    if (link.status === "expired" || link.expiresAt <= deps.now()) throw new AppError("payoutlink.expired");
    return tx.payoutLink.update({ where: { id: link.id }, data: { status: "claiming", claimAddress: address, claimMemo: memo, claimingAt: deps.now(), updatedAt: deps.now() } });
  },
} satisfies UnitOfWork<ClaimRequest, ClaimBinding, PayoutLink>;

/**
 * The claim's second unit, for a link its first bound (still `claiming`): the address is checked
 * and screened and the fee quoted, then the payout is made in the balance's turn (finishClaim). A
 * claim that cannot finish (a blocked address, no rate, a fee above the amount) puts the link back
 * to funded, so that the recipient may try another address; claimedLinkOrThrow says why.
 */
export const finishPayoutLinkClaim = {
  async prepare(deps: PayoutLinkDeps, begun: PayoutLink): Promise<{ begun: PayoutLink; fee: bigint }> {
    const network = begun.network as NetworkId;
    try {
      await assertNotGatewayAddress(deps, { network, address: begun.claimAddress! }, "payoutlink.destination_internal");
      await screenDestination(deps, { network, address: begun.claimAddress! });
      return { begun, fee: await quoteFee(deps, { asset: findSettlementAsset(begun.currency, network)! }) };
    } catch (error) {
      // Not bound to an address it cannot be paid to: the recipient may try another.
      if (isAppError(error)) await releaseClaim(deps.db, begun, deps.now());
      throw error;
    }
  },
  turnOf: ({ begun }: { begun: PayoutLink }) => balanceTurn(begun.merchantId, assetKey(begun.currency, begun.network)),
  async execute(tx: Tx, deps: PayoutWriterDeps, { begun, fee }: { begun: PayoutLink; fee: bigint }): Promise<PayoutLink | "below_fee"> {
    const finished = await finishClaim(tx, deps, begun.id, fee);
    if (finished === "below_fee") await releaseClaim(tx, begun, deps.now());
    return finished;
  },
} satisfies UnitOfWork<PayoutLink, { begun: PayoutLink; fee: bigint }, PayoutLink | "below_fee">;

/** The claimed link, or `payout.amount_below_fee` for a claim whose fee outgrew the amount (its address released). */
export function claimedLinkOrThrow(finished: PayoutLink | "below_fee"): PayoutLink {
  if (finished === "below_fee") throw new AppError("payout.amount_below_fee", "The payout fee now exceeds the link's amount; try again later.");
  return finished;
}

/**
 * Inside one transaction, the link locked: the payout `payoutlink:<link_id>` (approved, the fee
 * from the amount), the reserve handed over — `link:<id>:release` and `payout:<id>:reserve`,
 * both under the balance's locks — and the link claimed. A link another call finished answers
 * as it is.
 */
async function finishClaim(tx: Tx, deps: PayoutWriterDeps, linkId: string, fee: bigint): Promise<PayoutLink | "below_fee"> {
  const now = deps.now();
  const link = await lockLink(tx, linkId);
  if (link.status === "claimed") return link;
  // The reaper put it back (a claim that took longer than its timeout): the recipient claims again.
  if (link.status !== "claiming") throw new AppError("payoutlink.claim_in_progress", `The link is ${link.status}; claim again.`);
  const amount = toMinor(link.amountMinor);
  if (amount <= fee) return "below_fee";
  const asset = assetKey(link.currency, link.network);
  const merchant = (bucket: "available" | "payout_held" | "debt" | "maturing") => ({ owner: link.merchantId, asset, bucket });
  await lockAccounts(tx, [merchant("available"), merchant("debt"), merchant("maturing"), merchant("payout_held")], now);
  const payoutId = randomUUID();
  // The link's hold becomes the payout's reserve; the money-out policy decides whether it goes out
  // at once or waits (a freeze, the owner's threshold).
  const written = await writePayout(tx, deps, {
    row: {
      id: payoutId,
      merchantId: link.merchantId,
      orderId: `payoutlink:${link.id}`,
      source: "api",
      currency: link.currency,
      network: link.network,
      address: link.claimAddress!,
      memo: link.claimMemo,
      amountMinor: (amount - fee).toString(),
      feeMinor: fee.toString(),
      debitMinor: amount.toString(),
      requestedAmount: amount.toString(),
      isSubtract: false,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    },
    kind: "link_claim",
    actor: `payoutlink:${link.id}`,
    askedBy: link.createdBy,
    reserve: {
      journals: [
        payoutLinkHeldJournal({ linkId: link.id, merchantId: link.merchantId, asset, amount, step: "release" }),
        payoutReservedJournal({ payoutId, merchantId: link.merchantId, asset, debit: amount }),
      ],
    },
  });
  // The order id is the service's own (refused to merchants): taken only if this claim ran before.
  if (!written) throw new Error(`payout payoutlink:${link.id} exists while the link is claiming`);
  return tx.payoutLink.update({ where: { id: link.id }, data: { status: "claimed", payoutId, updatedAt: now } });
}
