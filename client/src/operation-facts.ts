/** What the client must know about an operation at run time (generated from the API document). */
export interface OperationFacts {
  /** Carries X-Public-Id, X-Timestamp and X-Signature. */
  signed: boolean;
  /** Honours Idempotency-Key (the document's `x-idempotent`). */
  idempotent: boolean;
  /** Only reads: safe to repeat after the request may have reached the service. */
  readOnly: boolean;
  /** The success body is `{state: 0, result}`; otherwise the body is the result itself. */
  enveloped: boolean;
  /** Takes `cursor` and answers `{items, paginate: {next_cursor}}`. */
  cursorPaginated: boolean;
}
