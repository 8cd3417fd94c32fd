import type { InputHTMLAttributes, ReactNode } from "react";
import { FOCUS_RING } from "@/components/ui/theme";

export const INPUT_CLASS = `min-h-11 w-full rounded-lg border border-(--ui-border-strong) bg-(--ui-surface) px-3 py-2 text-base text-(--ui-fg) placeholder:text-(--ui-muted) ${FOCUS_RING}`;

/**
 * A labelled input with an optional hint and error, tied together for screen readers. A caller's
 * `className` (a monospaced address) adds to the input's own border and padding, never replaces them.
 */
export function Field({
  id,
  label,
  hint,
  error,
  className,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string; hint?: ReactNode; error?: string | null }) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input id={id} aria-describedby={described} aria-invalid={error ? true : undefined} {...input} className={className ? `${INPUT_CLASS} ${className}` : INPUT_CLASS} />
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-(--ui-muted)">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-(--ui-danger)">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled select with an optional hint; controlled (value and onChange) or not (defaultValue). */
export function Select({
  id,
  label,
  name,
  value,
  defaultValue,
  onChange,
  children,
  hint,
}: {
  id: string;
  label: string;
  name: string;
  value?: string;
  defaultValue?: string;
  onChange?(value: string): void;
  children: ReactNode;
  hint?: string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} value={value} defaultValue={defaultValue} onChange={onChange ? (event) => onChange(event.target.value) : undefined} aria-describedby={hint ? `${id}-hint` : undefined} className={INPUT_CLASS}>
        {children}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-(--ui-muted)">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A message the user must see now (a refusal, a failure), read out by screen readers. */
export function Alert({ tone = "danger", children }: { tone?: "danger" | "warn" | "success"; children: ReactNode }) {
  const tones = {
    danger: "border-(--ui-danger-border) bg-(--ui-danger-bg) text-(--ui-danger)",
    warn: "border-(--ui-warn-border) bg-(--ui-warn-bg) text-(--ui-warn)",
    success: "border-(--ui-success-border) bg-(--ui-success-bg) text-(--ui-success)",
  };
  return (
    <div role={tone === "success" ? "status" : "alert"} className={`rounded-lg border px-3 py-2 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
