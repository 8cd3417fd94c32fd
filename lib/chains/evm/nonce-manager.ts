import { createKeyedMutex } from "../keyed-mutex";

/**
 * Hands out account nonces so that concurrent sends from one address never reuse or skip one.
 * Each account has an async lock held from reading the nonce until the broadcast settles; the
 * nonce is max(the node's pending count, last one used here + 1), because a node behind a load
 * balancer may not count our newest transaction yet.
 */
export interface NonceManager {
  /**
   * Runs `use` with the next nonce of an account while holding that account's lock. `account`
   * names the nonce space (network, chain id and address: one EVM key has a nonce per chain). The nonce
   * counts as used only if `use` resolves; if it throws, nothing was broadcast and it is free again.
   */
  withNextNonce<T>(account: string, readPendingNonce: () => Promise<number>, use: (nonce: number) => Promise<T>): Promise<T>;
}

export function createNonceManager(): NonceManager {
  const lastUsed = new Map<string, number>();
  const runExclusive = createKeyedMutex();
  return {
    withNextNonce(account, readPendingNonce, use) {
      // Checksummed and lower-case spellings are the same account.
      const key = account.toLowerCase();
      return runExclusive(key, async () => {
        const pending = await readPendingNonce();
        const last = lastUsed.get(key);
        const nonce = last === undefined ? pending : Math.max(pending, last + 1);
        const result = await use(nonce);
        lastUsed.set(key, nonce);
        return result;
      });
    },
  };
}

/**
 * Senders of one process share this manager by default: the registry may create a sender per
 * job, and two senders with their own locks would hand out the same nonce.
 */
export const SHARED_NONCE_MANAGER: NonceManager = createNonceManager();
