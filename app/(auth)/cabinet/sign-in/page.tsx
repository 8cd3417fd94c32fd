import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { CabinetTheme } from "@/components/cabinet/cabinet-theme";
import { SignInFlow, type SignInStep } from "@/components/cabinet/sign-in-flow";
import { getApiDeps } from "@/lib/api/deps";
import { TICKET_COOKIE } from "@/lib/cabinet/auth-options";
import { findCurrentActor } from "@/lib/cabinet/current-actor";
import { readThemePreference } from "@/lib/cabinet/page-theme";
import { showEnrolmentKey } from "@/lib/services/cabinet/enrolment";
import { describeTicket } from "@/lib/services/cabinet/sign-in";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false, follow: false } };

/** Which step to show: the ticket cookie from the password step decides, so a reload keeps the step. */
async function currentStep(): Promise<SignInStep> {
  const deps = getApiDeps();
  const token = (await cookies()).get(TICKET_COOKIE)?.value ?? "";
  const ticket = token ? await describeTicket(deps.db, token, deps.now()) : null;
  if (!ticket) return { kind: "password" };
  if (ticket.purpose === "enrolled") return { kind: "enrolled", email: ticket.email };
  if (ticket.purpose === "code") return { kind: "code", email: ticket.email };
  const key = await showEnrolmentKey(deps, token);
  return { kind: "enrol", email: key.email, secret: key.secret, qrDataUrl: key.qrDataUrl };
}

export default async function SignInPage() {
  if (await findCurrentActor()) redirect("/cabinet");
  const [step, theme] = await Promise.all([currentStep(), readThemePreference()]);
  return (
    <CabinetTheme initial={theme}>
      <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center px-4 py-10">
        <p className="mb-6 text-center text-sm font-semibold tracking-wide text-(--ui-muted) uppercase">Gateway · merchant cabinet</p>
        <SignInFlow step={step} />
      </main>
    </CabinetTheme>
  );
}
