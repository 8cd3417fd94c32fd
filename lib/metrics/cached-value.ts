export interface CachedValueOptions {
  /** How long a loaded value is reused, in milliseconds of `now()`. */
  maxAgeMs: number;
  /** How long a read waits for a load before it gives up (the load itself goes on). */
  timeoutMs: number;
  now(): number;
  /** When a load fails or is late: answer the last value (true) or nothing (false). */
  shouldKeepStale: boolean;
  onError?(error: unknown): void;
}

export interface CachedValue<T> {
  /** The value, loaded at most once per `maxAgeMs`; undefined when it is unknown. */
  read(): Promise<T | undefined>;
}

/**
 * A value read by scrapes: loaded at most once per `maxAgeMs`, however many scrapes ask (several
 * Prometheus replicas), and never awaited longer than `timeoutMs`, so a dead node or a slow
 * database cannot hang a scrape. Concurrent reads share one load; a late load is not started again
 * while it is still running, so a dead node does not collect hanging requests.
 */
export function createCachedValue<T>(load: () => Promise<T>, options: CachedValueOptions): CachedValue<T> {
  let cached: { value: T; loadedAt: number } | undefined;
  let loading: Promise<boolean> | undefined;
  return {
    async read() {
      if (cached && options.now() - cached.loadedAt < options.maxAgeMs) return cached.value;
      if (!loading) {
        const started = load().then(
          (value) => {
            cached = { value, loadedAt: options.now() };
            return true;
          },
          (error: unknown) => {
            options.onError?.(error);
            return false;
          },
        );
        loading = started.finally(() => {
          loading = undefined;
        });
      }
      const isLoaded = await settleWithin(loading, options.timeoutMs);
      if (isLoaded === true) return cached?.value;
      return options.shouldKeepStale ? cached?.value : undefined;
    },
  };
}

/** The promise's value, or "late" once `timeoutMs` has passed (the timer never holds the process open). */
export function settleWithin<T>(promise: Promise<T>, timeoutMs: number): Promise<T | "late"> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
