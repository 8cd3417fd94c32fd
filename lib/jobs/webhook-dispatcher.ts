import { log } from "@/lib/log";
import { attemptDelivery, claimDueDeliveries, type DeliveryDeps } from "./handlers/deliver-webhooks";

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
  stop(): Promise<void>;
}

/**
 * The built-in worker's webhook dispatcher: keeps up to `concurrency` attempts in flight,
 * claiming more as slots free up. Several processes may run it against one database; the
 * claim's conditional update keeps them from sending the same attempt.
 */
export function startWebhookDispatcher(deps: DeliveryDeps, options: DispatcherOptions): RunningDispatcher {
  const inFlightByMerchant = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let isStopped = false;
  let isPumping = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (delayMs: number) => {
    if (isStopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void pump(), delayMs);
  };

  const pump = async () => {
    if (isPumping || isStopped) return;
    isPumping = true;
    try {
      const free = options.concurrency - inFlight.size;
      if (free <= 0) return;
      const allowances = new Map([...inFlightByMerchant].map(([merchantId, count]) => [merchantId, Math.max(0, options.perMerchantConcurrency - count)]));
      const claimed = await claimDueDeliveries(deps.db, deps.now(), {
        limit: free,
        perMerchantLimit: options.perMerchantConcurrency,
        merchantAllowances: allowances,
        onlyMerchantIds: options.onlyMerchantIds,
      });
      for (const delivery of claimed) {
        inFlightByMerchant.set(delivery.merchantId, (inFlightByMerchant.get(delivery.merchantId) ?? 0) + 1);
        const execution: Promise<void> = attemptDelivery(deps, delivery)
          .then(() => undefined)
          .catch((error) => log.error("webhook attempt failed to run", { deliveryId: delivery.id, error }))
          .finally(() => {
            inFlight.delete(execution);
            const left = (inFlightByMerchant.get(delivery.merchantId) ?? 1) - 1;
            if (left === 0) inFlightByMerchant.delete(delivery.merchantId);
            else inFlightByMerchant.set(delivery.merchantId, left);
            schedule(0); // a slot is free: look for more at once
          });
        inFlight.add(execution);
      }
      // A full claim suggests more is waiting; otherwise idle until the next poll or wake-up.
      schedule(claimed.length > 0 && claimed.length === free ? 0 : options.pollIntervalMs);
    } catch (error) {
      log.error("webhook dispatcher could not claim deliveries", { error });
      schedule(options.pollIntervalMs);
    } finally {
      isPumping = false;
    }
  };

  schedule(0);
  return {
    wake: () => schedule(0),
    async stop() {
      isStopped = true;
      clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
