import { afterAll, beforeAll } from "vitest";
import { resetRealChains } from "@/lib/chains/real-chains";
import { startAnvil, type Anvil } from "./anvil";

/**
 * One anvil for the test file that calls this: started before its tests and stopped after, the
 * verified real nodes forgotten on both sides (the file points its network at its own node).
 * Returns the running node (read it inside tests, once it has started).
 */
export function useAnvilPerFile(): () => Anvil {
  let anvil: Anvil | undefined;
  beforeAll(async () => {
    anvil = await startAnvil();
    resetRealChains();
  }, 120_000);
  afterAll(async () => {
    resetRealChains();
    await anvil?.stop();
  });
  return () => anvil!;
}
