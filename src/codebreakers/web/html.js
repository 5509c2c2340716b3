/**
 * The one place that ties htm to Preact, so every component imports `html` and the hooks from
 * here and a vendor refresh (scripts/vendor-ui.sh) touches a single import site.
 */
import { h, render, Fragment } from "./vendor/preact.js";
import htm from "./vendor/htm.js";

export { render, Fragment };
export { useState, useEffect, useRef, useMemo, useCallback } from "./vendor/hooks.js";
export const html = htm.bind(h);
