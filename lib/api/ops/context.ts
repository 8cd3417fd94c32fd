import type { OperationContext } from "../operation";

/** The calling merchant of a signed operation. */
export function merchantOf(context: OperationContext): string {
  if (!context.merchantId) throw new Error("signed operation without a merchant");
  return context.merchantId;
}
