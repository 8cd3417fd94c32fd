"use client";

import { useEffect, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, ButtonLink } from "@/components/ui/button";

/** Seconds before a paid invoice sends the buyer on to the merchant's success page. */
const REDIRECT_AFTER_SECONDS = 5;

/**
 * "Back to <store>" once the store has its money: to the merchant's success page, followed
 * automatically unless the buyer stays, or else to its return page (not followed by itself).
 */
export function SuccessActions({ successUrl, returnUrl, backLabel }: { successUrl: string | null; returnUrl: string | null; backLabel: string }) {
  const { t } = useI18n();
  const [secondsLeft, setSecondsLeft] = useState(REDIRECT_AFTER_SECONDS);
  const [isCancelled, setIsCancelled] = useState(false);
  const href = successUrl ?? returnUrl;

  useEffect(() => {
    if (isCancelled || !successUrl) return;
    if (secondsLeft <= 0) {
      window.location.assign(successUrl);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, isCancelled, successUrl]);

  return (
    <div className="flex flex-col gap-3">
      {href ? (
        <ButtonLink href={href} className="w-full text-center wrap-anywhere" data-testid="back-to-store">
          {backLabel}
        </ButtonLink>
      ) : null}
      {isCancelled || !successUrl ? null : (
        <p className="flex min-h-11 flex-wrap items-center justify-center gap-x-2 text-center text-sm text-(--ui-muted)" data-testid="redirect-notice">
          <span className="tabular-nums">{t("payment.success.returning", { seconds: Math.max(0, secondsLeft) })}</span>
          <Button variant="ghost" className="px-2 text-sm" onClick={() => setIsCancelled(true)}>
            {t("payment.success.stay")}
          </Button>
        </p>
      )}
    </div>
  );
}
