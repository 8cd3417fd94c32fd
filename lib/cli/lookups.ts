import os from "node:os";
import type { Db } from "@/lib/db/client";
import { isUuid } from "@/lib/domain/input/uuid";
import { CliError } from "./cli-error";

/** The merchant named by --merchant, or `cli.not_found`. */
export async function requireMerchant(db: Db, merchantId: string): Promise<{ id: string; name: string }> {
  const merchant = isUuid(merchantId) ? await db.merchant.findUnique({ where: { id: merchantId }, select: { id: true, name: true } }) : null;
  if (!merchant) throw new CliError("cli.not_found", `No merchant ${merchantId}`);
  return merchant;
}

/**
 * The cabinet user named by --email (any case, as at sign-in), or `cli.not_found`: an unknown
 * address, or a member removed from their store's team (removal is final; an owner invites again).
 */
export async function requireCabinetUser(db: Db, email: string): Promise<{ id: string; email: string }> {
  const normalized = email.trim().toLowerCase();
  const user = normalized === "" ? null : await db.cabinetUser.findUnique({ where: { email: normalized }, select: { id: true, email: true, disabledAt: true } });
  if (!user) throw new CliError("cli.not_found", `No cabinet user ${email}`);
  if (user.disabledAt) throw new CliError("cli.not_found", `${user.email} was removed from its store's team`);
  return { id: user.id, email: user.email };
}

/**
 * Who acts from this CLI, as payouts record their creators and approvers (`cli:<os user>`):
 * the four-eyes rule then tells the operator apart from the merchant's keys and users.
 */
export function cliActor(): string {
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    // No passwd entry for the uid (some containers): the environment still names the user.
    user = process.env.USER ?? process.env.LOGNAME ?? "operator";
  }
  return `cli:${user}`;
}

/** A positive whole number option (`--limit 20`), or `cli.usage`. */
export function parseCount(text: string, name: string, range: { min: number; max: number }): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < range.min || value > range.max) throw new CliError("cli.usage", `${name} must be a whole number from ${range.min} to ${range.max}`);
  return value;
}

/** Waits `ms`, or less when `signal` aborts meanwhile (never throws). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
