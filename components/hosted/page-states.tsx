"use client";

import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import type { PageMessageKey } from "@/lib/i18n/translator";
import { HostedShell } from "./hosted-shell";

/** A public page's 404: what the link was, why it leads nowhere, what to do instead. */
export function NotFoundState({ titleKey, detailKey, warningKey }: { titleKey: PageMessageKey; detailKey: PageMessageKey; warningKey?: PageMessageKey }) {
  const { t } = useI18n();
  return (
    <HostedShell theme="system">
      <div className="flex flex-col gap-3 pt-6">
        <p className="text-sm font-medium text-(--ui-muted)">{t("common.notFoundLabel")}</p>
        <h1 className="text-2xl font-semibold tracking-tight">{t(titleKey)}</h1>
        <p>{t(detailKey)}</p>
        {warningKey ? <p className="text-sm text-(--ui-muted)">{t(warningKey)}</p> : null}
      </div>
    </HostedShell>
  );
}

/** A public page whose data could not be loaded: nothing changed, try again. */
export function LoadError({ titleKey, detailKey, reset }: { titleKey: PageMessageKey; detailKey: PageMessageKey; reset: () => void }) {
  const { t } = useI18n();
  return (
    <HostedShell theme="system">
      <div role="alert" className="flex flex-col gap-3 pt-6">
        <h1 className="text-2xl font-semibold tracking-tight">{t(titleKey)}</h1>
        <p className="text-(--ui-muted)">{t(detailKey)}</p>
      </div>
      <Button onClick={reset} className="self-start">
        {t("common.tryAgain")}
      </Button>
    </HostedShell>
  );
}
