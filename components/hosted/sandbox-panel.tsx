"use client";

import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";

/** The sandbox wallet, marked so nobody mistakes it for a real way to pay. */
export function SandboxPanel({ onPay, isRunning, error, canPay }: { onPay(): void; isRunning: boolean; error: string | null; canPay: boolean }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="sandbox-heading" className="rounded-2xl border-2 border-dashed border-(--ui-warn-border) bg-(--ui-warn-bg) p-5 text-(--ui-warn)">
      <div className="flex items-center gap-2">
        <span className="rounded-md bg-(--ui-warn) px-2 py-0.5 text-xs font-bold tracking-wider text-(--ui-warn-bg) uppercase">{t("common.sandboxBadge")}</span>
        <h2 id="sandbox-heading" className="font-semibold">
          {t("payment.sandbox.heading")}
        </h2>
      </div>
      <p className="mt-2 text-sm">
        {t("payment.sandbox.detail")}
      </p>
      {error ? (
        <p role="alert" className="mt-3 text-sm font-medium">
          {error}
        </p>
      ) : null}
      {canPay || isRunning ? (
        <Button variant="secondary" onClick={onPay} disabled={isRunning} aria-busy={isRunning} className="mt-4 w-full border-(--ui-warn-border)">
          {isRunning ? t("payment.sandbox.paying") : t("payment.sandbox.pay")}
        </Button>
      ) : null}
    </section>
  );
}
