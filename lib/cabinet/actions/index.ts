import type { CabinetActionEntry } from "../action-table";
import { beginAuthenticatorReset, changeOwnPassword, finishAuthenticatorReset, newRecoveryCodes, setOwnAlert, signOutAllSessions, signOutSession } from "./account-actions";
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
  "session.revoke_all": signOutAllSessions,
  "password.change": changeOwnPassword,
  "two_factor.regenerate_recovery_codes": newRecoveryCodes,
  "two_factor.begin_reset": beginAuthenticatorReset,
  "two_factor.confirm_reset": finishAuthenticatorReset,
  "alerts.set": setOwnAlert,
  ...INVOICE_ACTIONS,
  ...LINK_ACTIONS,
  ...SETTINGS_ACTIONS,
  ...TEAM_ACTIONS,
};

export type CabinetActionName = keyof typeof CABINET_ACTIONS;
