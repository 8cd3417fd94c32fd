import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { getChainAdapter } from "@/lib/chains/registry";
import { AppError } from "@/lib/errors";

/**
 * Before a real network's first deposit address is handed out, its watcher's cursor is set just
 * below the node's tip, so the watcher reads every block in which a payment to that address can
 * appear, however late its own first pass comes. Once the cursor exists this reads one row.
 * Sandbox chains are read from their genesis and need nothing.
 */
export async function ensureWatchCursor(deps: { db: Db; config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints"> }, network: string, now: Date): Promise<void> {
  if (await deps.db.chainCursor.findUnique({ where: { network }, select: { network: true } })) return;
  const adapter = getChainAdapter(deps.db, deps.config, network);
  if (!adapter || adapter.source !== "rpc") return;
  const tip = await adapter.getTip().catch((error: unknown) => {
    throw new AppError("invoice.address_failed", "The network's node cannot be reached; retry with backoff.", { cause: error });
  });
  await deps.db.chainCursor.createMany({ data: [{ network, height: Math.max(-1, tip.height - 1), blockHash: "", updatedAt: now }], skipDuplicates: true });
}
