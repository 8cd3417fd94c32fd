import type { AllowlistView } from "@/lib/api/serialize/allowlist";
import type { Db, Tx } from "@/lib/db/client";
import { formatCidr, parseCidr } from "@/lib/domain/net/ip";
import { AppError } from "@/lib/errors";
import { queryDirect } from "@/lib/db/direct-query";
import { createCoalescer, onePerOwner } from "@/lib/db/coalesce";
import { afterCommit } from "@/lib/db/transaction";
import { unitOf } from "@/lib/deps/unit-of-work";
import { forgetKeptApiKeys } from "@/lib/auth/api-key-cache";

/** Canonical form of an address or range, or `apiallow.bad_cidr`. */
export function canonicalCidrOrThrow(text: string): string {
  const range = parseCidr(text);
  if (!range) throw new AppError("apiallow.bad_cidr");
  return formatCidr(range);
}

/** Merchants' allow-lists read at most in one coalesced statement. */
const COALESCED_READS = 200;

/**
 * The allow-lists of the merchants whose reads meet in time, in one statement (see
 * createCoalescer): every caller's statement is sent after its call, so it sees what committed before.
 */
const allowlistReaderOf = onePerOwner((db: Db) => {
  const readMany = async (merchantIds: string[]) => {
    const rows = await queryDirect<{ id: string; enabled: boolean; entries: string[] }>(
      db,
      `SELECT m.id::text AS id, m.allowlist_enabled AS enabled,
              COALESCE((SELECT array_agg(e.cidr ORDER BY e.created_at, e.cidr) FROM allowlist_entries e WHERE e.merchant_id = m.id), '{}')::text[] AS entries
       FROM merchants m WHERE m.id = ANY($1::uuid[])`,
      [[...new Set(merchantIds)]],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    // Each caller its own view: callers of the same merchant in one batch share no array.
    return merchantIds.map((merchantId) => {
      const row = byId.get(merchantId.toLowerCase());
      return row && { entries: [...row.entries], enabled: row.enabled };
    });
  };
  return createCoalescer<string, AllowlistView | undefined>({
    maxBatch: COALESCED_READS,
    runBatch: readMany,
    runAlone: async (merchantId) => (await readMany([merchantId]))[0],
  });
});

/** The switch and the entries in one statement (a nested Prisma select would take two round trips). */
export async function getAllowlist(db: Db, merchantId: string): Promise<AllowlistView> {
  const allowlist = await allowlistReaderOf(db)(merchantId);
  if (!allowlist) throw new Error(`merchant ${merchantId} does not exist`);
  return allowlist;
}

/** The list as it stands inside `tx` (what a change answers: its own writes included). */
async function readAllowlistIn(tx: Tx, merchantId: string): Promise<AllowlistView> {
  const [row] = await tx.$queryRaw<{ enabled: boolean; entries: string[] }[]>`
    SELECT m.allowlist_enabled AS enabled,
           COALESCE((SELECT array_agg(e.cidr ORDER BY e.created_at, e.cidr) FROM allowlist_entries e WHERE e.merchant_id = m.id), '{}')::text[] AS entries
    FROM merchants m WHERE m.id = ${merchantId}::uuid`;
  if (!row) throw new Error(`merchant ${merchantId} does not exist`);
  return { entries: row.entries, enabled: row.enabled };
}

/** Every kept API key's allow-list is re-read once the change has committed (not before: a read in between would keep the old list). */
function forgetKeptKeysAfterCommit(tx: Tx): void {
  afterCommit(tx, forgetKeptApiKeys);
}

export interface AllowlistEntryChange {
  merchantId: string;
  cidr: string;
}

/** Adds an entry (a repeat is a no-op). */
export const addAllowlistEntry = unitOf(async (tx, _deps, { merchantId, cidr: cidrText }: AllowlistEntryChange): Promise<AllowlistView> => {
  const cidr = canonicalCidrOrThrow(cidrText);
  await tx.allowlistEntry.createMany({ data: [{ merchantId, cidr }], skipDuplicates: true });
  forgetKeptKeysAfterCommit(tx);
  return readAllowlistIn(tx, merchantId);
});

/**
 * Removes an entry. Removing the last entry of an enabled list would lock every key out,
 * so it also disables the list, in the same transaction.
 */
export const removeAllowlistEntry = unitOf(async (tx, _deps, { merchantId, cidr: cidrText }: AllowlistEntryChange): Promise<AllowlistView> => {
  const cidr = canonicalCidrOrThrow(cidrText);
  // Lock the merchant row: two concurrent removals must not both see one entry left.
  await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchantId}::uuid FOR UPDATE`;
  const { count } = await tx.allowlistEntry.deleteMany({ where: { merchantId, cidr } });
  if (count === 0) throw new AppError("apiallow.not_found");
  const remaining = await tx.allowlistEntry.count({ where: { merchantId } });
  if (remaining === 0) await tx.merchant.update({ where: { id: merchantId }, data: { allowlistEnabled: false } });
  forgetKeptKeysAfterCommit(tx);
  return readAllowlistIn(tx, merchantId);
});

/** spec: IP allow-list — enabling an empty list fails with `apiallow.empty`. */
export const setAllowlistEnabled = unitOf(async (tx, _deps, { merchantId, enabled }: { merchantId: string; enabled: boolean }): Promise<AllowlistView> => {
  // Lock the merchant row so a concurrent remove cannot empty the list between the count and the update.
  await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchantId}::uuid FOR UPDATE`;
  if (enabled && (await tx.allowlistEntry.count({ where: { merchantId } })) === 0) throw new AppError("apiallow.empty");
  await tx.merchant.update({ where: { id: merchantId }, data: { allowlistEnabled: enabled } });
  forgetKeptKeysAfterCommit(tx);
  return readAllowlistIn(tx, merchantId);
});
