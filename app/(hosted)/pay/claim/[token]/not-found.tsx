import { NotFoundState } from "@/components/hosted/page-states";

export default function ClaimLinkNotFound() {
  return <NotFoundState titleKey="claim.notFoundTitle" detailKey="claim.notFoundDetail" />;
}
