import { afterAll, beforeAll } from "vitest";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import { getChainAdapter } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import { startInProcessChains, type InProcessChains } from "@/lib/chains/testing/in-process-chains";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { getTestSecretBox, makeTestConfig } from "./harness";
import { useOwnDatabasePerFile } from "./own-database";

/**
 * For the test file that calls this: Solana, TON and Tron served in this process (litesvm,
 * @ton/sandbox, the Tron stand-in) through the real-chain registry, as RPC_<NETWORK> would
 * serve them, over a database of the file's own — network-wide passes (payouts, reconciliation)
 * see only the file's own work. Read the parts inside tests, once they have started.
 */
export function useServedInProcessChains(databaseName: string) {
  const database = useOwnDatabasePerFile(databaseName);
  let chains: InProcessChains | undefined;
  let deps: ApiDeps | undefined;
  beforeAll(async () => {
    chains = await startInProcessChains();
    resetRealChains();
    deps = createApiDeps(makeTestConfig({ ...chains.env, DATABASE_URL: database().url }), database().db, getTestSecretBox());
    await verifyChains(deps.config, deps.db);
  }, 120_000);
  afterAll(() => resetRealChains());
  return {
    chains: () => chains!,
    deps: () => deps!,
    /** Lets the emulated chain move on (TON time, Solana slots) and the watcher look, `passes` times. */
    async settle(network: "ton" | "solana", passes = 3): Promise<void> {
      const adapter = getChainAdapter(deps!.db, deps!.config, network)!;
      for (let pass = 0; pass < passes; pass++) {
        if (network === "ton") chains!.ton.chain.advanceTime(10);
        else chains!.solana.chain.advanceSlots(40);
        await scanNetwork(deps!, adapter);
      }
    },
  };
}
