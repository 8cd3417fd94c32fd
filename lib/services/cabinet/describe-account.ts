import type { Db } from "@/lib/db/client";
import type { CabinetActor } from "@/lib/services/cabinet/sessions";

/** The signed-in user's own security facts for the account page. */
export async function describeAccount(db: Db, actor: CabinetActor): Promise<{ twoFactorSince: Date | null; unusedRecoveryCodes: number; memberSince: Date }> {
  const [user, unusedRecoveryCodes] = await Promise.all([
    db.cabinetUser.findUniqueOrThrow({ where: { id: actor.userId }, select: { totpEnabledAt: true, createdAt: true } }),
    db.cabinetRecoveryCode.count({ where: { userId: actor.userId, usedAt: null } }),
  ]);
  return { twoFactorSince: user.totpEnabledAt, unusedRecoveryCodes, memberSince: user.createdAt };
}
