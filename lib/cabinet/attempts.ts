import type { AppDeps } from "@/lib/deps/app-deps";
import { runUnit, type UnitOfWork } from "@/lib/deps/unit-of-work";
import { beginAttempt, isRefused, type AdmittedAttempt, type Attempt, type Refused } from "@/lib/services/cabinet/sign-in";

/** Runs a unit that may refuse: what it recorded of the refusal commits, then the refusal is thrown. */
export async function runOrRefuse<Args, Plan, Result>(deps: AppDeps, unit: UnitOfWork<Args, Plan, Result | Refused>, args: Args): Promise<Result> {
  const result = await runUnit(deps, unit, args);
  if (isRefused(result)) throw result.refusal;
  return result;
}

/**
 * Runs an attempt (a password, a code) in two transactions: the attempt is counted and committed
 * first (or refused while locked), then `settle` checks it and writes its outcome — a failure
 * recorded, or the work done and the attempt given back — so a wrong answer stays counted.
 */
export async function runAttempt<Args, Plan, Result>(
  deps: AppDeps,
  attempt: Attempt,
  settle: UnitOfWork<Args & AdmittedAttempt, Plan, Result | Refused>,
  args: Args,
): Promise<Result> {
  const taken = await runOrRefuse(deps, beginAttempt, attempt);
  return runOrRefuse(deps, settle, { ...args, attempt, taken });
}
