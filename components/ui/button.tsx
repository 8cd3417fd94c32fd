import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from "react";
import { FOCUS_RING } from "./theme";

export type ButtonVariant = "primary" | "secondary" | "ghost";

const BASE = "inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60";

export type ButtonSize = "normal" | "small";

/** Normal buttons are at least 44 px tall (a touch target); small ones act on one row of a table. */
const SIZES: Record<ButtonSize, string> = {
  normal: "min-h-11 px-4 py-2 text-base",
  small: "min-h-9 px-3 py-1 text-sm",
};

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-(--ui-accent) text-(--ui-accent-fg) hover:bg-(--ui-accent-hover)",
  secondary: "border border-(--ui-border-strong) bg-(--ui-surface) text-(--ui-fg) hover:bg-(--ui-subtle)",
  ghost: "text-(--ui-link) underline-offset-4 hover:underline",
};

/** The classes of a button (or a link styled as one), with a focus ring. */
export function buttonClassName(variant: ButtonVariant = "primary", extra = "", size: ButtonSize = "normal"): string {
  return `${BASE} ${SIZES[size]} ${VARIANTS[variant]} ${FOCUS_RING} ${extra}`.trim();
}

export function Button({ variant = "primary", size = "normal", className = "", type = "button", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={buttonClassName(variant, className, size)} {...props} />;
}

/** A link that looks like a button; for navigation away from the page (store links). */
export function ButtonLink({ variant = "primary", className = "", ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant }) {
  return <a className={buttonClassName(variant, className)} {...props} />;
}
