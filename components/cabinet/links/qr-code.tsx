import { TEXT_LINK } from "@/components/ui/theme";

/**
 * A QR code (a `data:` URI made on the server) behind a disclosure, so a list stays compact; the
 * image keeps a white quiet zone in both themes so phones can read it.
 */
export function QrCodeDisclosure({ image, alt, summary = "QR code", context }: { image: string; alt: string; summary?: string; context?: string }) {
  if (!image) return null;
  return (
    <details className="group">
      <summary className={`w-fit cursor-pointer rounded text-sm ${TEXT_LINK}`}>
        {summary}
        {context ? <span className="sr-only"> {context}</span> : null}
      </summary>
      <QrCodeImage image={image} alt={alt} />
    </details>
  );
}

export function QrCodeImage({ image, alt, size = 176 }: { image: string; alt: string; size?: number }) {
  return (
    // A data: URI from the server; next/image adds nothing for an inline image.
    // eslint-disable-next-line @next/next/no-img-element
    <img src={image} alt={alt} width={size} height={size} className="mt-2 rounded-lg border border-(--ui-border) bg-white p-2" />
  );
}
