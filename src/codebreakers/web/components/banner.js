/** The connection-lost banner: visible while the socket is down, with the next retry and a button. */
import { html, useEffect, useState } from "../html.js";
import { t } from "../i18n.js";
import { retryNow } from "../net.js";
import { Icon } from "./common.js";

export function ConnectionBanner({ connection, retryAt }) {
  const [, tick] = useState(0);
  useEffect(() => {
    if (connection !== "lost") return undefined;
    const id = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(id);
  }, [connection]);
  if (connection !== "lost") return null;
  const secs = retryAt ? Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)) : 0;
  return html`<div class="banner" role="alert">
    <${Icon} name="triangle-alert" /> ${t("conn.lost")} ${secs ? t("conn.retry_in", { n: secs }) : t("conn.retrying")}
    <button class="small" onClick=${retryNow}>${t("conn.retry_now")}</button>
  </div>`;
}
