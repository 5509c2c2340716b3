/** The link from a game's end screen to its replay (`/g/{id}`), as the viewer's own seat. */
import { html } from "../html.js";
import { t } from "../i18n.js";
import { navigate, replayPath } from "../router.js";
import { Icon } from "./common.js";

export function ReplayLink({ gameId, seat }) {
  const path = replayPath(gameId, seat || "spectator", null);
  return html`<a class="button replay-link" href=${path}
    onClick=${(e) => { e.preventDefault(); navigate(path); }}><${Icon} name="history" /> ${t("replay.watch")}</a>`;
}
