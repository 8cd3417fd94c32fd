import { NotFoundState } from "@/components/hosted/page-states";

export default function InvoiceNotFound() {
  return <NotFoundState titleKey="payment.notFoundTitle" detailKey="payment.notFoundDetail" warningKey="payment.notFoundWarning" />;
}
