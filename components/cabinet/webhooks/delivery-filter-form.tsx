import Link from "next/link";
import { INPUT_CLASS } from "@/components/cabinet/form-controls";
import { buttonClassName } from "@/components/ui/button";
import { TEXT_LINK } from "@/components/ui/theme";

/** What each status filter shows. */
export const DELIVERY_STATUS_WORDS: Record<string, string> = {
  pending: "Pending (queued or retrying)",
  retrying: "Retrying (failed at least once)",
  delivered: "Delivered",
  dead: "Dead (gave up)",
};

/**
 * The delivery log's filters as a plain GET form: applying them is a navigation, so a filtered
 * log is a shareable URL (the overview links to ?status=dead). Works without JavaScript.
 */
export function DeliveryFilterForm({ status, event, object, eventTypes }: { status: string; event: string; object: string; eventTypes: readonly string[] }) {
  return (
    <form method="get" action="/cabinet/webhooks#deliveries" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,1fr))_auto] lg:items-end" aria-label="Filter deliveries">
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor="delivery-status" className="text-sm font-medium">
          Status
        </label>
        <select id="delivery-status" name="status" defaultValue={status} className={INPUT_CLASS}>
          <option value="">Any status</option>
          {Object.entries(DELIVERY_STATUS_WORDS).map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor="delivery-event" className="text-sm font-medium">
          Event type
        </label>
        <select id="delivery-event" name="event" defaultValue={event} className={INPUT_CLASS}>
          <option value="">Any event</option>
          {eventTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor="delivery-object" className="text-sm font-medium">
          Payment or payout id
        </label>
        <input id="delivery-object" name="object" defaultValue={object} autoComplete="off" spellCheck={false} placeholder="uuid" className={INPUT_CLASS} />
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-1">
        <button type="submit" className={buttonClassName("secondary")}>
          Apply filters
        </button>
        <Link href="/cabinet/webhooks#deliveries" className={`text-sm ${TEXT_LINK}`}>
          Clear filters
        </Link>
      </div>
    </form>
  );
}
