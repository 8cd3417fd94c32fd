import { cidrContains, parseCidr, parseIp } from "./ip";

/**
 * Whether an address falls in one of the allow-list's entries, by the same test as the API's
 * signature check (lib/api/dispatch.ts); false for an address that does not parse.
 */
export function isAddressInAllowlist(entries: readonly string[], addressText: string): boolean {
  const address = parseIp(addressText);
  if (!address) return false;
  return entries.some((entry) => {
    const range = parseCidr(entry);
    return range !== null && cidrContains(range, address);
  });
}
