/**
 * Where the keyboard focus goes when the control holding it goes away (Transmit, Lock): to the
 * first of `selectors` on the page, the part that says or holds what comes next, made focusable
 * for it (tabindex -1). Run after the render that removed the control, so the focus never
 * falls back to the page body, where a keyboard or screen-reader player would have to start over.
 */
export function focusNext(...selectors) {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return; // still somewhere
    const el = selectors.filter(Boolean).map((s) => document.querySelector(s)).find(Boolean);
    if (!el) return;
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
    el.focus();
  });
}
