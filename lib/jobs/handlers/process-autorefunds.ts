import type { AppDeps } from "@/lib/deps/app-deps";
import { runUnit } from "@/lib/deps/unit-of-work";
import { log } from "@/lib/log";
import { listDueAutorefunds, recordAutorefundFailure, resolvePayment } from "@/lib/services/refunds/resolve-payment";

/**
 * Part of the `payout.send` pass: every payment an autorefund is due for is refunded (everything,
 * or the excess) through resolve — once, since resolve settles a payment once — each in its own
 * transaction. A refusal is recorded (recordAutorefundFailure) and decides whether it is tried again.
 */
export async function processAutorefunds(deps: AppDeps, limit = 100): Promise<number> {
  let refunded = 0;
  for (const payment of await listDueAutorefunds(deps.db, deps.now(), limit)) {
    try {
      await runUnit(deps, resolvePayment, { merchantId: payment.merchant_id, input: { uuid: payment.id, action: "refund" }, actor: "autorefund" });
      refunded++;
    } catch (error) {
      const { attempts, isGivenUp } = await runUnit(deps, recordAutorefundFailure, { invoiceId: payment.id, error });
      if (!isGivenUp) log.warn("automatic refund not made yet; it is tried again later", { invoiceId: payment.id, attempts, error });
    }
  }
  return refunded;
}
