import { generateSecret, generateURI, verify } from "otplib";

/** RFC 6238 defaults every authenticator app understands: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** One step either side: a phone clock a little off, or a code typed as it rolls over. */
const TOLERANCE_SECONDS = PERIOD_SECONDS;

/** A new TOTP key: 20 random bytes in base32, as authenticator apps take it. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI a QR code carries. */
export function totpUri(secret: string, account: string, issuer: string): string {
  return generateURI({ issuer, label: account, secret });
}

/**
 * The time step a code belongs to, or null when it is not a current code. Codes of `afterStep`
 * and earlier are refused (replay protection: each step's code is taken once).
 */
export async function matchTotp(secret: string, code: string, now: Date, afterStep: bigint | null): Promise<bigint | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  // Every step the tolerance allows was taken already (a clock set back): nothing can match, and
  // otplib would throw rather than say no.
  if (afterStep !== null && afterStep >= BigInt(Math.floor(epoch / PERIOD_SECONDS) + Math.ceil(TOLERANCE_SECONDS / PERIOD_SECONDS))) return null;
  const result = await verify({
    secret,
    token: code,
    epoch,
    period: PERIOD_SECONDS,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: Number(afterStep) }),
  });
  return result.valid ? BigInt(Math.floor(epoch / PERIOD_SECONDS) + result.delta) : null;
}
