import type { Db, Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";

/** A unit of work (lib/deps/unit-of-work) as seen by a job: its steps take the job's collaborators. */
interface JobUnit<Deps, Args, Plan, Result> {
  prepare(deps: Deps, args: Args): Promise<Plan>;
  turnOf?(plan: Plan): string | undefined;
  execute(tx: Tx, deps: Deps, plan: Plan): Promise<Result>;
}

/**
 * Runs a unit of work for a job handler, as runUnit does for the other entry points: prepared
 * outside any transaction, then executed in one transaction opened in the unit's turn.
 */
export async function runJobUnit<Deps extends { db: Db }, Args, Plan, Result>(deps: Deps, unit: JobUnit<NoInfer<Deps>, Args, Plan, Result>, args: Args): Promise<Result> {
  const plan = await unit.prepare(deps, args);
  return withTransaction(deps.db, (tx) => unit.execute(tx, deps, plan), { turn: unit.turnOf?.(plan) });
}
