/** The hosted payment page of an invoice: `{pay_url}` of the API, the link in e-mails. */
export function paymentPageUrl(publicBaseUrl: string, invoiceId: string): string {
  return `${publicBaseUrl}/pay/${invoiceId}`;
}
