import type { AppDeps } from "@/lib/deps/app-deps";

/** The name buyers know the merchant by, shown on every public page of its invoices, links and checks. */
export async function readStoreName(deps: Pick<AppDeps, "db">, merchantId: string): Promise<string> {
  const merchant = await deps.db.merchant.findUnique({ where: { id: merchantId }, select: { name: true } });
  return merchant?.name.trim() ?? "";
}
