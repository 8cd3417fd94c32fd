import { NotFoundState } from "@/components/hosted/page-states";

export default function PaymentLinkNotFound() {
  return <NotFoundState titleKey="checkout.notFoundTitle" detailKey="checkout.notFoundDetail" />;
}
