/**
 * Between cabinet pages on a slow network: the frame stays, and the page's place says it is
 * loading (announced politely to screen readers), so a click is never met with nothing.
 */
export default function CabinetLoading() {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-4" data-testid="cabinet-loading">
      <span className="sr-only">Loading the page…</span>
      <div aria-hidden="true" className="h-8 w-48 animate-pulse rounded-lg bg-(--ui-subtle)" />
      <div aria-hidden="true" className="h-4 w-full max-w-xl animate-pulse rounded bg-(--ui-subtle)" />
      <div aria-hidden="true" className="h-40 w-full animate-pulse rounded-2xl border border-(--ui-border) bg-(--ui-subtle)" />
    </div>
  );
}
