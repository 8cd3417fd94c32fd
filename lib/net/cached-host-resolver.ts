import dns from "node:dns/promises";

export type HostResolver = (host: string) => Promise<{ address: string; family: number }[]>;

/** Every address of a host, as the system resolver answers (no filtering: the SSRF rule does that). */
export const lookupAllAddresses: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** How long a DNS answer is reused: short, so a changed record reaches the SSRF check soon. */
export const HOST_ANSWER_TTL_MS = 10_000;
const MAX_CACHED_HOSTS = 1_000;

/**
 * A resolver that reuses a host's answer for `ttlMs`, and shares one lookup between concurrent
 * callers, so a burst of sends to one receiver costs one DNS query. It only caches the answer:
 * callers still check every address against the SSRF rule on each use. Failures are not kept.
 */
export function createCachedHostResolver(
  resolve: HostResolver = lookupAllAddresses,
  options: { ttlMs?: number; now?: () => number } = {},
): HostResolver {
  const ttlMs = options.ttlMs ?? HOST_ANSWER_TTL_MS;
  const now = options.now ?? Date.now;
  const answers = new Map<string, { expiresAt: number; addresses: Promise<{ address: string; family: number }[]> }>();
  return (host) => {
    const cached = answers.get(host);
    if (cached && cached.expiresAt > now()) return cached.addresses;
    if (answers.size >= MAX_CACHED_HOSTS) {
      for (const [name, entry] of answers) if (entry.expiresAt <= now()) answers.delete(name);
      // Still full of fresh answers: start over rather than grow without bound.
      if (answers.size >= MAX_CACHED_HOSTS) answers.clear();
    }
    const entry = { expiresAt: now() + ttlMs, addresses: resolve(host) };
    answers.set(host, entry);
    entry.addresses.catch(() => {
      if (answers.get(host) === entry) answers.delete(host);
    });
    return entry.addresses;
  };
}
