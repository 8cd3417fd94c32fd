import Link from "next/link";
import { PageHeader, Panel } from "@/components/cabinet/page-kit";
import { buttonClassName } from "@/components/ui/button";

/**
 * An invoice or payout the store does not have, inside the cabinet's frame. Another store's
 * identifier and a malformed one get this same page: nothing tells them apart.
 */
export default function CabinetNotFound() {
  return (
    <>
      <PageHeader title="Not found" description="Nothing in your store has this identifier." />
      <Panel title="Where to look" id="not-found-help">
        <p className="text-sm text-(--ui-muted)">
          The link may be mistyped, or the object may belong to another store. Search your invoices by uuid, order id, address or txid, or open the
          list of payouts.
        </p>
        <div className="mt-4 flex flex-wrap gap-2">
          <Link href="/cabinet/invoices" className={buttonClassName("secondary")}>
            Invoices
          </Link>
          <Link href="/cabinet/payouts" className={buttonClassName("secondary")}>
            Payouts
          </Link>
          <Link href="/cabinet" className={buttonClassName("secondary")}>
            Overview
          </Link>
        </div>
      </Panel>
    </>
  );
}
