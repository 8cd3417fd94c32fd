import { randomUUID } from "node:crypto";
import type { CabinetUser } from "@/generated/prisma/client";
import { hashPassword } from "@/lib/auth/passwords";
import type { Db, Tx } from "@/lib/db/client";
import type { CabinetRole } from "@/lib/domain/cabinet/permissions";
import { AppError } from "@/lib/errors";
import { normalizeEmail } from "./sign-in";

export const MIN_PASSWORD_LENGTH = 8;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}

/** A password worth hashing: long enough, and not absurdly long (scrypt's cost grows with it). */
export function assertAcceptablePassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 1024) throw new AppError("cabinet.weak_password");
}

/** Hashes the password outside any transaction (scrypt takes ~50 ms); pass the hash to `insertCabinetUser`. */
export async function preparePassword(password: string): Promise<string> {
  assertAcceptablePassword(password);
  return hashPassword(password);
}

/** A new cabinet user of a merchant. TOTP is enrolled on the first sign-in. */
export async function insertCabinetUser(
  tx: Tx,
  input: { merchantId: string; email: string; passwordHash: string; role: CabinetRole },
  now: Date,
): Promise<CabinetUser> {
  const email = normalizeEmail(input.email);
  if (!isEmailAddress(email)) throw new AppError("cabinet.bad_request", `"${input.email}" is not an e-mail address.`);
  // A taken address answers its own code, not a constraint violation; the unique index settles races.
  if (await tx.cabinetUser.findUnique({ where: { email }, select: { id: true } })) throw new AppError("cabinet.email_taken");
  return tx.cabinetUser.create({
    data: { id: randomUUID(), merchantId: input.merchantId, email, passwordHash: input.passwordHash, role: input.role, createdAt: now, enrolmentStartedAt: now, updatedAt: now },
  });
}

/** A user as the row is now (the signed-in actor's, whose session was just checked). */
export async function loadCabinetUser(db: Db, userId: string): Promise<CabinetUser> {
  return db.cabinetUser.findUniqueOrThrow({ where: { id: userId } });
}
