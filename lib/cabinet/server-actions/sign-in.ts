"use server";

import { cookies } from "next/headers";
import { getApiDeps } from "@/lib/api/deps";
import { TICKET_COOKIE } from "@/lib/cabinet/auth-options";
import { currentOrigin } from "@/lib/cabinet/request-origin";
import { getConfig } from "@/lib/config/env";
import { isAppError } from "@/lib/errors";
import { checkPassword, confirmEnrolment } from "@/lib/cabinet/sign-in";
import type { IssuedTicket } from "@/lib/services/cabinet/sign-in";

export type StepResult<T = object> = ({ ok: true } & T) | { ok: false; code: string; message: string };

async function keepTicket(ticket: IssuedTicket): Promise<void> {
  (await cookies()).set(TICKET_COOKIE, ticket.token, {
    httpOnly: true,
    sameSite: "strict",
    secure: getConfig().publicBaseUrl.startsWith("https://"),
    path: "/",
    expires: ticket.expiresAt,
  });
}

function refusal(error: unknown): StepResult<never> {
  if (isAppError(error)) return { ok: false, code: error.code, message: error.message };
  throw error;
}

/** Step one: e-mail and password. The ticket for step two goes into an httpOnly cookie. */
export async function submitPassword(email: string, password: string): Promise<StepResult<{ next: IssuedTicket["purpose"] }>> {
  try {
    const ticket = await checkPassword(getApiDeps(), { email: String(email), password: String(password) }, await currentOrigin());
    await keepTicket(ticket);
    return { ok: true, next: ticket.purpose };
  } catch (error) {
    return refusal(error);
  }
}

/** Enrolment: the first code from the app turns TOTP on; the recovery codes come back once. */
export async function submitEnrolmentCode(code: string): Promise<StepResult<{ recoveryCodes: string[] }>> {
  try {
    const ticket = (await cookies()).get(TICKET_COOKIE)?.value ?? "";
    const confirmed = await confirmEnrolment(getApiDeps(), { ticket, code: String(code) }, await currentOrigin());
    await keepTicket(confirmed.ticket);
    return { ok: true, recoveryCodes: confirmed.recoveryCodes };
  } catch (error) {
    return refusal(error);
  }
}

/** "Use another account": forgets the ticket. */
export async function restartSignIn(): Promise<void> {
  (await cookies()).delete(TICKET_COOKIE);
}
