import type { DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import { getGatewayMetrics, type GatewayMetrics } from "./registry";

/** Counts a finished webhook attempt by the status it left the delivery in (pending: it failed, a retry follows). */
export function recordWebhookAttempt(statusAfter: DeliveryStatus, metrics: GatewayMetrics = getGatewayMetrics()): void {
  metrics.webhookAttempts.inc({ outcome: statusAfter === "pending" ? "failed" : statusAfter });
}
