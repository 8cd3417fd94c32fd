import type { Metadata } from "next";

// Payment pages are personal: keep them out of search engines, and do not hand their URL (which
// is the invoice id) to the store or anyone else the buyer follows a link to.
export const metadata: Metadata = {
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default function HostedLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return children;
}
