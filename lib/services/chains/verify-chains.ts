import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { verifyRealChains } from "@/lib/chains/real-chains";

/** How long a final invoice's address is still watched for late payments. */
const LATE_PAYMENT_WATCH_MS = 7 * 86_400_000;

/**
 * Identifies the configured real nodes (see verifyRealChains), giving the families that read
 * per-account history (Solana, TON) the deposit addresses still to watch: those of live
 * invoices, and of final ones for a week of late payments.
 */
export async function verifyChains(config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "tokenContracts" | "tonApiKey">, db: Db): Promise<void> {
  await verifyRealChains(config, (network) => listWatchedAddresses(db, network));
}

async function listWatchedAddresses(db: Db, network: string): Promise<string[]> {
  const rows = await db.invoice.findMany({
    where: { network, address: { not: null }, OR: [{ isFinal: false }, { updatedAt: { gt: new Date(Date.now() - LATE_PAYMENT_WATCH_MS) } }] },
    select: { address: true },
  });
  return rows.map((row) => row.address!);
}
