/**
 * Statements that many concurrent requests each send alone (take one address, insert one row)
 * sent together instead: the first call goes at once, and the calls that arrive while it is in
 * flight go as one batch next. There is no timer, so a lone request waits for nothing; under
 * load one statement and one commit serve dozens of requests, where each used to cost a round
 * trip, a commit and the wake-ups of both processes.
 */
export interface CoalescerOptions<In, Out> {
  /** The most items sent in one batch. */
  maxBatch: number;
  /** Runs the items together; answers one output per item, in their order. */
  runBatch(items: In[]): Promise<Out[]>;
  /**
   * Runs one item alone, when a batch of several failed as a whole: each caller then gets its
   * own outcome, so one bad item does not fail the others. Without it they all get the error.
   */
  runAlone?(item: In): Promise<Out>;
}

interface Waiting<In, Out> {
  item: In;
  resolve(value: Out): void;
  reject(error: unknown): void;
}

/** A function that answers each item as `runBatch` would alone, sending the items that meet in time together. */
export function createCoalescer<In, Out>(options: CoalescerOptions<In, Out>): (item: In) => Promise<Out> {
  const queue: Waiting<In, Out>[] = [];
  let isRunning = false;

  async function drain(): Promise<void> {
    isRunning = true;
    try {
      while (queue.length > 0) await settle(queue.splice(0, options.maxBatch));
    } finally {
      isRunning = false;
    }
  }

  async function settle(batch: Waiting<In, Out>[]): Promise<void> {
    try {
      const outputs = await options.runBatch(batch.map((waiting) => waiting.item));
      if (outputs.length !== batch.length) throw new Error(`a coalesced batch answered ${outputs.length} outputs for ${batch.length} items`);
      batch.forEach((waiting, position) => waiting.resolve(outputs[position]));
    } catch (error) {
      const { runAlone } = options;
      if (batch.length === 1 || !runAlone) {
        batch.forEach((waiting) => waiting.reject(error));
        return;
      }
      await Promise.all(batch.map((waiting) => runAlone(waiting.item).then(waiting.resolve, waiting.reject)));
    }
  }

  return (item) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!isRunning) void drain();
    });
}

/**
 * One coalescer per key (items of different keys cannot share a statement): made on first use,
 * forgotten when idle, so keys seen once hold nothing.
 */
export function createKeyedCoalescer<In, Out>(keyOf: (item: In) => string, optionsOf: (key: string) => CoalescerOptions<In, Out>): (item: In) => Promise<Out> {
  const coalescers = new Map<string, { run: (item: In) => Promise<Out>; pending: number }>();
  return async (item) => {
    const key = keyOf(item);
    let entry = coalescers.get(key);
    if (!entry) {
      entry = { run: createCoalescer(optionsOf(key)), pending: 0 };
      coalescers.set(key, entry);
    }
    entry.pending++;
    try {
      return await entry.run(item);
    } finally {
      if (--entry.pending === 0) coalescers.delete(key);
    }
  };
}

/**
 * A coalescer (or anything else) made once per owner — a database client, key material — on
 * first use, and dropped with the owner: requests meet only if they share what runs them.
 */
export function onePerOwner<Owner extends object, Made>(make: (owner: Owner) => Made): (owner: Owner) => Made {
  const made = new WeakMap<Owner, Made>();
  return (owner) => {
    let found = made.get(owner);
    if (!found) made.set(owner, (found = make(owner)));
    return found;
  };
}
