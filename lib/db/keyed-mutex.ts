/** Runs `task` after every earlier task of the same key has finished; tasks of other keys run freely. */
export type KeyedMutex = <T>(key: string, task: () => Promise<T>) => Promise<T>;

/**
 * An in-process async mutex per key. Each key keeps only the promise of its last task, and the
 * entry is dropped when that task ends, so idle keys cost nothing. A failed task releases the key.
 */
export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<void>>();
  return async function runExclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    tails.set(key, tail);
    await previous;
    try {
      return await task();
    } finally {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
