/**
 * Colour themes for the public surfaces. A theme is a set of `--ui-*` custom properties put on a
 * wrapper element by one class string; the primitives in this folder read only those properties
 * (`bg-(--ui-surface)`), so they follow whichever theme encloses them.
 *
 * Why not Tailwind's `dark:` variant: that follows the visitor's operating system, while a hosted
 * page must follow the merchant's choice (`theme` on the invoice) whatever the device prefers, and
 * the device only where the merchant made none.
 */
export type ThemeName = "light" | "dark";

const THEME_CLASS_NAMES: Record<ThemeName, string> = {
  light: [
    "[color-scheme:light]",
    "[--ui-page:var(--color-slate-100)]",
    "[--ui-surface:var(--color-white)]",
    "[--ui-subtle:var(--color-slate-50)]",
    "[--ui-border:var(--color-slate-200)]",
    "[--ui-border-strong:var(--color-slate-400)]",
    "[--ui-fg:var(--color-slate-900)]",
    "[--ui-muted:var(--color-slate-600)]",
    "[--ui-accent:var(--color-indigo-600)]",
    "[--ui-accent-hover:var(--color-indigo-700)]",
    "[--ui-accent-fg:var(--color-white)]",
    "[--ui-accent-soft:var(--color-indigo-50)]",
    "[--ui-link:var(--color-indigo-700)]",
    "[--ui-ring:var(--color-indigo-500)]",
    "[--ui-success:var(--color-emerald-800)]",
    "[--ui-success-bg:var(--color-emerald-50)]",
    "[--ui-success-border:var(--color-emerald-200)]",
    "[--ui-warn:var(--color-amber-900)]",
    "[--ui-warn-bg:var(--color-amber-50)]",
    "[--ui-warn-border:var(--color-amber-300)]",
    "[--ui-danger:var(--color-red-800)]",
    "[--ui-danger-bg:var(--color-red-50)]",
    "[--ui-danger-border:var(--color-red-200)]",
  ].join(" "),
  dark: [
    "[color-scheme:dark]",
    "[--ui-page:var(--color-slate-950)]",
    "[--ui-surface:var(--color-slate-900)]",
    "[--ui-subtle:var(--color-slate-800)]",
    "[--ui-border:var(--color-slate-700)]",
    "[--ui-border-strong:var(--color-slate-500)]",
    "[--ui-fg:var(--color-slate-50)]",
    "[--ui-muted:var(--color-slate-300)]",
    "[--ui-accent:var(--color-indigo-600)]",
    "[--ui-accent-hover:var(--color-indigo-500)]",
    "[--ui-accent-fg:var(--color-white)]",
    "[--ui-accent-soft:var(--color-indigo-950)]",
    "[--ui-link:var(--color-indigo-300)]",
    "[--ui-ring:var(--color-indigo-400)]",
    "[--ui-success:var(--color-emerald-300)]",
    "[--ui-success-bg:var(--color-emerald-950)]",
    "[--ui-success-border:var(--color-emerald-800)]",
    "[--ui-warn:var(--color-amber-200)]",
    "[--ui-warn-bg:var(--color-amber-950)]",
    "[--ui-warn-border:var(--color-amber-700)]",
    "[--ui-danger:var(--color-red-300)]",
    "[--ui-danger-bg:var(--color-red-950)]",
    "[--ui-danger-border:var(--color-red-800)]",
  ].join(" "),
};

/** The theme an invoice asks for (spec: create invoice, `theme`), or the device's where it names none. */
export function toInvoiceTheme(value: string | null | undefined): ThemeName | "system" {
  return value === "dark" || value === "light" ? value : "system";
}

/** The class string that defines a theme's `--ui-*` properties on an element and its subtree. */
export function themeClassName(theme: ThemeName): string {
  return THEME_CLASS_NAMES[theme];
}

/** A visible keyboard focus ring in the theme's ring colour, offset from the element. */
export const FOCUS_RING =
  "outline-none focus-visible:ring-2 focus-visible:ring-(--ui-ring) focus-visible:ring-offset-2 focus-visible:ring-offset-(--ui-surface)";

/** A link among words: underlined always, not only on hover (colour alone does not tell it apart). */
export const TEXT_LINK = `text-(--ui-link) underline underline-offset-4 ${FOCUS_RING}`;

/** The `<body>` of every document: Next's root layout and the pages the server renders itself. */
export const DOCUMENT_BODY_CLASS = "min-h-screen bg-slate-50 font-sans text-slate-900 antialiased";
