/**
 * Who may do what in the cabinet. Owners run the store and its team; admins run its settings and
 * money; finance staff move money but do not change how the store is wired; viewers read.
 */
export const CABINET_ROLES = ["owner", "admin", "finance", "viewer"] as const;
export type CabinetRole = (typeof CABINET_ROLES)[number];

export type CabinetPermission =
  | "read" // every page of the store
  | "money" // refunds, payment resolutions, manual payouts and their approval, transfers to personal wallets, payout links, blocked static wallets' refunds
  | "links" // payment links, static wallets (creating and blocking them)
  | "settings" // accepted currencies, fees, auto-withdraw, splits, webhooks, allow-list
  | "api_keys"
  | "team";

const GRANTS: Record<CabinetRole, readonly CabinetPermission[]> = {
  owner: ["read", "money", "links", "settings", "api_keys", "team"],
  admin: ["read", "money", "links", "settings", "api_keys"],
  finance: ["read", "money", "links"],
  viewer: ["read"],
};

export function isCabinetRole(value: string): value is CabinetRole {
  return (CABINET_ROLES as readonly string[]).includes(value);
}

export function roleAllows(role: CabinetRole, permission: CabinetPermission): boolean {
  return GRANTS[role].includes(permission);
}
