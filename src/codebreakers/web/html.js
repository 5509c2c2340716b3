/**
 * The one place that ties htm to Preact, so every component imports `html` and the hooks from
 * here and a vendor refresh (scripts/vendor-ui.sh) touches a single import site.
 */
import { h, render } from "./vendor/preact.js";
import htm from "./vendor/htm.js";

export { render };
export { useState, useEffect, useLayoutEffect, useRef } from "./vendor/hooks.js";
export const html = htm.bind(h);
