import { getConfig, type GatewayConfig } from "@/lib/config/env";
import { getDb, type Db } from "@/lib/db/client";
import { getSecretBox } from "@/lib/crypto/master-key";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { CidrRange } from "@/lib/domain/net/ip";
import { createRateProviderFromConfig, type RateProvider } from "@/lib/rates";
import type { SendOptions } from "@/lib/webhooks/send-request";
import { parseTrustedProxies } from "./client-ip";
import { createRateLimiter, type RateLimiter } from "./rate-limit";
import { notifyBatchCreated, notifyDeliveriesRecorded } from "@/lib/jobs/notify";

/** Everything an operation may use, passed in so tests can build their own. */
export interface ApiDeps {
  db: Db;
  config: GatewayConfig;
  secretBox: SecretBox;
  rates: RateProvider;
  rateLimiter: RateLimiter;
  trustedProxies: CidrRange[];
  /** How webhooks and test webhooks reach merchant URLs. */
  sendOptions: SendOptions;
  /** Tells the background driver that deliveries were recorded (after their transaction committed). */
  notifyDeliveries(deliveryIds: string[]): void;
  /** Tells the background driver a batch was accepted (after commit). */
  notifyBatch(batchId: string): void;
  now(): Date;
}

/** Builds the collaborators of a configuration. */
export function createApiDeps(config: GatewayConfig, db: Db, secretBox: SecretBox): ApiDeps {
  return {
    db,
    config,
    secretBox,
    rates: createRateProviderFromConfig(config.rateProvider),
    rateLimiter: createRateLimiter(config.rateLimit),
    trustedProxies: parseTrustedProxies(config.trustedProxies),
    sendOptions: { allowLoopback: config.allowLoopbackUrls, timeoutMs: config.webhookTimeoutMs },
    notifyDeliveries: (deliveryIds) => notifyDeliveriesRecorded(deliveryIds),
    notifyBatch: (batchId) => notifyBatchCreated(batchId),
    now: () => new Date(),
  };
}

const globalForDeps = globalThis as unknown as { gatewayApiDeps?: ApiDeps };

/** The process-wide collaborators, built on first use. */
export function getApiDeps(): ApiDeps {
  globalForDeps.gatewayApiDeps ??= createApiDeps(getConfig(), getDb(), getSecretBox());
  return globalForDeps.gatewayApiDeps;
}
