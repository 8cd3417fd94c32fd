"use client";

import { createContext, useContext } from "react";

/**
 * How a page renders itself again after a choice the server reads (the language cookie). Pages
 * served outside Next's router load the document again; Next's pages refresh through the router
 * (`RouterRefreshProvider`), which keeps the page's own state.
 */
const PageRefreshContext = createContext<() => void>(() => window.location.reload());

export const PageRefreshProvider = PageRefreshContext.Provider;

export function usePageRefresh(): () => void {
  return useContext(PageRefreshContext);
}
