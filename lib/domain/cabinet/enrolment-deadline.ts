/**
 * How long a new cabinet user (made by the CLI with its store, or by accepting an invitation) has
 * to set up an authenticator app; the operator's reset of a user's second factor (`user reset`)
 * starts the same time again, from `enrolmentStartedAt`. Past it, the account can no longer enrol or sign in
 * (`cabinet.enrolment_expired`): a password handed out and never used does not stay a way in. An
 * owner invites the address again; the periodic job `cabinet.expire-enrolment` deletes such
 * accounts, freeing their addresses.
 */
export const ENROLMENT_DEADLINE_MS = 7 * 86_400_000;

/** Whether a user has gone without enrolling TOTP past the deadline, at `now`. */
export function isEnrolmentExpired(user: { totpEnabledAt: Date | null; enrolmentStartedAt: Date }, now: Date): boolean {
  return user.totpEnabledAt === null && now.getTime() - user.enrolmentStartedAt.getTime() >= ENROLMENT_DEADLINE_MS;
}

/** The time by which a user whose enrolment started at `enrolmentStartedAt` must have enrolled. */
export function enrolmentDeadline(enrolmentStartedAt: Date): Date {
  return new Date(enrolmentStartedAt.getTime() + ENROLMENT_DEADLINE_MS);
}

/** The enrolment start at or before which an unenrolled user is past the deadline at `now`. */
export function enrolmentCutoff(now: Date): Date {
  return new Date(now.getTime() - ENROLMENT_DEADLINE_MS);
}
