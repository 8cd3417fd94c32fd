import type { paths, webhooks } from "./schema";

/** The HTTP methods the API uses. */
export type HttpMethod = "get" | "post";

type OperationOf<Path extends keyof paths, Method extends HttpMethod> = NonNullable<paths[Path][Method]>;

/** Paths that have an operation for `Method`. */
export type PathOf<Method extends HttpMethod> = {
  [Path in keyof paths]: [OperationOf<Path, Method>] extends [never] ? never : Path;
}[keyof paths];

/** Paths of POST operations (every signed operation, and a few public ones). */
export type PostPath = PathOf<"post">;
/** Paths of the public GET operations. */
export type GetPath = PathOf<"get">;

/** The JSON body of a POST operation. */
export type RequestBody<Path extends PostPath> =
  OperationOf<Path, "post"> extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;

type SuccessBody<Operation> = Operation extends { responses: infer Responses }
  ? Responses extends { 200: { content: { "application/json": infer Body } } }
    ? Body
    : Responses extends { 201: { content: { "application/json": infer Body } } }
      ? Body
      : never
  : never;

type Unwrapped<Body> = Body extends { state: 0; result: infer Result } ? Result : Body;

/** What a successful call returns: the envelope's `result`, or the whole body of a bare answer. */
export type Result<Path extends PathOf<Method>, Method extends HttpMethod = "post"> = Unwrapped<SuccessBody<OperationOf<Path, Method>>>;

/** Every error code the document lists for an operation. */
export type ErrorCode<Path extends PathOf<Method>, Method extends HttpMethod = "post"> =
  OperationOf<Path, Method> extends { responses: infer Responses }
    ? {
        [Status in keyof Responses]: Responses[Status] extends { content: { "application/json": { error: { code: infer Code } } } } ? Code : never;
      }[keyof Responses]
    : never;

/** Values of the `{name}` segments of a path. */
export type PathParams<Path extends PathOf<Method>, Method extends HttpMethod> =
  OperationOf<Path, Method> extends { parameters: { path: infer Params } } ? (Params extends Record<string, unknown> ? Params : never) : never;

/** Options of one logical call (every retry of it shares them). */
export interface CallOptions {
  /**
   * Idempotency-Key of an idempotent (creating) operation. Default: a new UUID per call,
   * reused by each retry of that call. Pass your own to make a repeat of the same action safe
   * across process restarts.
   */
  idempotencyKey?: string;
  /** Aborts the call, including any wait before a retry. */
  signal?: AbortSignal;
}

/** Call options, plus the values of the path's `{name}` segments when it has any. */
export type OptionsFor<Path extends PathOf<Method>, Method extends HttpMethod> = [PathParams<Path, Method>] extends [never]
  ? CallOptions & { params?: undefined }
  : CallOptions & { params: PathParams<Path, Method> };

type HasRequiredKeys<Value> = {} extends Value ? false : true;

/** The arguments after the path of a POST call: the body (optional when nothing in it is required), then options. */
export type PostArguments<Path extends PostPath> = [PathParams<Path, "post">] extends [never]
  ? HasRequiredKeys<RequestBody<Path>> extends true
    ? [body: RequestBody<Path>, options?: OptionsFor<Path, "post">]
    : [body?: RequestBody<Path>, options?: OptionsFor<Path, "post">]
  : [body: RequestBody<Path>, options: OptionsFor<Path, "post">];

/** The arguments after the path of a GET call. */
export type GetArguments<Path extends GetPath> = [PathParams<Path, "get">] extends [never] ? [options?: OptionsFor<Path, "get">] : [options: OptionsFor<Path, "get">];

/** POST paths that page with a cursor: they take `cursor` and answer `{items, paginate: {next_cursor}}`. */
export type CursorPath = {
  [Path in PostPath]: RequestBody<Path> extends { cursor?: unknown }
    ? Result<Path> extends { items: unknown[]; paginate: { next_cursor?: unknown } }
      ? Path
      : never
    : never;
}[PostPath];

/** One element of a cursor-paged list. */
export type PageItem<Path extends CursorPath> = Result<Path> extends { items: (infer Item)[] } ? Item : never;

/** The filter of a cursor-paged list: its body without the cursor, which the client follows. */
export type PageFilter<Path extends CursorPath> = Omit<NonNullable<RequestBody<Path>>, "cursor">;

/** An X-Webhook-Event value. */
export type WebhookEventType = keyof webhooks;

/** The body delivered with an event type. */
export type WebhookEventBody<Type extends WebhookEventType> =
  NonNullable<webhooks[Type]["post"]> extends { requestBody: { content: { "application/json": infer Body } } } ? Body : never;

/** A verified webhook delivery: its event type, delivery id, timestamp and typed body. */
export type WebhookEvent = {
  [Type in WebhookEventType]: {
    /** The X-Webhook-Event header. */
    type: Type;
    /** X-Webhook-Event-Id: the event, the same on every delivery and redelivery of it (absent on test deliveries). */
    eventId: string | null;
    /** X-Webhook-Id: the delivery, the same on every attempt. */
    deliveryId: string | null;
    /** X-Webhook-Timestamp, Unix seconds. */
    timestamp: number;
    body: WebhookEventBody<Type>;
  };
}[WebhookEventType];
