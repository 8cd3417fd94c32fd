import type { ChainAdapter } from "@/lib/chains/types";

/** Blocks asked for at once: a watcher records at most its confirmation window, but public RPCs rate-limit bursts. */
const REORG_CHECK_CONCURRENCY = 8;

/** A block the service recorded (a scan cursor, or the block of a recorded transfer). */
export interface KnownBlock {
  height: number;
  hash: string;
}

/** Where the recorded blocks left the chain. */
export interface ReorgFinding {
  /** The lowest recorded height whose block is no longer on the chain; rescan from `fromHeight - 1`. */
  fromHeight: number;
  /** Every recorded block that is no longer on the chain, by height; transfers in them are orphaned. */
  orphaned: KnownBlock[];
}

/**
 * Compares recorded blocks with the hashes the chain has now at their heights (`canonical`; null
 * where the chain is no longer that long). Pure. Every record is compared, not only the newest:
 * records from different passes can be from different forks, and a match at a higher height does
 * not vouch for an older record taken before an earlier reorganisation.
 */
export function compareKnownBlocks(knownBlocks: readonly KnownBlock[], canonical: ReadonlyMap<number, string | null>): ReorgFinding | null {
  const orphaned = knownBlocks
    .filter((block) => {
      const hash = canonical.get(block.height);
      if (hash === undefined) throw new Error(`no canonical hash fetched for height ${block.height}`);
      return hash === null || hash.toLowerCase() !== block.hash.toLowerCase();
    })
    .sort((a, b) => a.height - b.height);
  if (orphaned.length === 0) return null;
  return { fromHeight: orphaned[0].height, orphaned };
}

/**
 * Tells from which height recorded blocks no longer match the chain, or null when all still do.
 * Chain failures propagate as the adapter's ChainError (retryable): a partial answer could hide
 * an orphaned block.
 */
export async function findReorgDepth(adapter: Pick<ChainAdapter, "getBlockHash">, knownBlocks: readonly KnownBlock[]): Promise<ReorgFinding | null> {
  const heights = [...new Set(knownBlocks.map((block) => block.height))];
  const canonical = new Map<number, string | null>();
  for (let start = 0; start < heights.length; start += REORG_CHECK_CONCURRENCY) {
    const batch = heights.slice(start, start + REORG_CHECK_CONCURRENCY);
    const hashes = await Promise.all(batch.map((height) => adapter.getBlockHash(height)));
    batch.forEach((height, index) => canonical.set(height, hashes[index]));
  }
  return compareKnownBlocks(knownBlocks, canonical);
}
