import type { CabinetActionEntry } from "../action-table";
import { newRecoveryCodes, signOutSession } from "./account-actions";
import { INVOICE_ACTIONS } from "./invoice-actions";
import { LINK_ACTIONS } from "./link-actions";
import { approvePayout, cancelPendingPayout, createManualPayout, rejectPayout } from "./payout-actions";
import { SETTINGS_ACTIONS } from "./settings-actions";
import { TEAM_ACTIONS } from "./team-actions";

/**
 * THE cabinet action table: every change a page can ask for, by name. Pages call them through one
 * server action (app/(cabinet)/cabinet/actions.ts); the isolation tests iterate this table.
 */
export const CABINET_ACTIONS: Record<string, CabinetActionEntry> = {
  "payout.create": createManualPayout,
  "payout.approve": approvePayout,
  "payout.reject": rejectPayout,
  "payout.cancel": cancelPendingPayout,
  "session.revoke": signOutSession,
  "two_factor.regenerate_recovery_codes": newRecoveryCodes,
  ...INVOICE_ACTIONS,
  ...LINK_ACTIONS,
  ...SETTINGS_ACTIONS,
  ...TEAM_ACTIONS,
};

export type CabinetActionName = keyof typeof CABINET_ACTIONS;
