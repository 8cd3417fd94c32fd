"use client";

import { useI18n } from "@/components/i18n/i18n-provider";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { StatusDescription, StatusTone } from "./describe-status";

const TONE_CLASSES: Record<StatusTone, string> = {
  neutral: "border-(--ui-border) bg-(--ui-surface)",
  waiting: "border-(--ui-border) bg-(--ui-surface)",
  progress: "border-(--ui-border) bg-(--ui-surface)",
  success: "border-(--ui-success-border) bg-(--ui-success-bg) text-(--ui-success)",
  warning: "border-(--ui-warn-border) bg-(--ui-warn-bg) text-(--ui-warn)",
  danger: "border-(--ui-danger-border) bg-(--ui-danger-bg) text-(--ui-danger)",
};

/**
 * The status of the invoice in words, with the raw status in `data-status` for tests and
 * integrators. Not a live region itself: the page announces changes in one place.
 */
export function StatusPanel({
  status,
  description,
  confirmations,
  requiredConfirmations,
  timer,
  notice,
}: {
  status: string;
  description: StatusDescription;
  confirmations: number;
  requiredConfirmations: number;
  /** The countdown, while time matters. */
  timer?: React.ReactNode;
  /** A transient problem such as a lost connection. */
  notice?: string | null;
}) {
  const { t } = useI18n();
  const isProgress = description.tone === "progress";
  const required = Math.max(1, requiredConfirmations);
  return (
    <section aria-labelledby="payment-status-heading" data-testid="payment-status" data-status={status} className={`rounded-2xl border p-5 shadow-sm ${TONE_CLASSES[description.tone]}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <StatusIcon tone={description.tone} />
          <h2 id="payment-status-heading" className="text-lg leading-snug font-semibold">
            {description.headline}
          </h2>
        </div>
        {timer}
      </div>
      {isProgress ? (
        <div className="mt-4">
          <ProgressBar value={confirmations} max={required} label={t("payment.confirmationsLabel")} valueText={t("payment.confirmationsValue", { count: Math.min(confirmations, required), required })} />
        </div>
      ) : null}
      <p className={`mt-3 text-sm ${description.tone === "success" || description.tone === "warning" || description.tone === "danger" ? "" : "text-(--ui-muted)"}`}>{description.detail}</p>
      {notice ? (
        <p role="status" className="mt-3 text-sm font-medium text-(--ui-warn)">
          {notice}
        </p>
      ) : null}
    </section>
  );
}

function StatusIcon({ tone }: { tone: StatusTone }) {
  const frame = "mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full";
  switch (tone) {
    case "success":
      return (
        <span aria-hidden="true" className={`${frame} bg-(--ui-success) text-(--ui-success-bg)`}>
          <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2.5">
            <path d="m4.5 10.5 3.5 3.5 7.5-8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
      );
    case "danger":
    case "warning":
      return (
        <span aria-hidden="true" className={`${frame} border-2 border-current text-sm font-bold`}>
          !
        </span>
      );
    case "progress":
      return <span aria-hidden="true" className={`${frame} animate-spin border-[3px] border-(--ui-border) border-t-(--ui-accent) motion-reduce:animate-none`} />;
    case "waiting":
      return (
        <span aria-hidden="true" className={frame}>
          <span className="size-3 animate-pulse rounded-full bg-(--ui-ring) motion-reduce:animate-none" />
        </span>
      );
    default:
      return (
        <span aria-hidden="true" className={frame}>
          <span className="size-3 rounded-full bg-(--ui-border-strong)" />
        </span>
      );
  }
}
