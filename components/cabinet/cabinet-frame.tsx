"use client";

import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect, useState, type ReactNode } from "react";
import { buttonClassName } from "@/components/ui/button";
import { FOCUS_RING } from "@/components/ui/theme";
import { ThemeSwitcher } from "./cabinet-theme";

export interface NavItem {
  href: string;
  label: string;
}

/** The cabinet's pages, in the order a merchant's day goes. */
export const CABINET_NAV: NavItem[] = [
  { href: "/cabinet", label: "Overview" },
  { href: "/cabinet/invoices", label: "Invoices" },
  { href: "/cabinet/payouts", label: "Payouts" },
  { href: "/cabinet/payment-links", label: "Payment links" },
  { href: "/cabinet/payout-links", label: "Payout links" },
  { href: "/cabinet/wallets", label: "Static wallets" },
  { href: "/cabinet/settings", label: "Settings" },
  { href: "/cabinet/webhooks", label: "Webhooks" },
  { href: "/cabinet/api-keys", label: "API keys" },
  { href: "/cabinet/team", label: "Team" },
  { href: "/cabinet/account", label: "Account" },
];

function isCurrent(pathname: string, href: string): boolean {
  return href === "/cabinet" ? pathname === "/cabinet" : pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * Beside a followed link while its page loads (a slow network): a spinner, and words for screen
 * readers. Pages keep their own status codes (a loading boundary would answer 200 for not found).
 */
function PendingMark() {
  const { pending } = useLinkStatus();
  if (!pending) return null;
  return (
    <span role="status" className="ml-2 inline-flex align-middle" data-testid="nav-pending">
      <span aria-hidden="true" className="size-3 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none" />
      <span className="sr-only">Loading…</span>
    </span>
  );
}

function Navigation({ pathname }: { pathname: string }) {
  return (
    <ul className="flex flex-col gap-1">
      {CABINET_NAV.map((item) => {
        const current = isCurrent(pathname, item.href);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={current ? "page" : undefined}
              className={`block rounded-lg px-3 py-2 text-sm font-medium ${FOCUS_RING} ${
                current ? "bg-(--ui-accent-soft) text-(--ui-link)" : "text-(--ui-fg) hover:bg-(--ui-subtle)"
              }`}
            >
              {item.label}
              <PendingMark />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The frame of every cabinet page: the store's name, who is signed in, the navigation (a side bar
 * on wide screens, a menu button on phones), the theme and signing out.
 */
export function CabinetFrame({ storeName, email, role, children }: { storeName: string; email: string; role: string; children: ReactNode }) {
  const pathname = usePathname();
  const [isMenuOpen, setMenuOpen] = useState(false);
  // A followed link closes the phone menu.
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <div className="min-h-dvh lg:grid lg:grid-cols-[15rem_1fr]">
      <a href="#content" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-(--ui-surface) focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="flex items-center justify-between gap-3 border-b border-(--ui-border) bg-(--ui-surface) px-4 py-3 lg:hidden">
        <span className="truncate font-semibold">{storeName}</span>
        <button
          type="button"
          aria-expanded={isMenuOpen}
          aria-controls="cabinet-menu"
          onClick={() => setMenuOpen((open) => !open)}
          className={buttonClassName("secondary", "min-h-10 px-3 py-1 text-sm")}
        >
          Menu
        </button>
      </header>
      <nav
        id="cabinet-menu"
        aria-label="Cabinet"
        className={`${isMenuOpen ? "block" : "hidden"} border-b border-(--ui-border) bg-(--ui-surface) px-3 py-3 lg:sticky lg:top-0 lg:block lg:h-dvh lg:overflow-y-auto lg:border-r lg:border-b-0`}
      >
        <p className="mb-4 hidden truncate px-3 text-base font-semibold lg:block">{storeName}</p>
        <Navigation pathname={pathname} />
        <div className="mt-6 flex flex-col gap-3 border-t border-(--ui-border) px-3 pt-4">
          <p className="text-sm">
            <span className="block truncate font-medium">{email}</span>
            <span className="text-(--ui-muted) capitalize">{role}</span>
          </p>
          <ThemeSwitcher />
          <button type="button" onClick={() => void signOut({ callbackUrl: "/cabinet/sign-in" })} className={buttonClassName("secondary", "min-h-10 text-sm")}>
            Sign out
          </button>
        </div>
      </nav>
      <main id="content" className="min-w-0 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
        {children}
      </main>
    </div>
  );
}
