import { getConfig, type GatewayConfig } from "@/lib/config/env";
import { getDb, type Db } from "@/lib/db/client";
import { getSecretBox } from "@/lib/crypto/master-key";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { createAppDeps, type AppDeps } from "@/lib/deps/app-deps";
import { installInngestNotifier } from "@/lib/jobs/inngest/notifier";
import { parseTrustedProxies, type ClientAddressRules } from "./client-ip";
import { createRateLimiter, type RateLimiter } from "./rate-limit";

/** What an operation may use: the collaborators of every unit of work, and the API's own gatekeepers. */
export interface ApiDeps extends AppDeps {
  rateLimiter: RateLimiter;
  clientAddress: ClientAddressRules;
}

/** The collaborators of a configuration (createAppDeps) with the API's rate limiter and client-address rules. */
export function createApiDeps(config: GatewayConfig, db: Db, secretBox: SecretBox): ApiDeps {
  return {
    ...createAppDeps(config, db, secretBox),
    rateLimiter: createRateLimiter(config.rateLimit),
    clientAddress: { trustedProxies: parseTrustedProxies(config.trustedProxies), platformHeader: config.clientIpHeader },
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
