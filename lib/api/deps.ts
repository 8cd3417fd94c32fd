import { getConfig, type GatewayConfig } from "@/lib/config/env";
import { getDb, type Db } from "@/lib/db/client";
import { getSecretBox } from "@/lib/crypto/master-key";
import { withoutWalletSeed, type SecretBox } from "@/lib/crypto/secret-box";
import { createRateProviderFromConfig, type RateProvider } from "@/lib/rates";
import type { SendOptions } from "@/lib/webhooks/send-request";
import { parseTrustedProxies, type ClientAddressRules } from "./client-ip";
import { createRateLimiter, type RateLimiter } from "./rate-limit";
import type { Invoice } from "@/generated/prisma/client";
import { toPayment, type PaymentObject } from "./serialize/payment";
import { installInngestNotifier } from "@/lib/jobs/inngest-notifier";

/** Everything an operation may use, passed in so tests can build their own. */
export interface ApiDeps {
  db: Db;
  config: GatewayConfig;
  secretBox: SecretBox;
  rates: RateProvider;
  rateLimiter: RateLimiter;
  clientAddress: ClientAddressRules;
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
export function createApiDeps(config: GatewayConfig, db: Db, secretBox: SecretBox): ApiDeps {
  return {
    db,
    config,
    secretBox: config.worker === "off" ? withoutWalletSeed(secretBox) : secretBox,
    rates: createRateProviderFromConfig(config.rateProvider),
    rateLimiter: createRateLimiter(config.rateLimit),
    clientAddress: { trustedProxies: parseTrustedProxies(config.trustedProxies), platformHeader: config.clientIpHeader },
    sendOptions: { allowLoopback: config.allowLoopbackUrls, timeoutMs: config.webhookTimeoutMs },
    presentInvoice: (invoice) => toPayment(invoice, config.publicBaseUrl),
    now: () => new Date(),
  };
}

const globalForDeps = globalThis as unknown as { gatewayApiDeps?: ApiDeps };

/**
 * The process-wide collaborators, built on first use. With the Inngest driver this is also where
 * the after-commit announcements start: on Vercel no process of ours boots, only these handlers run.
 */
export function getApiDeps(): ApiDeps {
  if (!globalForDeps.gatewayApiDeps) {
    const config = getConfig();
    if (config.worker === "inngest") installInngestNotifier();
    globalForDeps.gatewayApiDeps = createApiDeps(config, getDb(), getSecretBox());
  }
  return globalForDeps.gatewayApiDeps;
}
