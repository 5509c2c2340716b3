/** Two screens, chosen by the path: `/` (home) and `/r/{CODE}` (a room). History API navigation. */
import { update } from "./store.js";

export function parse(path) {
  const m = /^\/r\/([A-Za-z0-9]{4,12})\/?$/.exec(path);
  return m ? { name: "room", code: m[1].toUpperCase() } : { name: "home" };
}

export function navigate(path) {
  history.pushState(null, "", path);
  update({ route: parse(path) });
}

window.addEventListener("popstate", () => update({ route: parse(location.pathname) }));
