/** A determinate progress bar: `value` of `max` steps, announced by its label. */
export function ProgressBar({ value, max, label, valueText }: { value: number; max: number; label: string; valueText?: string }) {
  const safeMax = Math.max(1, max);
  const clamped = Math.min(Math.max(0, value), safeMax);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={safeMax}
      aria-valuenow={clamped}
      aria-valuetext={valueText}
      className="h-3 w-full overflow-hidden rounded-full bg-(--ui-subtle) ring-1 ring-(--ui-border) ring-inset"
    >
      <div
        className="h-full rounded-full bg-(--ui-accent) transition-[width] duration-500 ease-out motion-reduce:transition-none"
        style={{ width: `${(clamped / safeMax) * 100}%` }}
      />
    </div>
  );
}
