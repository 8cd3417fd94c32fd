"use client";

import { useI18n } from "@/components/i18n/i18n-provider";
import { formatDuration } from "@/lib/i18n/format";

/**
 * Time left until `expiresAtSeconds` on the server's clock. Fixed width and tabular digits, so the
 * ticking never moves anything around it. A `timer` is not announced on every tick.
 */
export function Countdown({ expiresAtSeconds, nowMs, label, overLabel, overText }: { expiresAtSeconds: number; nowMs: number; label: string; overLabel: string; overText: string }) {
  const secondsLeft = Math.ceil((expiresAtSeconds * 1000 - nowMs) / 1000);
  const isOver = secondsLeft <= 0;
  return (
    <div role="timer" data-testid="countdown" className="shrink-0 text-right">
      <p className="text-xs font-medium tracking-wide text-(--ui-muted) uppercase">{isOver ? overLabel : label}</p>
      <p className="min-w-[8ch] text-right text-lg font-semibold tabular-nums">{isOver ? overText : formatDuration(secondsLeft)}</p>
    </div>
  );
}

/** The invoice's countdown in the page's language. */
export function InvoiceCountdown({ expiresAtSeconds, nowMs }: { expiresAtSeconds: number; nowMs: number }) {
  const { t } = useI18n();
  return <Countdown expiresAtSeconds={expiresAtSeconds} nowMs={nowMs} label={t("payment.countdownLabel")} overLabel={t("payment.countdownOverLabel")} overText={t("payment.countdownOver")} />;
}
