import { Inngest } from "inngest";

/** The Inngest client; INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY (or INNGEST_DEV=1) configure it. */
export const inngest = new Inngest({ id: "gateway" });

export { BATCH_CREATED_EVENT, WEBHOOK_RECORDED_EVENT } from "@/lib/jobs/inngest/events";
