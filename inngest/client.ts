import { Inngest } from "inngest";

/** The Inngest client; INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY (or INNGEST_DEV=1) configure it. */
export const inngest = new Inngest({ id: "gateway" });

/** The event that tells Inngest new deliveries were recorded. */
export const WEBHOOK_RECORDED_EVENT = "gateway/webhook.recorded";
/** The event that tells Inngest a batch was accepted. */
export const BATCH_CREATED_EVENT = "gateway/batch.created";
