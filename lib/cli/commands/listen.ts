import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import type { WebhookEvent } from "@/generated/prisma/client";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { parseCount, pause, requireMerchant } from "../lookups";
import { withCliDatabase } from "../open-database";
import { splitTypes } from "./events";

/**
 * Events are read back this far behind the newest one seen: one committed a little after its
 * created_at (a longer transaction) is still found; the ids already handled keep it from going twice.
 */
const LOOKBACK_MS = 60_000;
/** Events read per look at most; the rest come at the next look. */
const EVENTS_PER_LOOK = 100;

interface Forwarded {
  event_id: string;
  type: string;
  object_id: string;
  /** The receiver's HTTP status; null when it did not answer. */
  status_code: number | null;
  error?: string;
  duration_ms: number;
}

function parseForwardUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError("cli.usage", `--forward-to must be an http(s) URL, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliError("cli.usage", "--forward-to must be an http(s) URL");
  return url;
}

/** One POST as a real delivery makes it: the event's exact bytes, signed with the merchant's secret. */
async function forward(url: URL, event: WebhookEvent, headers: Record<string, string>, timeoutMs: number, stop: AbortSignal): Promise<Forwarded> {
  const started = performance.now();
  const base = { event_id: event.id, type: event.type, object_id: event.objectId };
  try {
    const response = await fetch(url, { method: "POST", headers, body: event.body, redirect: "manual", signal: AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]) });
    await response.body?.cancel();
    return { ...base, status_code: response.status, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return { ...base, status_code: null, error: reason, duration_ms: Math.round(performance.now() - started) };
  }
}

export function registerListenCommand(program: Command): void {
  defineAction<{ merchant: string; forwardTo: string; events?: string; interval: string; timeout: string }>(
    program
      .command("listen")
      .description("forwards the merchant's new events to a local URL as real deliveries (same headers, signed with its webhook secret) until Ctrl-C")
      .requiredOption("--merchant <merchant_id>", "whose events")
      .requiredOption("--forward-to <url>", "where to POST them, e.g. http://localhost:4000/webhooks")
      .option("--events <types>", "only these types or prefixes, comma-separated: invoice.paid,payout.*")
      .option("--interval <ms>", "how often to look for new events, in milliseconds", "250")
      .option("--timeout <ms>", "how long the receiver may take to answer", "10000"),
    async (options, context) => {
      const url = parseForwardUrl(options.forwardTo);
      const intervalMs = parseCount(options.interval, "--interval", { min: 50, max: 60_000 });
      const timeoutMs = parseCount(options.timeout, "--timeout", { min: 100, max: 120_000 });
      const { parseEventTypeFilter } = await import("@/lib/services/events/list-events");
      const types = splitTypes(options.events);
      const filter = types === undefined ? null : parseEventTypeFilter(types);
      const isWanted = (type: string) => !filter || filter.exact.includes(type) || filter.prefixes.some((prefix) => type.startsWith(prefix));
      const { getSecretBox } = await import("@/lib/crypto/master-key");
      const { getSigningSecrets } = await import("@/lib/webhooks/signing-secrets");
      const { buildDeliveryHeaders } = await import("@/lib/webhooks/signing");

      return withCliDatabase(async (db) => {
        const merchant = await requireMerchant(db, options.merchant);
        const handled = new Map<string, number>();
        const readSince = async (since: number, take?: number) =>
          db.webhookEvent.findMany({ where: { merchantId: merchant.id, ...(Number.isFinite(since) ? { createdAt: { gte: new Date(since) } } : {}) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take });
        // Time is the events' own (the service's clock that stamped them), never this machine's: a
        // CLI whose clock runs ahead would otherwise look past events as they are recorded.
        // What happened before the start is not forwarded, only what happens from now on.
        const newest = await db.webhookEvent.findFirst({ where: { merchantId: merchant.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { createdAt: true } });
        let horizon = newest?.createdAt.getTime() ?? Number.NEGATIVE_INFINITY;
        for (const event of await readSince(horizon - LOOKBACK_MS)) handled.set(event.id, event.createdAt.getTime());
        const forwarded: Forwarded[] = [];
        // On stderr in both modes: under --json stdout keeps the one final object.
        process.stderr.write(`Ready! Forwarding ${types ? types.join(", ") : "every"} event of merchant ${merchant.id} to ${url.href} (Ctrl-C to stop)\n`);

        while (!context.signal.aborted) {
          const since = horizon - LOOKBACK_MS;
          const fresh = (await readSince(since, EVENTS_PER_LOOK + handled.size)).filter((event) => !handled.has(event.id)).slice(0, EVENTS_PER_LOOK);
          if (fresh.length > 0) {
            // Read at each batch: a rotated secret signs from the moment it is in force, as real deliveries do.
            const secrets = await getSigningSecrets(db, getSecretBox(), merchant.id, new Date());
            for (const event of fresh) {
              handled.set(event.id, event.createdAt.getTime());
              horizon = Math.max(horizon, event.createdAt.getTime());
              if (!isWanted(event.type) || context.signal.aborted) continue;
              const timestamp = String(Math.floor(Date.now() / 1000));
              const headers = buildDeliveryHeaders({ id: randomUUID(), eventId: event.id, eventType: event.type, body: event.body }, secrets, timestamp);
              const outcome = await forward(url, event, headers, timeoutMs, context.signal);
              forwarded.push(outcome);
              context.say(
                `${new Date().toISOString()}  --> ${outcome.type} [${outcome.event_id}]  <-- ${outcome.status_code ?? "no answer"}${outcome.error ? ` (${outcome.error})` : ""} in ${outcome.duration_ms} ms`,
              );
            }
          }
          // Ids older than the lookback can no longer be read back: forget them.
          for (const [id, createdAt] of handled) if (createdAt < since) handled.delete(id);
          await pause(intervalMs, context.signal);
        }
        return {
          json: { merchant_id: merchant.id, forward_to: url.href, forwarded: forwarded.length, items: forwarded },
          text: `stopped: ${forwarded.length} event${forwarded.length === 1 ? "" : "s"} forwarded`,
        };
      });
    },
    { runsUntilStopped: true },
  );
}
