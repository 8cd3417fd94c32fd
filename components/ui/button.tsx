import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from "react";
import { FOCUS_RING } from "./theme";

export type ButtonVariant = "primary" | "secondary" | "ghost";

const BASE =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 text-base font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-(--ui-accent) text-(--ui-accent-fg) hover:bg-(--ui-accent-hover)",
  secondary: "border border-(--ui-border-strong) bg-(--ui-surface) text-(--ui-fg) hover:bg-(--ui-subtle)",
  ghost: "text-(--ui-link) underline-offset-4 hover:underline",
};

/** The classes of a button (or a link styled as one): at least 44 px tall, with a focus ring. */
export function buttonClassName(variant: ButtonVariant = "primary", extra = ""): string {
  return `${BASE} ${VARIANTS[variant]} ${FOCUS_RING} ${extra}`.trim();
}

export function Button({ variant = "primary", className = "", type = "button", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClassName(variant, className)} {...props} />;
}

/** A link that looks like a button; for navigation away from the page (store links). */
export function ButtonLink({ variant = "primary", className = "", ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant }) {
  return <a className={buttonClassName(variant, className)} {...props} />;
}
