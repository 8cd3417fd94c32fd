/**
 * The cabinet actions that ask for a fresh code (TOTP or recovery) each time: anything that creates
 * credentials, moves money or rewires where data and money go. Shared by the action table (which
 * enforces it) and the pages (which ask for the code before calling). spec (issue): API key
 * create/revoke/rotate, payout approval, transfer to a personal wallet, allow-list and
 * webhook-endpoint changes, team changes. Beyond that list, every action that sends money to an
 * address (a refund, a resolve that may refund, a blocked wallet's refund) or makes money claimable
 * (a payout link) asks too, as does every change of where the store's own money may go (personal
 * wallets, auto-withdraw rules, split rules and their refund hold).
 */
export const SENSITIVE_ACTIONS = [
  "api_key.create",
  "api_key.revoke",
  "api_key.rotate",
  "payout.approve",
  "payout.reject",
  "personal_wallet.transfer",
  "personal_wallet.save",
  "personal_wallet.remove",
  "refund.create",
  "invoice.resolve",
  "static_wallet.refund_blocked",
  "payout_link.create",
  "settings.set_auto_withdraw",
  "settings.create_split_rule",
  "settings.set_split_config",
  "settings.set_threshold",
  "allowlist.add",
  "allowlist.remove",
  "allowlist.enable",
  "webhook.set",
  "webhook.rotate_secret",
  "team.invite",
  "team.revoke_invitation",
  "team.change_role",
  "team.remove",
  "two_factor.regenerate_recovery_codes",
  // Credentials and sessions (a stolen session cookie alone can change none of them).
  "password.change",
  "two_factor.begin_reset",
  "session.revoke_all",
] as const;

export type SensitiveActionName = (typeof SENSITIVE_ACTIONS)[number];

export function isSensitiveAction(name: string): boolean {
  return (SENSITIVE_ACTIONS as readonly string[]).includes(name);
}

/** What a cabinet action answers the page: its result, or a catalogue code with a message for people. */
export type CabinetActionResult<T = unknown> = { ok: true; result: T } | { ok: false; code: string; message: string };
