import { withTransaction } from "@/lib/db/transaction";
import { proveReturnFromCold, recordReturnFromCold, type ColdReturnDeps, type ColdReturnOutcome, type ColdReturnRequest } from "@/lib/services/cold-storage/return-from-cold";

/**
 * Books coins the operator sent back from the cold address to the hot wallet (`wallets
 * from-cold`): the chain is asked outside any transaction, the booking made in one.
 */
export async function bookReturnFromCold(deps: ColdReturnDeps, request: ColdReturnRequest): Promise<ColdReturnOutcome> {
  const proof = await proveReturnFromCold(deps, request);
  if (proof.kind !== "proven") return proof;
  return withTransaction(deps.db, (tx) => recordReturnFromCold(tx, deps, proof));
}
