import type { AppDeps } from "@/lib/deps/app-deps";
import { purgeIdempotencyRecords } from "@/lib/services/idempotency/idempotency-records";
import { purgeExpiredEvents } from "@/lib/services/events/purge-expired-events";
import { matureDueLots } from "@/lib/jobs/handlers/mature-lots";
import { deliverDueWebhooks, reapAbandonedLastAttempts, type DeliveryDeps } from "./handlers/deliver-webhooks";
import { scanAllNetworks } from "@/lib/jobs/handlers/scan-networks";
import { expireDueInvoices } from "@/lib/jobs/handlers/expire-invoices";
import { getRealChainState } from "@/lib/chains/real-chains";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { getChainSender } from "@/lib/chains/registry";
import { fillAddressPools } from "@/lib/chains/address-pool";
import { listNetworks, type NetworkId } from "@/lib/catalogue";
import { sweepNetwork } from "./handlers/sweep-deposits";
import { sendAllPayouts } from "./handlers/send-payouts";
import { expireAndReapPayoutLinks } from "./handlers/expire-payout-links";
import { log } from "@/lib/log";
import { auditLedger, isCleanAudit } from "@/lib/ledger/audit";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "./handlers/reconcile-with-chains";
import { moveExcessToCold } from "./handlers/move-to-cold";
import { processPendingBatches } from "./handlers/process-batches";
import { approveWaitedPayouts } from "./handlers/approve-waited-payouts";
import { sendPendingEmails } from "./handlers/send-emails";
import { expireUnenrolledUsers } from "./handlers/expire-enrolments";
import { sendCabinetAlerts } from "./handlers/send-cabinet-alerts";

/** The collaborators every job handler receives: those of every unit of work (the API's are a superset). */
export type JobDeps = AppDeps;

export interface PeriodicJob {
  /** Dotted name, also the Inngest function id (dots become dashes). */
  name: string;
  /** How often the built-in worker runs it. */
  everySeconds: number;
  /** The same cadence for Inngest. */
  cron: string;
  /** Idempotent over durable state: a second run, or a run after a crash, does no harm. */
  run(deps: JobDeps): Promise<unknown>;
  /** Whether the built-in worker also runs it as soon as it starts, not only after the first interval. */
  runsAtStart?: boolean;
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
    name: "webhook.reap",
    everySeconds: 60,
    cron: "* * * * *",
    run: async (deps) => ({ dead: await reapAbandonedLastAttempts(deps.db, deps.now()) }),
  },
  {
    name: "chain.scan",
    everySeconds: 2,
    cron: "* * * * *",
    run: (deps) => scanAllNetworks(deps),
  },
  {
    name: "chain.verify",
    everySeconds: 60,
    cron: "* * * * *",
    // Nodes that were unreachable (or not checked yet in this process) are asked again.
    run: async (deps) => {
      const unchecked = Object.keys(deps.config.rpcEndpoints).some((network) => getRealChainState(network)?.kind !== "ready");
      if (unchecked) await verifyChains(deps.config, deps.db);
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
    name: "payout.send",
    everySeconds: 2,
    cron: "* * * * *",
    run: (deps) => sendAllPayouts(deps),
  },
  {
    name: "payout.approve-waited",
    everySeconds: 30,
    cron: "* * * * *",
    run: (deps) => approveWaitedPayouts(deps),
  },
  {
    name: "payoutlink.expire",
    everySeconds: 60,
    cron: "* * * * *",
    run: (deps) => expireAndReapPayoutLinks(deps),
  },
  {
    name: "address-pool.fill",
    everySeconds: 5,
    cron: "* * * * *",
    runsAtStart: true,
    // Keeps deposit addresses and their QR codes ready: every Solana and TON network a chain serves
    // (web-only processes have no other source for those), and the other networks in use. A pool
    // that runs dry sends invoice creation back to deriving inline where the seed may be opened,
    // and answers invoice.address_failed for Solana and TON elsewhere.
    run: async (deps) => ({ fills: await fillAddressPools(deps) }),
  },
  {
    name: "invoice.expire",
    everySeconds: 5,
    cron: "* * * * *",
    run: (deps) => expireDueInvoices(deps),
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
    name: "ledger.audit",
    everySeconds: 300,
    cron: "*/5 * * * *",
    // Drift is logged as an error for the operator; the books are never changed by the audit.
    run: async (deps) => {
      const audit = await auditLedger(deps.db);
      const isClean = isCleanAudit(audit);
      if (!isClean) log.error("ledger audit found drift", { audit: JSON.parse(JSON.stringify(audit, (_key, value) => (typeof value === "bigint" ? value.toString() : value))) });
      return { clean: isClean };
    },
  },
  {
    name: "ledger.reconcile",
    everySeconds: 900,
    cron: "*/15 * * * *",
    // The books against the chains: what every controlled address holds, and each recent payout's
    // transaction. Drift is logged and kept for /metrics and `wallets status`; the books never change.
    run: async (deps) => {
      const rows = await reconcileWithChains(deps, { timeoutMs: 10_000, payoutDays: 7, now: deps.now() });
      return { assets: rows.length, drift: rows.filter(hasDrift).length };
    },
  },
  {
    name: "wallet.to-cold",
    everySeconds: 60,
    cron: "* * * * *",
    // Hot wallets above their operator-set maximum send the excess to the cold address, one
    // transfer per asset at a time; without HOT_WALLET_MAX_* settings there is nothing to do.
    run: async (deps) => {
      if (deps.config.hotWalletLimits.length === 0) return { checked: 0, planned: 0 };
      const checks = await moveExcessToCold(deps, { timeoutMs: 10_000 });
      return { checked: checks.length, planned: checks.filter((check) => check.isPlanned).length, over: checks.filter((check) => check.excess > 0n).length };
    },
  },
  {
    name: "idempotency.purge",
    everySeconds: 600,
    cron: "*/10 * * * *",
    run: (deps) => purgeIdempotencyRecords(deps.db, deps.now()),
  },
  {
    name: "event.purge",
    everySeconds: 600,
    cron: "*/10 * * * *",
    // The event log keeps 30 days; each run deletes a bounded number of older events.
    run: async (deps) => ({ deleted: await purgeExpiredEvents(deps.db, deps.now()) }),
  },
  {
    name: "cabinet.expire-enrolment",
    everySeconds: 3600,
    cron: "0 * * * *",
    // Cabinet users who never set up an authenticator app within 7 days are refused at sign-in
    // already; this deletes them, freeing their addresses for a new invitation.
    run: async (deps) => ({ deleted: await expireUnenrolledUsers(deps) }),
  },
  {
    name: "cabinet.alert",
    everySeconds: 60,
    cron: "* * * * *",
    // Each alert once per store and subject, to the members who chose its kind.
    run: (deps) => sendCabinetAlerts(deps),
  },
];
