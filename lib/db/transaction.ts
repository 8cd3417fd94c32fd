import { log } from "@/lib/log";
import type { Db, Tx } from "./client";
import { createKeyedMutex } from "./keyed-mutex";

/**
 * How long a transaction may wait for a connection, and run: a burst queues for a connection
 * for up to 10 s rather than failing at Prisma's default 2 s; a transaction running longer than
 * 30 s is rolled back.
 */
const TRANSACTION_LIMITS = { maxWait: 10_000, timeout: 30_000 } as const;

/** What runs once a transaction has committed: wake-ups and notifications, never money. */
type AfterCommitTask = () => void | Promise<void>;

const tasksOf = new WeakMap<Tx, AfterCommitTask[]>();

export type TransactionOptions = Parameters<Db["$transaction"]>[1] & {
  /**
   * A turn to wait for in this process before the transaction opens (one merchant balance):
   * the row lock decides between processes; the turn keeps a burst for one balance from holding
   * every pooled connection while its transactions wait on that lock.
   */
  turn?: string;
};

const turns = createKeyedMutex();

/**
 * The one way to open a transaction, used by entry points only (dispatch, the cabinet's action
 * runner, job handlers, the CLI; see lib/deps/unit-of-work): `work` gets `tx`, and every writer
 * below it may register work to run after the commit with `afterCommit(tx, …)` — the
 * transaction's owner does not hand ids up by hand. After-commit tasks run only if the
 * transaction committed, in order; a failing task is logged and does not undo anything (the rows
 * it points at are the durable record).
 */
export async function withTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const { turn, ...limits } = options;
  if (turn !== undefined) return turns(turn, () => withTransaction(db, work, limits));
  let tasks: AfterCommitTask[] = [];
  const result = await db.$transaction(
    async (tx) => {
      tasks = [];
      tasksOf.set(tx, tasks);
      return work(tx);
    },
    { ...TRANSACTION_LIMITS, ...limits },
  );
  for (const task of tasks) {
    try {
      await task();
    } catch (error) {
      log.warn("after-commit task failed; the durable record stands", { error });
    }
  }
  return result;
}

/**
 * Registers work to run after the transaction `tx` commits. A `tx` not opened by
 * withTransaction is a programming error: the task would silently never run.
 */
export function afterCommit(tx: Tx, task: AfterCommitTask): void {
  const tasks = tasksOf.get(tx);
  if (!tasks) throw new Error("afterCommit needs a transaction opened by withTransaction");
  tasks.push(task);
}
