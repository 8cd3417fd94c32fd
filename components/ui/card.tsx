import type { ReactNode } from "react";

/** A titled panel: the basic surface of the pages and the cabinet. */
export function Card({ title, titleId, children }: { title: string; titleId: string; children: ReactNode }) {
  return (
    <section aria-labelledby={titleId} className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={titleId} className="text-lg font-medium">
        {title}
      </h2>
      {children}
    </section>
  );
}
