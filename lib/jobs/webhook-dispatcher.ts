import { log } from "@/lib/log";
import {
  claimDueDeliveries,
  createOutcomeWriter,
  DELIVERY_LEASE_SECONDS,
  releaseUnsentClaims,
  sendClaimedAttempt,
  type ClaimedDelivery,
  type DeliveryDeps,
} from "./handlers/deliver-webhooks";

export interface DispatcherOptions {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Attempts in flight at once for one merchant, so a slow receiver holds only its own slots. */
  perMerchantConcurrency: number;
  /** How often to look for due deliveries when idle. */
  pollIntervalMs: number;
  /** Serve only these merchants (see ClaimOptions.onlyMerchantIds). */
  onlyMerchantIds?: string[];
}

export interface RunningDispatcher {
  /** Looks for due deliveries now (after a commit that recorded some). */
  wake(): void;
  /** Stops claiming, gives back what it claimed but did not send, and waits for the attempts under way. */
  stop(): Promise<void>;
}

/** Time kept between the deadline of an attempt and the end of its lease. */
const LEASE_MARGIN_MS = 5_000;

/**
 * The built-in worker's webhook dispatcher: keeps up to `concurrency` attempts in flight (at most
 * `perMerchantConcurrency` per merchant), claiming more as slots free up. Several processes may
 * run it against one database; the claim's row locks and leases keep them from sending the same
 * attempt.
 *
 * It claims ahead: as many attempts again as it may send wait, claimed, for a slot, so a slot
 * that frees up is refilled at once instead of after a claim's round trip to the database. A
 * claimed attempt is sent only while it can finish well within its lease; one that waited longer
 * (every slot of its merchant held by a slow receiver) is given back. One claim runs at a time,
 * and outcomes are written in groups (createOutcomeWriter), so the number of statements grows
 * with the batches, not with the deliveries.
 */
