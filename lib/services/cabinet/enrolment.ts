import { randomUUID } from "node:crypto";
import QRCode from "qrcode";
import type { CabinetUser } from "@/generated/prisma/client";
import { newRecoveryCodes } from "@/lib/auth/one-time-tokens";
import { matchTotp, newTotpSecret, totpUri } from "@/lib/auth/totp";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Tx } from "@/lib/db/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { unitOf, type UnitOfWork } from "@/lib/deps/unit-of-work";
import { AppError } from "@/lib/errors";
import { recordAudit } from "./audit-log";
import type { CabinetDeps, RequestOrigin } from "./cabinet-deps";
import { recoveryCodeHash, totpSealContext } from "./second-factor";
import { findLiveTicket, issueTicket, recordFailedAttempt, useTicket, type AdmittedAttempt, type IssuedTicket, type Refused } from "./sign-in";
import { giveAttemptBack } from "./throttle";

/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = "Gateway";

export interface EnrolmentKey {
  email: string;
  /** The key as text (base32), for typing into an app that cannot scan. */
  secret: string;
  /** The otpauth:// URI as a QR code (a PNG data URL). */
  qrDataUrl: string;
}

/** The associated data that binds an enrolment key to its ticket. */
const enrolmentSealContext = (ticketId: string) => `cabinet-ticket:${ticketId}:totp`;

/**
 * The key a user enrols, for an `enrol` ticket: one of the ticket's own, shown again on every
 * reload of that ticket (a reload must not invalidate what the phone already scanned). Another
 * ticket — another sign-in with the password — gets another key, so whoever else knows an
 * unenrolled user's password never sees the key the user scans.
 */
export async function showEnrolmentKey(deps: CabinetDeps, ticketToken: string): Promise<EnrolmentKey> {
  const now = deps.now();
  const { ticket, user } = await findLiveTicket(deps.db, ticketToken, ["enrol"], now);
  let secret = ticket.enrolmentSecretCiphertext ? deps.secretBox.open(ticket.enrolmentSecretCiphertext, enrolmentSealContext(ticket.id)) : null;
  if (!secret) {
    const fresh = newTotpSecret();
    // Conditional: two reloads racing keep one key.
    await deps.db.cabinetSignInTicket.updateMany({ where: { id: ticket.id, enrolmentSecretCiphertext: null }, data: { enrolmentSecretCiphertext: deps.secretBox.seal(fresh, enrolmentSealContext(ticket.id)) } });
    const stored = await deps.db.cabinetSignInTicket.findUniqueOrThrow({ where: { id: ticket.id } });
    secret = deps.secretBox.open(stored.enrolmentSecretCiphertext!, enrolmentSealContext(ticket.id));
  }
  const qrDataUrl = await QRCode.toDataURL(totpUri(secret, user.email, TOTP_ISSUER), { margin: 1, width: 220 });
  return { email: user.email, secret, qrDataUrl };
}

export interface ConfirmedEnrolment {
  /** Ten single-use codes, shown once: only their hashes are kept. */
  recoveryCodes: string[];
  /** Turns into a session without another code (the one just typed proved the key). */
  ticket: IssuedTicket;
}

/** An `enrol` ticket's user and the key the ticket showed, or `cabinet.bad_ticket` when it showed none. */
export async function findEnrolmentKey(deps: Pick<AppDeps, "db" | "secretBox">, ticketToken: string, now: Date) {
  const { ticket, user } = await findLiveTicket(deps.db, ticketToken, ["enrol"], now);
  const secret = ticket.enrolmentSecretCiphertext ? deps.secretBox.open(ticket.enrolmentSecretCiphertext, enrolmentSealContext(ticket.id)) : null;
  if (!secret) throw new AppError("cabinet.bad_ticket", "Open the enrolment page again to get your key.");
  return { ticket, user, secret };
}

/**
 * Confirms the key with a code from the app (an attempt counted by beginAttempt): TOTP is on,
 * recovery codes are made, the enrol ticket is spent.
 */
export const enrolAuthenticator: UnitOfWork<EnrolmentRequest, EnrolmentRequest & { step: bigint | null }, ConfirmedEnrolment | Refused> = {
  prepare: async (_deps, request) => ({ ...request, step: await matchTotp(request.secret, request.code.trim(), request.attempt.now, null) }),
  execute: async (tx, deps, { attempt, taken, ticket, user, secret, step }) => {
    const { origin, now } = attempt;
    if (step === null) return recordFailedAttempt(tx, deps, attempt, "cabinet.bad_code", taken);
    await useTicket(tx, ticket.id, now);
    // The ticket's key becomes the user's, sealed to the user.
    const { count } = await tx.cabinetUser.updateMany({
      where: { id: user.id, totpEnabledAt: null },
      data: { totpEnabledAt: now, lastTotpStep: step, totpSecretCiphertext: deps.secretBox.seal(secret, totpSealContext(user.id)) },
    });
    if (count !== 1) throw new AppError("cabinet.bad_ticket");
    // The user's other tickets were made for a user without TOTP: none of them may show the key now.
    await tx.cabinetSignInTicket.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    await giveAttemptBack(tx, taken.source, now);
    const recoveryCodes = await replaceRecoveryCodes(tx, deps.secretBox, user.id, now);
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "two_factor.enrolled", outcome: "success", origin }, now);
    return { recoveryCodes, ticket: await issueTicket(tx, user.id, "enrolled", now) };
  },
};

interface EnrolmentRequest extends AdmittedAttempt {
  ticket: { id: string };
  user: CabinetUser;
  secret: string;
  code: string;
}

/** A new set of ten recovery codes; the old ones stop working. Returns them in clear, once. */
export async function replaceRecoveryCodes(tx: Tx, box: SecretBox, userId: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.cabinetRecoveryCode.deleteMany({ where: { userId } });
  await tx.cabinetRecoveryCode.createMany({ data: codes.map((code) => ({ id: randomUUID(), userId, codeHash: recoveryCodeHash(box, userId, code), createdAt: now })) });
  return codes;
}

/** New recovery codes for a signed-in user (the old ones stop working), shown once. */
export const regenerateRecoveryCodes = unitOf(async (tx, deps, { actor, origin }: { actor: { userId: string; merchantId: string; email: string }; origin: RequestOrigin }): Promise<string[]> => {
  const now = deps.now();
  const codes = await replaceRecoveryCodes(tx, deps.secretBox, actor.userId, now);
  await recordAudit(tx, { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "two_factor.recovery_codes_regenerated", outcome: "success", origin }, now);
  return codes;
});
