import { randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";

export interface PlannedOutgoingTransfer {
  kind: string;
  /** Unique per purpose and attempt: planning the same one twice records it once. */
  reference: string;
  network: string;
  currency: string;
  fromAddress: string;
  fromIndex: number;
  toAddress: string;
  changeAddress?: string;
  memo?: string;
  /** In the asset's on-chain minor units. */
  amountMinor: bigint;
  coveredMinor: bigint;
}

/** Records a transfer to send (status planned); returns 1 when new, 0 when its reference was planned already. */
export async function planOutgoingTransfer(db: Db | Tx, transfer: PlannedOutgoingTransfer, now: Date): Promise<number> {
  const { count } = await db.outgoingTransfer.createMany({
    data: [
      {
        id: randomUUID(),
        kind: transfer.kind,
        reference: transfer.reference,
        network: transfer.network,
        currency: transfer.currency,
        fromAddress: transfer.fromAddress,
        fromIndex: transfer.fromIndex,
        toAddress: transfer.toAddress,
        changeAddress: transfer.changeAddress ?? null,
        memo: transfer.memo ?? null,
        amountMinor: transfer.amountMinor.toString(),
        coveredMinor: transfer.coveredMinor.toString(),
        createdAt: now,
        updatedAt: now,
      },
    ],
    skipDuplicates: true,
  });
  return count;
}
