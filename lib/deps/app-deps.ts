import type { Invoice } from "@/generated/prisma/client";
import { toPayment, type PaymentObject } from "@/lib/api/serialize/payment";
import type { GatewayConfig } from "@/lib/config/env";
import { withoutWalletSeed, type SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { createRateProviderFromConfig, type RateProvider } from "@/lib/rates";
import type { SendOptions } from "@/lib/webhooks/send-request";

/**
 * The collaborators every unit of work may use, whichever entry point runs it (an API operation,
 * a cabinet action, a job, the CLI): passed in, so tests build their own.
 */
export interface AppDeps {
  db: Db;
  config: GatewayConfig;
  secretBox: SecretBox;
  rates: RateProvider;
  /** How webhooks and test webhooks reach merchant URLs. */
  sendOptions: SendOptions;
  /** An invoice as POST /v1/payment answers it: what background work records for integrators. */
  presentInvoice(invoice: Invoice): Promise<PaymentObject>;
  now(): Date;
}

/**
 * Builds the collaborators of a configuration. Without a worker (GATEWAY_WORKER=off) the secret box
 * is one that refuses the wallet seed: keys live only where signing happens.
 */
export function createAppDeps(config: GatewayConfig, db: Db, secretBox: SecretBox): AppDeps {
  return {
    db,
    config,
    secretBox: config.worker === "off" ? withoutWalletSeed(secretBox) : secretBox,
    rates: createRateProviderFromConfig(config.rateProvider),
    sendOptions: { allowLoopback: config.allowLoopbackUrls, timeoutMs: config.webhookTimeoutMs },
    presentInvoice: (invoice) => toPayment(invoice, config.publicBaseUrl),
    now: () => new Date(),
  };
}
