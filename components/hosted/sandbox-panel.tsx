import { Button } from "@/components/ui/button";

/** The sandbox wallet, marked so nobody mistakes it for a real way to pay. */
export function SandboxPanel({ onPay, isRunning, error, canPay }: { onPay(): void; isRunning: boolean; error: string | null; canPay: boolean }) {
  return (
    <section aria-labelledby="sandbox-heading" className="rounded-2xl border-2 border-dashed border-(--ui-warn-border) bg-(--ui-warn-bg) p-5 text-(--ui-warn)">
      <div className="flex items-center gap-2">
        <span className="rounded-md bg-(--ui-warn) px-2 py-0.5 text-xs font-bold tracking-wider text-(--ui-warn-bg) uppercase">Sandbox</span>
        <h2 id="sandbox-heading" className="font-semibold">
          Test mode
        </h2>
      </div>
      <p className="mt-2 text-sm">
        This gateway runs on sandbox chains: no real money moves. The sandbox wallet sends the amount due to this invoice and mines blocks until the payment is confirmed.
      </p>
      {error ? (
        <p role="alert" className="mt-3 text-sm font-medium">
          {error}
        </p>
      ) : null}
      {canPay || isRunning ? (
        <Button variant="secondary" onClick={onPay} disabled={isRunning} aria-busy={isRunning} className="mt-4 w-full border-(--ui-warn-border)">
          {isRunning ? "Sandbox wallet is paying…" : "Pay with a sandbox wallet"}
        </Button>
      ) : null}
    </section>
  );
}
