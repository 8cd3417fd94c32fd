import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getConfig, type GatewayConfig } from "@/lib/config/env";
import { createSecretBox, parseMasterKey, withoutWalletSeed, withSeedKey, type SecretBox } from "./secret-box";

const KEY_FILE = "master.key";

/**
 * The master key: from GATEWAY_MASTER_KEY, or else from `<data dir>/master.key`, which is
 * generated (mode 0600) on first use. Losing it makes every stored secret unreadable.
 */
export function loadMasterKey(config: Pick<GatewayConfig, "masterKey" | "dataDir">): Buffer {
  if (config.masterKey) return parseMasterKey(config.masterKey);
  const file = path.join(config.dataDir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process created it first; read theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return parseMasterKey(fs.readFileSync(file, "utf8"));
}

/** The secret box of a configuration: the master key's, with the seed key's for the seed where one is set. */
export function createConfiguredSecretBox(config: Pick<GatewayConfig, "masterKey" | "dataDir" | "seedKey">): SecretBox {
  const masterKey = loadMasterKey(config);
  const box = createSecretBox(masterKey);
  if (!config.seedKey) return box;
  const seedKey = parseMasterKey(config.seedKey, "GATEWAY_SEED_KEY");
  // The same key would hand the seed to every holder of the master key: the point of a second one is lost.
  if (seedKey.equals(masterKey)) throw new Error("GATEWAY_SEED_KEY must differ from the master key: give the worker a key of its own");
  return withSeedKey(box, seedKey);
}

const globalForKey = globalThis as unknown as { gatewaySecretBox?: SecretBox; gatewayRefusesWalletSeed?: boolean };

/**
 * The process-wide secret box under the configured master key, sealing the wallet seed under
 * GATEWAY_SEED_KEY where one is set. In a process that declared itself web-only
 * (refuseWalletSeedInThisProcess) it is a box that cannot open the wallet seed.
 */
export function getSecretBox(): SecretBox {
  globalForKey.gatewaySecretBox ??= createConfiguredSecretBox(getConfig());
  return globalForKey.gatewayRefusesWalletSeed ? withoutWalletSeed(globalForKey.gatewaySecretBox) : globalForKey.gatewaySecretBox;
}

/**
 * Declares this process web-only (GATEWAY_WORKER=off): from now on every secret box it hands out
 * refuses the wallet seed. There is no way back: a process that serves the web never signs.
 */
export function refuseWalletSeedInThisProcess(): void {
  globalForKey.gatewayRefusesWalletSeed = true;
}

export function resetSecretBox(): void {
  globalForKey.gatewaySecretBox = undefined;
}
