import type { OperationContext } from "../operation";

/** The calling merchant of a signed operation. */
export function merchantOf(context: OperationContext): string {
  if (!context.merchantId) throw new Error("signed operation without a merchant");
  return context.merchantId;
}

/** Who calls a signed operation (`key:<public id>`). */
export function actorOf(context: OperationContext): string {
  if (!context.actor) throw new Error("signed operation without a caller");
  return context.actor;
}
