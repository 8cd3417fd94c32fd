import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { log } from "@/lib/log";

/** A deposit address held ready, with its QR code. */
export interface ReadyAddress {
  address: string;
  index: number;
  qrCode: string;
}

export interface AddressReserveOptions {
  /** Below this many takes per second nothing is held: takes go to the shared pool as before. */
  minTakesPerSecond: number;
  /** How many seconds of takes are held ahead. */
  holdSeconds: number;
  /** The most held at once; each is an index skipped should the process stop. */
  maxHeld: number;
  /** Addresses derived per step of a refill (one message to a derivation thread). */
  deriveSlice: number;
  /** After a failed refill, none is tried for this long. */
  retryAfterMs: number;
  now(): number;
}

export const DEFAULT_ADDRESS_RESERVE: AddressReserveOptions = {
  minTakesPerSecond: 50,
  holdSeconds: 0.5,
  maxHeld: 1_000,
  deriveSlice: 50,
  retryAfterMs: 1_000,
  now: Date.now,
};

export interface AddressReserveSource {
  /** Moves the key tree's counter past `count` indexes and answers them: they belong to this reserve alone. */
  reserveIndexes(count: number): Promise<number[]>;
  /** The addresses and QR codes of those indexes (off the request thread where it can). */
  derive(indexes: number[]): Promise<ReadyAddress[]>;
}

/**
 * Addresses of one network and chain that a busy process derived ahead, for its own invoices.
 * Under sustained creation, taking an address from the shared pool is a statement per batch and
 * deriving the rest sits on every request's path; held here, a take is a shift from memory and
 * the derivation happens between requests, on a derivation thread. Nothing is held until takes
 * reach minTakesPerSecond, then half a second of them: a lone invoice goes to the shared pool as
 * before, and a process that stops skips at most maxHeld indexes, which no invoice ever showed.
 */
export class AddressReserve {
  private readonly held: ReadyAddress[] = [];
  private refilling = false;
  private retryAt = 0;
  private windowStart: number;
  private takesInWindow = 0;
  private takesPerSecond = 0;

  constructor(
    private readonly source: AddressReserveSource,
    private readonly options: AddressReserveOptions = DEFAULT_ADDRESS_RESERVE,
  ) {
    this.windowStart = options.now();
  }

  /** A held address, or undefined when none is ready (the caller takes one from the pool). */
  take(): ReadyAddress | undefined {
    this.countTake();
    this.refillIfLow();
    return this.held.shift();
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Takes per second over the last whole window of a second or more. */
  private countTake(): void {
    const now = this.options.now();
    const elapsed = now - this.windowStart;
    if (elapsed >= 1_000) {
      this.takesPerSecond = (this.takesInWindow * 1_000) / elapsed;
      this.takesInWindow = 0;
      this.windowStart = now;
    }
    this.takesInWindow++;
  }

  private refillIfLow(): void {
    if (this.refilling || this.options.now() < this.retryAt) return;
    const { minTakesPerSecond, holdSeconds, maxHeld } = this.options;
    if (this.takesPerSecond < minTakesPerSecond) return;
    const target = Math.min(maxHeld, Math.ceil(this.takesPerSecond * holdSeconds));
    if (this.held.length >= target / 2) return;
    this.refilling = true;
    void this.refill(target - this.held.length).finally(() => (this.refilling = false));
  }

  private async refill(count: number): Promise<void> {
    try {
      const indexes = await this.source.reserveIndexes(count);
      for (let start = 0; start < indexes.length; start += this.options.deriveSlice) {
        this.held.push(...(await this.source.derive(indexes.slice(start, start + this.options.deriveSlice))));
        // Where a slice is derived on this thread (ed25519 networks), requests get their turn between slices.
        await yieldToEventLoop();
      }
    } catch (error) {
      // The indexes not derived are skipped, as those of an invoice that was not created.
      this.retryAt = this.options.now() + this.options.retryAfterMs;
      log.warn("holding deposit addresses ahead failed; takes go to the pool meanwhile", { error });
    }
  }
}
