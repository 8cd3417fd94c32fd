/** The event that tells Inngest new deliveries were recorded. */
export const WEBHOOK_RECORDED_EVENT = "gateway/webhook.recorded";
/** The event that tells Inngest a batch was accepted. */
export const BATCH_CREATED_EVENT = "gateway/batch.created";
