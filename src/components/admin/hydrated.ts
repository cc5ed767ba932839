import { useSyncExternalStore } from 'react';

/** Nothing to subscribe to: the store only tells the server's render (false) from the browser's (true). */
const noSubscription = () => () => {};

/**
 * False on the server and while the island hydrates, true once it runs in the browser: controls that
 * only work with JavaScript appear, or take over a plain form, from then on.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
