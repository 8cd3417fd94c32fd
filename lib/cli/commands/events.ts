import type { Command } from "commander";
import type { Db } from "@/lib/db/client";
import type { EventDeliveriesSummary, EventListItem } from "@/lib/api/serialize/event";
import { isUuid } from "@/lib/domain/input/uuid";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { parseCount, requireMerchant } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

type OperatorEventItem = EventListItem & { merchant_id: string };

/** `invoice.paid,payout.*` → the list of types and prefixes the event log filters on. */
export function splitTypes(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text.split(",").map((part) => part.trim()).filter((part) => part !== "");
}

/**
 * The newest events of every merchant (the operator's view; the per-merchant list is the
 * service's listEvents), each with the same deliveries summary.
 */
async function listEventsOfAllMerchants(db: Db, filter: { type?: string[]; limit: number }): Promise<OperatorEventItem[]> {
  const { eventTypeWhere } = await import("@/lib/services/events/list-events");
  const { eventsRetainedSince } = await import("@/lib/services/events/event-retention");
  const { NO_DELIVERIES, toEventFields } = await import("@/lib/api/serialize/event");
  const rows = await db.webhookEvent.findMany({
    where: { createdAt: { gte: eventsRetainedSince(new Date()) }, ...eventTypeWhere(filter.type) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: filter.limit,
  });
  const ids = rows.map((row) => row.id);
  const [counts, newest] = await Promise.all([
    db.webhookDelivery.groupBy({ by: ["eventId", "status"], where: { eventId: { in: ids } }, _count: { _all: true } }),
    db.webhookDelivery.findMany({ where: { eventId: { in: ids } }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], distinct: ["eventId"], select: { eventId: true, status: true } }),
  ]);
  const summaries = new Map<string, EventDeliveriesSummary>();
  for (const row of counts) {
    const summary = { ...(summaries.get(row.eventId!) ?? NO_DELIVERIES) };
    summary.count += row._count._all;
    if (row.status === "delivered" || row.status === "pending" || row.status === "dead") summary[row.status] += row._count._all;
    summaries.set(row.eventId!, summary);
  }
  for (const row of newest) summaries.set(row.eventId!, { ...summaries.get(row.eventId!)!, last_status: row.status as EventDeliveriesSummary["last_status"] });
  return rows.map((row) => ({ merchant_id: row.merchantId, ...toEventFields(row), deliveries: summaries.get(row.id) ?? NO_DELIVERIES }));
}

function describeDeliveries(summary: EventDeliveriesSummary): string {
  if (summary.count === 0) return "none";
  const parts = [`${summary.delivered}/${summary.count} delivered`];
  if (summary.pending > 0) parts.push(`${summary.pending} pending`);
  if (summary.dead > 0) parts.push(`${summary.dead} dead`);
  return parts.join(", ");
}

export function registerEventsCommands(program: Command): void {
  const events = program.command("events").description("the webhook event log (30 days)");

  defineAction<{ merchant?: string; type?: string; limit: string }>(
    events
      .command("list")
      .description("the newest events, of one merchant or of all")
      .option("--merchant <merchant_id>", "only this merchant's")
      .option("--type <types>", "only these types or prefixes, comma-separated: invoice.paid,payout.*")
      .option("--limit <n>", "how many, 1 to 100", "20"),
    async (options) => {
      const limit = parseCount(options.limit, "--limit", { min: 1, max: 100 });
      const type = splitTypes(options.type);
      return withCliDatabase(async (db) => {
        let items: OperatorEventItem[];
        if (options.merchant !== undefined) {
          const merchant = await requireMerchant(db, options.merchant);
          const { listEvents } = await import("@/lib/services/events/list-events");
          const page = await listEvents(db, merchant.id, { type, limit }, new Date());
          items = page.items.map((item) => ({ merchant_id: merchant.id, ...item }));
        } else {
          items = await listEventsOfAllMerchants(db, { type, limit });
        }
        const text = formatTable(
          items,
          [
            { header: "EVENT", value: (item) => item.id },
            ...(options.merchant === undefined ? [{ header: "MERCHANT", value: (item: OperatorEventItem) => item.merchant_id }] : []),
            { header: "TYPE", value: (item) => item.type },
            { header: "OBJECT", value: (item) => item.object_id },
            { header: "CREATED", value: (item) => item.created_at },
            { header: "DELIVERIES", value: (item) => describeDeliveries(item.deliveries) },
          ],
          "(no events)",
        );
        return { json: { items }, text };
      });
    },
  );

  defineAction<{ merchant?: string; url?: string }>(
    events
      .command("resend")
      .description("records a new delivery of the event (same body and event id, signed anew) to the merchant's endpoint or --url")
      .argument("<event_id>", "the event")
      .option("--merchant <merchant_id>", "the event's merchant (default: whoever it belongs to)")
      .option("--url <url>", "deliver here instead of the registered endpoint"),
    async (options, _context, [eventId]) => {
      if (!isUuid(eventId)) throw new CliError("cli.usage", "<event_id> must be the event's uuid");
      return withCliDatabase(async (db) => {
        const event = await db.webhookEvent.findUnique({ where: { id: eventId.toLowerCase() }, select: { merchantId: true } });
        if (!event || (options.merchant !== undefined && options.merchant.toLowerCase() !== event.merchantId)) throw new CliError("cli.not_found", `No event ${eventId}`);
        const { getConfig } = await import("@/lib/config/env");
        const { redeliverEvent } = await import("@/lib/services/events/redeliver-event");
        const { withTransaction } = await import("@/lib/db/transaction");
        const redelivery = await redeliverEvent.prepare({ sendOptions: { allowLoopback: getConfig().allowLoopbackUrls } }, { merchantId: event.merchantId, id: eventId, url: options.url });
        const delivery = await withTransaction(db, (tx) => redeliverEvent.execute(tx, { now: () => new Date() }, redelivery));
        return {
          json: { merchant_id: event.merchantId, delivery },
          text: `delivery ${delivery.id} of ${delivery.event_type} ${delivery.event_id} to ${delivery.url}: ${delivery.status} (the worker sends it)`,
        };
      });
    },
  );
}