export function startWebhookDispatcher(deps: DeliveryDeps, options: DispatcherOptions): RunningDispatcher {
  const writeOutcome = createOutcomeWriter(deps.db);
  const longestWaitMs = DELIVERY_LEASE_SECONDS * 1000 - deps.sendOptions.timeoutMs - LEASE_MARGIN_MS;
  // A deadline too long for the lease leaves no time to wait in: claim only what can start now.
  const heldPerSlot = longestWaitMs > 0 ? 2 : 1;
  const maxHeld = options.concurrency * heldPerSlot;
  const maxHeldPerMerchant = options.perMerchantConcurrency * heldPerSlot;
  const smallestClaim = heldPerSlot > 1 ? Math.max(1, Math.floor(options.concurrency / 4)) : 1;

  /** Attempts whose request is under way: what `concurrency` and `perMerchantConcurrency` limit. */
  let sending = 0;
  const sendingByMerchant = new Map<string, number>();
  /** Claimed attempts not sent yet, oldest claim first. */
  const waiting: { delivery: ClaimedDelivery; claimedAt: number }[] = [];
  /** Leases held per merchant: sending and waiting. */
  const heldByMerchant = new Map<string, number>();
  /** Database work still under way: attempts (until their outcome is written) and give-backs. */
  const inFlight = new Set<Promise<void>>();
  let isStopped = false;
  let claiming: Promise<void> | undefined;
  let isClaimWanted = false;
  let pollTimer: NodeJS.Timeout | undefined;

  const adjust = (counts: Map<string, number>, merchantId: string, by: number) => {
    const count = (counts.get(merchantId) ?? 0) + by;
    if (count === 0) counts.delete(merchantId);
    else counts.set(merchantId, count);
  };

  const send = (delivery: ClaimedDelivery) => {
    sending++;
    adjust(sendingByMerchant, delivery.merchantId, 1);
    const attempt = sendClaimedAttempt(deps, delivery)
      .then((result) => {
        // The receiver is done: its slot serves the next attempt while the outcome is written.
        // The row stays leased until then, so no claim takes this attempt again meanwhile.
        sending--;
        adjust(sendingByMerchant, delivery.merchantId, -1);
        adjust(heldByMerchant, delivery.merchantId, -1);
        sendWaiting();
        claimMore();
        return writeOutcome({ delivery, result, finishedAt: deps.now() });
      })
      .catch((error) => log.error("webhook attempt outcome was not recorded", { deliveryId: delivery.id, error }));
    track(attempt);
  };

  /** Starts waiting attempts while slots are free, and gives back those that waited too long. */
  const sendWaiting = () => {
    if (isStopped) return;
    const now = deps.now().getTime();
    const overdue: ClaimedDelivery[] = [];
    for (let index = 0; index < waiting.length && sending < options.concurrency; ) {
      const { delivery, claimedAt } = waiting[index];
      if (now - claimedAt > longestWaitMs) {
        waiting.splice(index, 1);
        adjust(heldByMerchant, delivery.merchantId, -1);
        overdue.push(delivery);
      } else if ((sendingByMerchant.get(delivery.merchantId) ?? 0) < options.perMerchantConcurrency) {
        waiting.splice(index, 1);
        send(delivery);
      } else {
        index++;
      }
    }
    if (overdue.length > 0) track(giveBack(overdue));
  };

  const giveBack = (unsent: ClaimedDelivery[]) =>
    releaseUnsentClaims(deps.db, unsent, deps.now())
      .then(() => undefined)
      .catch((error) => log.error("webhook dispatcher could not give back unsent attempts; their leases will expire", { error }));

  const track = (work: Promise<void>) => {
    const tracked = work.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  /** Room for claims. While every slot is busy, a small room waits to grow, so each claim takes a batch. */
  const roomToClaim = () => {
    const room = maxHeld - sending - waiting.length;
    return room >= smallestClaim || sending < options.concurrency ? room : 0;
  };

  const claimMore = () => {
    if (isStopped) return;
    if (claiming) {
      isClaimWanted = true;
      return;
    }
    isClaimWanted = false;
    if (roomToClaim() <= 0) {
      // The next attempt to finish claims again; the poll stays armed all the same.
      pollTimer ??= setTimeout(poll, options.pollIntervalMs);
      return;
    }
    clearTimeout(pollTimer);
    pollTimer = undefined;
    claiming = claimWhileThereIsRoom().finally(() => {
      claiming = undefined;
      if (isStopped) return;
      // Work that is not due yet, or recorded by another process, is found by the next poll.
      clearTimeout(pollTimer);
      pollTimer = setTimeout(poll, options.pollIntervalMs);
      // A slot freed up between the last claim and now.
      if (isClaimWanted) claimMore();
    });
  };

  const claimWhileThereIsRoom = async () => {
    try {
      do {
        isClaimWanted = false;
        const limit = roomToClaim();
        if (limit <= 0) break;
        const allowances = new Map([...heldByMerchant].map(([merchantId, held]) => [merchantId, Math.max(0, maxHeldPerMerchant - held)]));
        const now = deps.now();
        const claimed = await claimDueDeliveries(deps.db, now, {
          limit,
          perMerchantLimit: maxHeldPerMerchant,
          merchantAllowances: allowances,
          onlyMerchantIds: options.onlyMerchantIds,
        });
        for (const delivery of claimed) {
          waiting.push({ delivery, claimedAt: now.getTime() });
          adjust(heldByMerchant, delivery.merchantId, 1);
        }
        sendWaiting();
      } while (isClaimWanted && !isStopped);
    } catch (error) {
      log.error("webhook dispatcher could not claim deliveries", { error });
    }
  };

  const poll = () => {
    pollTimer = undefined;
    claimMore();
  };

  pollTimer = setTimeout(poll, 0);
  return {
    wake: () => claimMore(),
    async stop() {
      isStopped = true;
      clearTimeout(pollTimer);
      await claiming;
      // Unsent attempts go back at once, so another worker need not wait for their leases.
      const unsent = waiting.splice(0).map((entry) => entry.delivery);
      if (unsent.length > 0) track(giveBack(unsent));
      await Promise.allSettled([...inFlight]);
    },
  };
}
