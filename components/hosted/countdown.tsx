import { formatDuration } from "./describe-status";

/**
 * Time left until `expiresAtSeconds` on the server's clock. Fixed width and tabular digits, so the
 * ticking never moves anything around it. A `timer` is not announced on every tick.
 */
export function Countdown({ expiresAtSeconds, nowMs }: { expiresAtSeconds: number; nowMs: number }) {
  const secondsLeft = Math.ceil((expiresAtSeconds * 1000 - nowMs) / 1000);
  const isOver = secondsLeft <= 0;
  return (
    <div role="timer" data-testid="countdown" className="shrink-0 text-right">
      <p className="text-xs font-medium tracking-wide text-(--ui-muted) uppercase">{isOver ? "Invoice" : "Expires in"}</p>
      <p className="w-[8ch] text-right text-lg font-semibold tabular-nums">{isOver ? "Expired" : formatDuration(secondsLeft)}</p>
    </div>
  );
}
