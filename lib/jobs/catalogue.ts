import type { ApiDeps } from "@/lib/api/deps";
import { purgeIdempotencyRecords } from "@/lib/api/idempotency";
import { matureDueLots } from "@/lib/services/invoices/evaluate-invoice";
import { deliverDueWebhooks, type DeliveryDeps } from "./handlers/deliver-webhooks";
import { expireDueInvoices, scanAllNetworks } from "./handlers/scan-chain";
import { notifyDeliveriesRecorded } from "./notify";
import { getRealChainState, verifyRealChains } from "@/lib/chains/real-chains";
import { getChainSender } from "@/lib/chains/registry";
import { listNetworks, type NetworkId } from "@/lib/catalogue";
import { sweepNetwork } from "@/lib/services/sweeps/sweep-deposits";
import { log } from "@/lib/log";
import { processPendingBatches } from "./handlers/process-batches";
import { sendPendingEmails } from "./handlers/send-emails";

/** The collaborators every job handler receives. */
export type JobDeps = Pick<ApiDeps, "db" | "secretBox" | "config" | "sendOptions" | "rates" | "now">;

export interface PeriodicJob {
  /** Dotted name, also the Inngest function id (dots become dashes). */
  name: string;
  /** How often the built-in worker runs it. */
  everySeconds: number;
  /** The same cadence for Inngest. */
  cron: string;
  /** Idempotent over durable state: a second run, or a run after a crash, does no harm. */
  run(deps: JobDeps): Promise<unknown>;
}

export function toDeliveryDeps(deps: JobDeps): DeliveryDeps {
  return { db: deps.db, secretBox: deps.secretBox, now: deps.now, sendOptions: deps.sendOptions };
}

/**
 * Every periodic job of the product. Both drivers run exactly these: the built-in worker
 * (lib/jobs/worker.ts) and the Inngest functions (inngest/functions).
 */
export const PERIODIC_JOBS: readonly PeriodicJob[] = [
  {
    name: "webhook.deliver",
    everySeconds: 1,
    cron: "* * * * *",
    run: (deps) => deliverDueWebhooks(toDeliveryDeps(deps)),
  },
  {
    name: "chain.scan",
    everySeconds: 2,
    cron: "* * * * *",
    run: async (deps) => {
      const result = await scanAllNetworks(deps);
      notifyDeliveriesRecorded(result.deliveryIds);
      return { networks: result.networks, deliveries: result.deliveryIds.length };
    },
  },
  {
    name: "chain.verify",
    everySeconds: 60,
    cron: "* * * * *",
    // Nodes that were unreachable (or not checked yet in this process) are asked again.
    run: async (deps) => {
      const unchecked = Object.keys(deps.config.rpcEndpoints).some((network) => getRealChainState(network)?.kind !== "ready");
      if (unchecked) await verifyRealChains(deps.config, deps.db);
      return { checked: unchecked };
    },
  },
  {
    name: "chain.sweep",
    everySeconds: 30,
    cron: "* * * * *",
    run: async (deps) => {
      let planned = 0;
      for (const network of listNetworks()) {
        const sender = getChainSender(deps.db, deps.config, network.id);
        if (!sender) continue;
        try {
          planned += (await sweepNetwork(deps, network.id as NetworkId, sender)).planned;
        } catch (error) {
          log.warn("sweep pass failed; the next pass retries", { network: network.id, error });
        }
      }
      return { planned };
    },
  },
  {
    name: "invoice.expire",
    everySeconds: 5,
    cron: "* * * * *",
    run: async (deps) => {
      const result = await expireDueInvoices(deps);
      notifyDeliveriesRecorded(result.deliveryIds);
      return { expired: result.expired };
    },
  },
  {
    name: "ledger.mature",
    everySeconds: 30,
    cron: "* * * * *",
    run: (deps) => matureDueLots(deps.db, deps.now()),
  },
  {
    name: "batch.process",
    everySeconds: 1,
    cron: "* * * * *",
    run: (deps) => processPendingBatches(deps),
  },
  {
    name: "email.send",
    everySeconds: 5,
    cron: "* * * * *",
    run: (deps) => sendPendingEmails(deps),
  },
  {
    name: "idempotency.purge",
    everySeconds: 600,
    cron: "*/10 * * * *",
    run: (deps) => purgeIdempotencyRecords(deps.db, deps.now()),
  },
];

/** The event that tells Inngest new deliveries were recorded. */
export const WEBHOOK_RECORDED_EVENT = "gateway/webhook.recorded";
/** The event that tells Inngest a batch was accepted. */
export const BATCH_CREATED_EVENT = "gateway/batch.created";
