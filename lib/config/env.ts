import path from "node:path";
import { findNetwork, findSettlementAsset, listNetworks } from "@/lib/catalogue";
import { parseAmount } from "@/lib/domain/money/amount";

/** Which runtime runs background jobs: the built-in worker, Inngest, or none in this process. */
export type WorkerDriver = "builtin" | "inngest" | "off";
export type RateProviderName = "snapshot" | "coinbase";

export interface GatewayConfig {
  port: number;
  /** PostgreSQL connection string; undefined means the embedded database. */
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  allowLoopbackUrls: boolean;
  sandbox: boolean;
  /** 32-byte key as hex or base64; undefined means "generated into the data directory". */
  masterKey: string | undefined;
  /** Seals the wallet seed instead of the master key (GATEWAY_SEED_KEY): given only to processes that sign. */
  seedKey: string | undefined;
  rateLimit: { requestsPerSecond: number; burst: number };
  /** CIDRs of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** A header the hosting platform sets to the client's address (GATEWAY_CLIENT_IP_HEADER), lower case. */
  clientIpHeader: string | null;
  rateProvider: RateProviderName;
  worker: WorkerDriver;
  /** How long credited funds mature before payouts may use them, in seconds. */
  maturityHoldSeconds: number;
  /** How long money out stays frozen after a key that can move money is created or a control loosens, in seconds. */
  payoutFreezeSeconds: number;
  /**
   * How long money out that needs a second person's approval waits instead, in a store with
   * nobody else who may approve it, before the service approves it; in seconds.
   */
  payoutWaitingSeconds: number;
  /** Seconds a broadcast transaction may wait unmined before it is replaced with a higher fee (EVM, UTXO); 0 never. */
  replaceAfterSeconds: number;
  /** Whether merchants may keep split rules (GATEWAY_SPLITS=0 turns the split operations off). */
  splitsEnabled: boolean;
  /** Whether payment links are served (GATEWAY_PAYMENT_LINKS=0 turns them off). */
  paymentLinksEnabled: boolean;
  /** Whether payout links are served (GATEWAY_PAYOUT_LINKS=0 turns them off). */
  payoutLinksEnabled: boolean;
  /** Whether static wallets are served (GATEWAY_STATIC_WALLETS=0 turns their operations off; deposits are still credited). */
  staticWalletsEnabled: boolean;
  /** Deadline of one webhook attempt (connect, send, answer), in milliseconds. */
  webhookTimeoutMs: number;
  /** Where e-mail goes: an SMTP server, the local mailbox (kept in the database), or nowhere. */
  email: { mode: "smtp" | "mailbox" | "off"; smtpUrl: string | undefined; from: string };
  /** RPC endpoints per network id, in order of preference, from RPC_<NETWORK> variables (comma-separated). */
  rpcEndpoints: Record<string, string[]>;
  /** Token contracts that replace the catalogue's, per network id and symbol (TOKEN_<NETWORK>_<SYMBOL>): a token deployed on a local test node. */
  tokenContracts: Record<string, Record<string, string>>;
  /** The toncenter API key sent with TON requests (TON_API_KEY). */
  tonApiKey: string | undefined;
  /** Signs cabinet session cookies (NEXTAUTH_SECRET); undefined means "derived from the master key". */
  cabinetSessionSecret: string | undefined;
  /**
   * Prometheus metrics: served at /metrics on the service's port, or on `port` alone when set
   * (METRICS_PORT), on loopback only unless a token is set; `token` (METRICS_TOKEN), when set, is required as a bearer token on either.
   */
  metrics: { port: number | undefined; token: string | undefined };
  /** Where `npm run worker` answers GET /healthz (WORKER_PORT); undefined means no listener. */
  workerPort: number | undefined;
  /**
   * The fewest ready deposit addresses address-pool.fill keeps per pool (GATEWAY_ADDRESS_POOL_SIZE,
   * default 200), refilled once below half: every Solana and TON network a chain serves has one
   * (web-only processes take their addresses from it alone), other networks once they take addresses.
   */
  addressPoolSize: number;
  /** Per asset, the most its hot wallet keeps and where the excess goes (HOT_WALLET_MAX_*, COLD_ADDRESS_*); empty: no limits. */
  hotWalletLimits: HotWalletLimit[];
}

/**
 * An operator-set maximum for one asset's hot wallet: what it holds beyond `maxMinor` (and beyond
 * what payouts already reserved) leaves for `coldAddress`, an address the operator holds elsewhere.
 */
export interface HotWalletLimit {
  network: string;
  currency: string;
  /** In the asset's minor units (the catalogue's decimals). */
  maxMinor: bigint;
  /** As configured; checked against the network's address formats when it is used (the node decides the formats). */
  coldAddress: string;
}

function readFlag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  return value === "1" || value.toLowerCase() === "true";
}

function readPositiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new Error(`${name} must be a positive number, got "${value}"`);
  }
  return parsed;
}

function readNonNegativeInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number of seconds, got "${value}"`);
  return Number(value);
}

function readPoolSize(value: string | undefined): number {
  if (value === undefined || value === "") return 200;
  if (!/^\d+$/.test(value) || Number(value) < 2 || Number(value) > 5000) throw new Error(`GATEWAY_ADDRESS_POOL_SIZE must be a whole number from 2 to 5000, got "${value}"`);
  return Number(value);
}

function readHeaderName(name: string, value: string | undefined): string | null {
  if (value === undefined || value.trim() === "") return null;
  // Headers that carry the address are plain tokens; anything else is a typo worth stopping on.
  if (!/^[A-Za-z0-9-]+$/.test(value.trim())) throw new Error(`${name} must be an HTTP header name, got "${value}"`);
  return value.trim().toLowerCase();
}

/**
 * HOT_WALLET_MAX_<NETWORK>_<ASSET>=<amount in the asset's units> and the cold address it sends
 * the excess to: COLD_ADDRESS_<NETWORK>_<ASSET>, else COLD_ADDRESS_<NETWORK>. A maximum without a
 * cold address, an unknown network or asset, a malformed amount, or a cold address no maximum
 * uses, stops the start: custody settings are not guessed.
 */
function readHotWalletLimits(env: Readonly<Record<string, string | undefined>>): HotWalletLimit[] {
  const limits: HotWalletLimit[] = [];
  const usedColdAddresses = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("HOT_WALLET_MAX_") || value === undefined || value === "") continue;
    const match = /^HOT_WALLET_MAX_([A-Z0-9]+)_([A-Z0-9]+)$/.exec(name);
    const network = match ? findNetwork(match[1].toLowerCase()) : undefined;
    if (!match || !network) throw new Error(`${name}: no such network; write HOT_WALLET_MAX_<NETWORK>_<ASSET>, e.g. HOT_WALLET_MAX_ETHEREUM_USDT (networks: ${listNetworks().map((known) => known.id.toUpperCase()).join(", ")})`);
    const asset = findSettlementAsset(match[2], network.id);
    if (!asset) throw new Error(`${name}: ${match[2]} is not an asset of ${network.id} (see GET /v1/currencies)`);
    // Whole units with at most the asset's decimals, never a float: 0.1 ETH is exactly 10^17 wei.
    const maxMinor = parseAmount(value.trim(), asset.decimals);
    if (maxMinor === null) throw new Error(`${name} must be an amount of ${asset.symbol} with at most ${asset.decimals} decimals, got "${value}"`);
    const perAsset = `COLD_ADDRESS_${match[1]}_${match[2]}`;
    const perNetwork = `COLD_ADDRESS_${match[1]}`;
    const coldVariable = env[perAsset]?.trim() ? perAsset : env[perNetwork]?.trim() ? perNetwork : null;
    if (!coldVariable) throw new Error(`${name} is set but no cold address receives the excess: set ${perNetwork} (or ${perAsset})`);
    usedColdAddresses.add(coldVariable);
    limits.push({ network: network.id, currency: asset.symbol, maxMinor, coldAddress: env[coldVariable]!.trim() });
  }
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith("COLD_ADDRESS_") && value?.trim() && !usedColdAddresses.has(name)) {
      throw new Error(`${name} is set but no HOT_WALLET_MAX_* sends to it (HOT_WALLET_MAX_<NETWORK>_<ASSET>)`);
    }
  }
  return limits.sort((left, right) => left.network.localeCompare(right.network) || left.currency.localeCompare(right.currency));
}

function readChoice<T extends string>(name: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined || value === "") return fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new Error(`${name} must be one of ${choices.join(", ")}, got "${value}"`);
  }
  return value as T;
}

/** Splits RPC_<NETWORK> into its URLs, separated by commas or white space. */
function parseRpcEndpointList(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Parses configuration from an environment; the only place that knows variable names. */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): GatewayConfig {
  const port = readPositiveNumber("PORT", env.PORT, 3000);
  const databaseUrl = env.DATABASE_URL && env.DATABASE_URL.trim() !== "" ? env.DATABASE_URL : undefined;
  const rpcEndpoints: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^RPC_([A-Z0-9_]+)$/.exec(name);
    const urls = match && value ? parseRpcEndpointList(value) : [];
    for (const url of urls) {
      if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new Error(`${name} must list http(s) URLs separated by commas, got "${url.replace(/\/\/[^@/]*@/, "//…@")}"`);
    }
    if (match && urls.length > 0) rpcEndpoints[match[1].toLowerCase()] = urls;
  }
  const tokenContracts: Record<string, Record<string, string>> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^TOKEN_([A-Z0-9]+)_([A-Z0-9]+)$/.exec(name);
    if (match && value) (tokenContracts[match[1].toLowerCase()] ??= {})[match[2]] = value;
  }
  return {
    port,
    databaseUrl,
    dataDir: path.resolve(/*turbopackIgnore: true*/ env.GATEWAY_DATA_DIR || "./.data"),
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ""),
    allowLoopbackUrls: readFlag(env.GATEWAY_ALLOW_LOOPBACK_URLS, false),
    // spec: operator contract §1 — on by default only for npm start with the embedded database,
    // which sets GATEWAY_SANDBOX itself; everywhere else the default is off.
    sandbox: readFlag(env.GATEWAY_SANDBOX, false),
    masterKey: env.GATEWAY_MASTER_KEY || undefined,
    seedKey: env.GATEWAY_SEED_KEY || undefined,
    rateLimit: {
      requestsPerSecond: readPositiveNumber("GATEWAY_RATE_LIMIT_RPS", env.GATEWAY_RATE_LIMIT_RPS, 50),
      burst: readPositiveNumber("GATEWAY_RATE_LIMIT_BURST", env.GATEWAY_RATE_LIMIT_BURST, 100),
    },
    trustedProxies: (env.GATEWAY_TRUSTED_PROXIES || "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
    clientIpHeader: readHeaderName("GATEWAY_CLIENT_IP_HEADER", env.GATEWAY_CLIENT_IP_HEADER),
    rateProvider: readChoice("GATEWAY_RATE_PROVIDER", env.GATEWAY_RATE_PROVIDER, ["snapshot", "coinbase"] as const, "snapshot"),
    // spec: operator contract §3 — 0 in sandbox mode unless configured.
    maturityHoldSeconds: readNonNegativeInteger("GATEWAY_MATURITY_HOLD_SECONDS", env.GATEWAY_MATURITY_HOLD_SECONDS, readFlag(env.GATEWAY_SANDBOX, false) ? 0 : 3600),
    // spec: issue — 24 h by default, 0 in sandbox mode.
    payoutFreezeSeconds: readNonNegativeInteger("GATEWAY_PAYOUT_FREEZE_SECONDS", env.GATEWAY_PAYOUT_FREEZE_SECONDS, readFlag(env.GATEWAY_SANDBOX, false) ? 0 : 86_400),
    payoutWaitingSeconds: readNonNegativeInteger("GATEWAY_PAYOUT_WAITING_SECONDS", env.GATEWAY_PAYOUT_WAITING_SECONDS, 86_400),
    replaceAfterSeconds: readNonNegativeInteger("GATEWAY_REPLACE_AFTER_SECONDS", env.GATEWAY_REPLACE_AFTER_SECONDS, 300),
    splitsEnabled: readFlag(env.GATEWAY_SPLITS, true),
    paymentLinksEnabled: readFlag(env.GATEWAY_PAYMENT_LINKS, true),
    payoutLinksEnabled: readFlag(env.GATEWAY_PAYOUT_LINKS, true),
    staticWalletsEnabled: readFlag(env.GATEWAY_STATIC_WALLETS, true),
    webhookTimeoutMs: readPositiveNumber("GATEWAY_WEBHOOK_TIMEOUT_MS", env.GATEWAY_WEBHOOK_TIMEOUT_MS, 10_000),
    worker: readChoice("GATEWAY_WORKER", env.GATEWAY_WORKER, ["builtin", "inngest", "off"] as const, "builtin"),
    rpcEndpoints,
    tokenContracts,
    tonApiKey: env.TON_API_KEY || undefined,
    cabinetSessionSecret: env.NEXTAUTH_SECRET || undefined,
    metrics: {
      port: env.METRICS_PORT ? readPositiveNumber("METRICS_PORT", env.METRICS_PORT, 0) : undefined,
      token: env.METRICS_TOKEN || undefined,
    },
    workerPort: env.WORKER_PORT ? readPositiveNumber("WORKER_PORT", env.WORKER_PORT, 0) : undefined,
    hotWalletLimits: readHotWalletLimits(env),
    addressPoolSize: readPoolSize(env.GATEWAY_ADDRESS_POOL_SIZE),
    email: {
      // spec: issue — with the embedded default (or sandbox) and no SMTP, messages are kept locally.
      mode: env.SMTP_URL ? "smtp" : readFlag(env.GATEWAY_SANDBOX, false) || readFlag(env.GATEWAY_EMBEDDED, false) ? "mailbox" : "off",
      smtpUrl: env.SMTP_URL || undefined,
      from: env.MAIL_FROM || "Gateway <no-reply@gateway.local>",
    },
  };
}

/**
 * next-auth (the cabinet's sessions) reads its own variables: where its routes are served and the
 * signing secret. Both follow from the configuration unless the operator set them.
 */
export function exportCabinetAuthEnv(config: Pick<GatewayConfig, "publicBaseUrl">, secret: string): void {
  process.env.NEXTAUTH_URL ||= `${config.publicBaseUrl}/api/auth`;
  process.env.NEXTAUTH_SECRET ||= secret;
}

let cached: GatewayConfig | undefined;

/** The process-wide configuration, parsed once. */
export function getConfig(): GatewayConfig {
  cached ??= loadConfig();
  return cached;
}

/** Forgets the parsed configuration so the next getConfig() reads the environment again (tests, CLI). */
export function resetConfig(): void {
  cached = undefined;
}
