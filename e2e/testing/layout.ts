import type { Page } from "@playwright/test";

/**
 * Form fields a person cannot see on the page as it is now: a text field, select or text area
 * that is displayed but has no border (zero width, no style, or a fully transparent colour) on
 * any side, so that it blends into the page. Each is named by its id or name.
 */
export async function invisibleFields(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const isTransparent = (color: string) => color === "transparent" || /rgba\(.*,\s*0\)$/.test(color);
    const fields = [...document.querySelectorAll<HTMLElement>("input, select, textarea")].filter((field) => {
      const type = field.getAttribute("type") ?? "text";
      return !["hidden", "checkbox", "radio", "submit", "button", "file", "range", "color"].includes(type) && field.getClientRects().length > 0;
    });
    return fields
      .filter((field) => {
        const style = getComputedStyle(field);
        const sides = ["Top", "Right", "Bottom", "Left"] as const;
        return sides.every((side) => {
          const width = parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`));
          return width === 0 || style.getPropertyValue(`border-${side.toLowerCase()}-style`) === "none" || isTransparent(style.getPropertyValue(`border-${side.toLowerCase()}-color`));
        });
      })
      .map((field) => `field ${field.id || field.getAttribute("name") || field.tagName.toLowerCase()} has no visible border`);
  });
}
