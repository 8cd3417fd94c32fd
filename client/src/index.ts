export { GatewayClient, type ApiResponse, type GatewayClientOptions } from "./client";
export { GatewayError, isGatewayError, WebhookVerificationError, type GatewayErrorKind, type TransportErrorCode, type WebhookVerificationFailure } from "./errors";
export { constructEvent, signWebhook, verifyWebhook, type VerifyWebhookInput, type WebhookHeaders } from "./webhooks";
export { signRequest, signatureHeaders } from "./signing";
export { backoffDelayMs, DEFAULT_BACKOFF, type BackoffOptions } from "./retry";
export { OPERATIONS, WEBHOOK_EVENT_TYPES } from "./operations.generated";
export type { OperationFacts } from "./operation-facts";
export type {
  CallOptions,
  CursorPath,
  ErrorCode,
  GetPath,
  PageFilter,
  PageItem,
  PostPath,
  RequestBody,
  Result,
  WebhookEvent,
  WebhookEventBody,
  WebhookEventType,
} from "./types";
export type { components, paths, webhooks } from "./schema";
