import type { Metadata } from "next";
import { CabinetTheme } from "@/components/cabinet/cabinet-theme";
import { JoinTeamForm } from "@/components/cabinet/join-team-form";
import { getApiDeps } from "@/lib/api/deps";
import { readThemePreference } from "@/lib/cabinet/page-theme";
import { isAppError } from "@/lib/errors";
import { describeInvitation, type InvitationSummary } from "@/lib/services/cabinet/team";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Join a team", robots: { index: false, follow: false }, referrer: "no-referrer" };

type PageProps = { params: Promise<{ token: string }> };

async function findInvitation(token: string): Promise<InvitationSummary | null> {
  try {
    return await describeInvitation(getApiDeps(), token);
  } catch (error) {
    if (isAppError(error) && error.code === "cabinet.bad_invitation") return null;
    throw error;
  }
}

export default async function InvitePage({ params }: PageProps) {
  const { token } = await params;
  const [invitation, theme] = await Promise.all([findInvitation(token), readThemePreference()]);
  return (
    <CabinetTheme initial={theme}>
      <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center px-4 py-10">
        <p className="mb-6 text-center text-sm font-semibold tracking-wide text-(--ui-muted) uppercase">Gateway · merchant cabinet</p>
        <section aria-labelledby="invite-title" className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-6 shadow-sm">
          {invitation ? (
            <>
              <h1 id="invite-title" className="text-2xl font-semibold">
                Join {invitation.merchantName}
              </h1>
              <p className="mt-1 text-sm text-(--ui-muted)">
                You are invited as <strong className="text-(--ui-fg)">{invitation.role}</strong> with <strong className="text-(--ui-fg)">{invitation.email}</strong>. Choose a
                password; at your first sign-in you will set up two-factor authentication.
              </p>
              <JoinTeamForm token={token} email={invitation.email} />
            </>
          ) : (
            <>
              <h1 id="invite-title" className="text-2xl font-semibold">
                This invitation cannot be used
              </h1>
              <p className="mt-2 text-sm text-(--ui-muted)">It is unknown, has expired, was withdrawn, or was already accepted. Ask the store&apos;s owner for a new one.</p>
              <a href="/cabinet/sign-in" className="mt-4 inline-block text-(--ui-link) underline">
                Go to sign-in
              </a>
            </>
          )}
        </section>
      </main>
    </CabinetTheme>
  );
}
