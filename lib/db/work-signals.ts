/**
 * After-commit hand-off from the code that records work (a delivery row, a batch) to whichever
 * background driver runs in this process. The row is the durable record; this only makes
 * the work start sooner than the next poll, so a lost notification loses nothing.
 */
type Listener = (deliveryIds: string[]) => void;

const globalForNotify = globalThis as unknown as { gatewayDeliveryListeners?: Set<Listener> };
const listeners = (globalForNotify.gatewayDeliveryListeners ??= new Set<Listener>());

export function onDeliveriesRecorded(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyDeliveriesRecorded(deliveryIds: string[]): void {
  if (deliveryIds.length === 0) return;
  for (const listener of listeners) listener(deliveryIds);
}

type BatchListener = (batchId: string) => void;
const globalForBatches = globalThis as unknown as { gatewayBatchListeners?: Set<BatchListener> };
const batchListeners = (globalForBatches.gatewayBatchListeners ??= new Set<BatchListener>());

export function onBatchCreated(listener: BatchListener): () => void {
  batchListeners.add(listener);
  return () => batchListeners.delete(listener);
}

export function notifyBatchCreated(batchId: string): void {
  for (const listener of batchListeners) listener(batchId);
}
