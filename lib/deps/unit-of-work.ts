import type { Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import type { AppDeps } from "./app-deps";

/**
 * What work inside a transaction may use: every collaborator but the connection pool and the
 * rates. Reads of the network (rates, nodes, screening) and of other connections belong in
 * `prepare`, before the transaction opens, so that a slow node never holds a row lock.
 */
export type TxDeps = Omit<AppDeps, "db" | "rates">;

/**
 * One unit of work of a service: checks and network reads outside any transaction (`prepare`),
 * then the writes in one transaction (`execute`), which its entry point opens. Services define
 * units; only entry points run them (runUnit): dispatch, the cabinet's action runner, job
 * handlers and the CLI.
 */
export interface UnitOfWork<Args, Plan, Result> {
  /** Outside any transaction: what may be read or refused before anything is locked. */
  prepare(deps: AppDeps, args: Args): Promise<Plan>;
  /** The in-process turn its transaction waits for (see TransactionOptions.turn), if any. */
  turnOf?(plan: Plan): string | undefined;
  /** The writes, in the transaction the entry point opened. */
  execute(tx: Tx, deps: TxDeps, plan: Plan): Promise<Result>;
}

/** A unit with nothing to prepare: its arguments are its plan. */
export function unitOf<Args, Result>(execute: (tx: Tx, deps: TxDeps, args: Args) => Promise<Result>, turnOf?: (args: Args) => string | undefined): UnitOfWork<Args, Args, Result> {
  return { prepare: async (_deps, args) => args, execute, turnOf };
}

/** The collaborators of AppDeps that work inside a transaction may use. */
export function txDepsOf(deps: AppDeps): TxDeps {
  const { db: _db, rates: _rates, ...inside } = deps;
  return inside;
}

/**
 * Runs a unit of work for an entry point: prepares it, opens its transaction (in its turn), runs
 * it, and runs `finish` last in the same transaction — where the entry point commits its own
 * record with the work (an idempotent answer, an audit row) or not at all.
 */
export async function runUnit<Args, Plan, Result, Finished = Result>(
  deps: AppDeps,
  unit: UnitOfWork<Args, Plan, Result>,
  args: Args,
  finish?: (tx: Tx, result: Result) => Promise<Finished>,
): Promise<Finished> {
  const plan = await unit.prepare(deps, args);
  const inside = txDepsOf(deps);
  return withTransaction(
    deps.db,
    async (tx) => {
      const result = await unit.execute(tx, inside, plan);
      return finish ? finish(tx, result) : (result as unknown as Finished);
    },
    { turn: unit.turnOf?.(plan) },
  );
}
