import type { CabinetUser } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { hashToken, isLegacyRecoveryCode, normalizeRecoveryCode } from "@/lib/auth/one-time-tokens";
import { matchTotp } from "@/lib/auth/totp";

/** The associated data that binds a sealed TOTP key to its user (a key copied to another row does not open). */
export const totpSealContext = (userId: string) => `cabinet-user:${userId}:totp`;

/**
 * What a recovery code is stored as: its HMAC under a key derived from the master key (a copy of
 * the database alone cannot be searched for codes); the short codes made before, their SHA-256.
 */
export function recoveryCodeHash(box: SecretBox, userId: string, code: string): string {
  return isLegacyRecoveryCode(code) ? hashToken(code) : box.mac("recovery-code", `${userId}:${code}`);
}

export function openTotpSecret(box: SecretBox, user: Pick<CabinetUser, "id" | "totpSecretCiphertext">): string | null {
  return user.totpSecretCiphertext ? box.open(user.totpSecretCiphertext, totpSealContext(user.id)) : null;
}

/**
 * Takes a second-factor code once: a current TOTP code of a step later than the last one taken
 * (the step is moved forward in one conditional statement, so two racing requests with the same
 * code cannot both pass), or an unused recovery code (marked used the same way).
 * Returns which kind passed, or null.
 */
export async function takeSecondFactor(
  db: Db | Tx,
  box: SecretBox,
  user: Pick<CabinetUser, "id" | "totpSecretCiphertext" | "lastTotpStep">,
  code: string,
  now: Date,
): Promise<"totp" | "recovery_code" | null> {
  const typed = code.trim().replace(/\s/g, "");
  if (/^\d{6}$/.test(typed)) {
    const secret = openTotpSecret(box, user);
    if (!secret) return null;
    const step = await matchTotp(secret, typed, now, user.lastTotpStep);
    if (step === null) return null;
    const { count } = await db.cabinetUser.updateMany({
      where: { id: user.id, OR: [{ lastTotpStep: null }, { lastTotpStep: { lt: step } }] },
      data: { lastTotpStep: step },
    });
    return count === 1 ? "totp" : null;
  }
  const recovery = normalizeRecoveryCode(typed);
  if (!recovery) return null;
  const { count } = await db.cabinetRecoveryCode.updateMany({
    where: { userId: user.id, codeHash: recoveryCodeHash(box, user.id, recovery), usedAt: null },
    data: { usedAt: now },
  });
  return count === 1 ? "recovery_code" : null;
}
