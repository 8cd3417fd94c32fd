import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { log } from "@/lib/log";
import { deriveXpubAddressesWithQrCodes, type DerivedWithQrCodes, type XpubDerivationJob } from "./derive-with-qr-codes";

/** A job as posted to a derivation thread. */
export type DerivationRequest = XpubDerivationJob & { id: number };

export type DerivationReply = ({ id: number } & DerivedWithQrCodes) | { id: number; error: string };

/** Found from the working directory, the project's root, as the same code runs bundled by Next.js too. */
const DERIVATION_THREAD_BODY = pathToFileURL(path.join(process.cwd(), "lib", "chains", "addresses", "derivation-thread.ts")).href;

/** A thread that dies this many times is not started again: derivation stays on the calling thread. */
const MAX_THREAD_FAILURES = 3;

/**
 * Deposit addresses and their QR codes made on other threads: under invoice creation they are a
 * quarter of the request thread's work (an elliptic-curve step, a keccak or two hashes, a QR
 * symbol per address), and the request thread is what caps throughput. One thread per core but
 * the request thread's, at least one. A thread that fails answers its pending jobs on the calling
 * thread instead, so a caller never sees the difference but in time.
 */
export class DerivationThreads {
  private readonly threads: Worker[] = [];
  private readonly pending = new Map<number, { job: XpubDerivationJob; resolve(result: DerivedWithQrCodes): void; reject(error: Error): void }>();
  private nextId = 1;
  private nextThread = 0;
  private failures = 0;

  constructor(
    private readonly size: number,
    /** The module a thread runs (a file URL); derivation-thread.ts but in tests. */
    private readonly body = DERIVATION_THREAD_BODY,
  ) {}

  derive(job: XpubDerivationJob): Promise<DerivedWithQrCodes> {
    const thread = this.pickThread();
    if (!thread) return deriveXpubAddressesWithQrCodes(job);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.postMessage({ id, ...job } satisfies DerivationRequest);
      this.pending.set(id, { job, resolve, reject });
      // Referenced while it holds a job, so the process waits for the answer; idle threads keep no process alive.
      thread.ref();
    });
  }

  private pickThread(): Worker | undefined {
    if (this.failures >= MAX_THREAD_FAILURES) return undefined;
    while (this.threads.length < this.size) this.threads.push(this.startThread());
    this.nextThread = (this.nextThread + 1) % this.threads.length;
    return this.threads[this.nextThread];
  }

  private startThread(): Worker {
    // The service runs through tsx's loader; a thread registers it before importing its body.
    const thread = new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(this.body)}); });`, {
      eval: true,
      execArgv: [],
    });
    thread.unref();
    thread.on("message", (reply: DerivationReply) => this.settle(reply));
    thread.on("error", (error) => log.warn("a derivation thread failed; its jobs run on the request thread", { error }));
    thread.on("exit", () => this.replace(thread));
    return thread;
  }

  /** Threads running now. */
  get running(): number {
    return this.threads.length;
  }

  private settle(reply: DerivationReply): void {
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    this.unrefWhenIdle();
    // A job already answered here after another thread died (see replace).
    if (!waiting) return;
    if ("error" in reply) waiting.reject(new Error(reply.error));
    else waiting.resolve({ addresses: reply.addresses, qrCodes: reply.qrCodes });
  }

  /** A thread gone: its jobs (which thread held which is not kept) are all answered here, once. */
  private replace(thread: Worker): void {
    const position = this.threads.indexOf(thread);
    if (position < 0) return;
    this.failures++;
    this.threads.splice(position, 1);
    const orphans = [...this.pending.values()];
    this.pending.clear();
    this.unrefWhenIdle();
    for (const { job, resolve, reject } of orphans) deriveXpubAddressesWithQrCodes(job).then(resolve, reject);
  }

  private unrefWhenIdle(): void {
    if (this.pending.size === 0) for (const thread of this.threads) thread.unref();
  }
}

let shared: DerivationThreads | undefined;

/** Addresses of an xpub network and their QR codes, made on a derivation thread (see DerivationThreads). */
export function deriveWithQrCodes(job: XpubDerivationJob): Promise<DerivedWithQrCodes> {
  shared ??= new DerivationThreads(Math.min(4, Math.max(1, os.availableParallelism() - 1)));
  return shared.derive(job);
}
