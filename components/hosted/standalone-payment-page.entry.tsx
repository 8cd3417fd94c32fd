import { hydrateRoot } from "react-dom/client";
import { STANDALONE_PROPS_ID, STANDALONE_ROOT_ID, StandalonePaymentPage, type StandalonePaymentProps } from "./standalone-payment-page";

// The browser's entry of the payment page served outside Next (lib/runtime/hosted-assets.ts
// bundles it): the props the server rendered with, read back from the document, and hydration.
const root = document.getElementById(STANDALONE_ROOT_ID);
const props = document.getElementById(STANDALONE_PROPS_ID);
if (root && props?.textContent) {
  hydrateRoot(root, <StandalonePaymentPage {...(JSON.parse(props.textContent) as StandalonePaymentProps)} />);
}
