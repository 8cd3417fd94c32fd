import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import type { ActiveApiKey } from "./api-key-identity";

/** Announced by triggers (migration 20261201000200) when a key, an allow-list or its switch changes. */
export const API_KEY_CHANGES_CHANNEL = "gateway_api_key_changes";

/** Beyond this many keys, the oldest kept is dropped (each entry holds one key's secret). */
const MAX_KEPT_KEYS = 10_000;
/** How long the listener waits for its own probe before deciding notices do not reach it; it probes again later. */
const PROBE_TIMEOUT_MS = 3_000;
/** Triggers announce the merchant whose keys or allow-list changed. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Keeps authenticated keys in memory, so a signed request needs no key lookup. It is used only
 * while this process provably hears every change: a listener on API_KEY_CHANGES_CHANNEL has
 * received a probe sent through another connection (the embedded database's single session
 * cannot deliver one, so there every request reads the key; an unheard probe is tried again later). A notice forgets its merchant's
 * keys; losing the listener forgets everything kept.
 */
export interface ApiKeyCache {
  /** The key for `publicId`, kept or loaded; unknown keys are never kept. */
  find(publicId: string, load: () => Promise<ActiveApiKey | null>): Promise<ActiveApiKey | null>;
  /** Forgets every kept key: after a change made in this process, before its notice arrives. */
  forgetAll(): void;
  /** Whether kept keys are used (the listener hears notices). */
  isActive(): boolean;
  close(): Promise<void>;
}

export interface ApiKeyCacheOptions {
  connectionString: string;
  /** The service's own pool: the probe must travel through a connection other than the listener's. */
  db: Db;
  /** How long to wait for the probe's notice; unheard, the listener tries again later. Default 3 s. */
  probeTimeoutMs?: number;
}

export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyCache {
  const kept = new Map<string, ActiveApiKey>();
  // Every forgetting takes the next number; a lookup that began before a forgetting of its
  // merchant (or of everything) does not keep what it read, which may predate the change.
  let forgettings = 0;
  let everythingForgottenAt = 0;
  const merchantForgottenAt = new Map<string, number>();
  let isHearing = false;
  let isClosed = false;
  let listener: pg.Client | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let failures = 0;
  let isSilenceReported = false;
  const probeTimeoutMs = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;

  const forgetAll = () => {
    everythingForgottenAt = ++forgettings;
    merchantForgottenAt.clear();
    kept.clear();
  };

  const forgetMerchant = (merchantId: string) => {
    if (merchantForgottenAt.size >= MAX_KEPT_KEYS) return forgetAll();
    merchantForgottenAt.set(merchantId, ++forgettings);
    for (const [publicId, key] of kept) if (key.merchantId === merchantId) kept.delete(publicId);
  };

  const isForgottenSince = (startedAt: number, merchantId: string) =>
    everythingForgottenAt > startedAt || (merchantForgottenAt.get(merchantId) ?? 0) > startedAt;

  const stopHearing = (reason: string, error?: unknown) => {
    if (isHearing) log.warn("API key cache off: change notices are not heard", { reason, error });
    isHearing = false;
    forgetAll();
  };

  const scheduleReconnect = () => {
    if (isClosed || reconnectTimer) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)];
    failures++;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void listen();
    }, delay);
    reconnectTimer.unref();
  };

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: options.connectionString, connectionTimeoutMillis: 5_000 });
    const probe = `probe:${randomBytes(12).toString("hex")}`;
    let probeHeard!: () => void;
    const heard = new Promise<void>((resolve) => (probeHeard = resolve));
    client.on("notification", (notice) => {
      if (notice.channel !== API_KEY_CHANGES_CHANNEL) return;
      if (notice.payload === probe) probeHeard();
      else if (notice.payload && UUID.test(notice.payload)) forgetMerchant(notice.payload);
      else if (!notice.payload?.startsWith("probe:")) forgetAll();
    });
    client.on("error", (error) => {
      stopHearing("listener connection failed", error);
      client.end().catch(() => undefined);
    });
    client.on("end", () => {
      if (listener === client) listener = null;
      stopHearing("listener connection ended");
      scheduleReconnect();
    });
    try {
      await client.connect();
      if (isClosed) return void (await client.end());
      listener = client;
      await client.query(`LISTEN ${API_KEY_CHANGES_CHANNEL}`);
      await options.db.$executeRaw`SELECT pg_notify(${API_KEY_CHANGES_CHANNEL}, ${probe})`;
      const isProbeHeard = await Promise.race([heard.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), probeTimeoutMs).unref())]);
      if (!isProbeHeard) {
        // A database slow at start, or one that does not deliver notices between sessions (a pooler in
        // transaction mode): keys are read on every request, and the probe is tried again later.
        if (!isSilenceReported) log.info("API key cache off: change notices between connections are not heard yet; trying again later");
        isSilenceReported = true;
        listener = null;
        client.removeAllListeners("end");
        await client.end().catch(() => undefined);
        scheduleReconnect();
        return;
      }
      failures = 0;
      forgetAll(); // changes made while nobody listened
      isHearing = true;
    } catch (error) {
      if (failures === 0) log.warn("API key cache off: its listener could not start", { error });
      stopHearing("listener could not start", error);
      client.removeAllListeners("end");
      await client.end().catch(() => undefined);
      if (listener === client) listener = null;
      scheduleReconnect();
    }
  }

  void listen();

  return {
    async find(publicId, load) {
      if (!isHearing) return load();
      const found = kept.get(publicId);
      if (found) return found;
      const startedAt = forgettings;
      const key = await load();
      if (key && isHearing && !isForgottenSince(startedAt, key.merchantId)) {
        if (kept.size >= MAX_KEPT_KEYS) kept.delete(kept.keys().next().value!);
        kept.set(publicId, key);
      }
      return key;
    },
    forgetAll,
    isActive: () => isHearing,
    async close() {
      isClosed = true;
      isHearing = false;
      forgetAll();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const client = listener;
      listener = null;
      client?.removeAllListeners("end");
      await client?.end().catch(() => undefined);
    },
  };
}

const globalForCache = globalThis as unknown as { gatewayApiKeyCache?: ApiKeyCache };

/** Starts the process's cache (npm start's web process); requests use it once it hears notices. */
export function startApiKeyCache(options: ApiKeyCacheOptions): ApiKeyCache {
  globalForCache.gatewayApiKeyCache ??= createApiKeyCache(options);
  return globalForCache.gatewayApiKeyCache;
}

export async function stopApiKeyCache(): Promise<void> {
  const cache = globalForCache.gatewayApiKeyCache;
  globalForCache.gatewayApiKeyCache = undefined;
  await cache?.close();
}

/** The key for `publicId` through the process's cache when one runs, else straight from `load`. */
export function findKeptApiKey(publicId: string, load: () => Promise<ActiveApiKey | null>): Promise<ActiveApiKey | null> {
  const cache = globalForCache.gatewayApiKeyCache;
  return cache ? cache.find(publicId, load) : load();
}

/**
 * Called after this process commits a change to a key or an allow-list: its own next request
 * must not wait for the notice (which every other process relies on).
 */
export function forgetKeptApiKeys(): void {
  globalForCache.gatewayApiKeyCache?.forgetAll();
}
