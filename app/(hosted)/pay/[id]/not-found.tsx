export default function InvoiceNotFound() {
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-3 px-4 py-10">
      <p className="text-sm font-medium text-slate-600">Error 404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Invoice not found</h1>
      <p className="text-slate-700">
        This payment link does not lead to an invoice. Check that you opened the complete link from the store, or go back to the store and start the payment again.
      </p>
      <p className="text-sm text-slate-600">Do not send any funds until you see the amount and the deposit address on a valid payment page.</p>
    </main>
  );
}
