import type { AppDeps } from "@/lib/deps/app-deps";
import { runUnit } from "@/lib/deps/unit-of-work";
import { log } from "@/lib/log";
import { findDueAlerts, forgetSettledDebts, sendAlert } from "@/lib/services/cabinet/alerts";

/**
 * The `cabinet.alert` job (every minute): what waits for each store and was not told yet is told
 * to the members who chose its kind, one transaction per alert (sendAlert); then debts paid back
 * are forgotten, so a new debt is told again.
 */
export async function sendCabinetAlerts(deps: AppDeps): Promise<{ alerts: number; emails: number }> {
  let alerts = 0;
  let emails = 0;
  for (const alert of await findDueAlerts(deps.db, deps.now())) {
    try {
      const queued = await runUnit(deps, sendAlert, alert);
      alerts++;
      emails += queued;
    } catch (error) {
      log.warn("cabinet alert not sent; the next pass retries", { merchantId: alert.merchantId, kind: alert.kind, error });
    }
  }
  await forgetSettledDebts(deps.db);
  return { alerts, emails };
}
