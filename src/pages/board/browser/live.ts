/** How often an open board asks whether anything changed (a case appears within 5 s). */
export const POLL_MS = 3000;

/**
 * Polls the board's live endpoint with the ETag it holds: 304 while nothing changed, else the new
 * columns as HTML, which replace the old ones. Keyboard focus stays on the same case or link, and
 * a polite live region says the board was updated. Pauses while the tab is hidden.
 */
export function startLiveUpdates(doc: Document): void {
  const container = doc.getElementById("board-columns");
  const url = container?.dataset.live;
  if (!container || !url) return;
  const status = doc.getElementById("live-status");
  let etag = container.dataset.etag ?? "";
  let timer: number | undefined;

  const poll = async () => {
    timer = undefined;
    try {
      const res = await fetch(url, {
        // A background poll: not the handler's activity, so an unattended board still reaches its idle end.
        headers: { "if-none-match": etag, "x-board-background": "1" },
        credentials: "same-origin",
        cache: "no-store",
      });
      // Signed out meanwhile (the session ended): the page itself leads to the login.
      if (res.redirected || res.status === 401) {
        window.location.reload();
        return;
      }
      if (res.status === 200) {
        const html = await res.text();
        etag = res.headers.get("etag") ?? etag;
        replaceKeepingFocus(doc, container, html);
        if (status) status.textContent = container.dataset.updated ?? "";
      }
    } catch {
      // Offline or the server is busy: try again at the next tick.
    }
    schedule();
  };
  const schedule = () => {
    if (timer === undefined && !doc.hidden) timer = window.setTimeout(poll, POLL_MS);
  };
  doc.addEventListener("visibilitychange", () => {
    if (doc.hidden && timer !== undefined) {
      window.clearTimeout(timer);
      timer = undefined;
    } else if (!doc.hidden && timer === undefined) void poll();
  });
  schedule();
}

function replaceKeepingFocus(doc: Document, container: HTMLElement, html: string): void {
  const active = doc.activeElement;
  const href = active instanceof HTMLAnchorElement && container.contains(active) ? active.getAttribute("href") : null;
  container.innerHTML = html;
  if (href === null) return;
  const again = Array.from(container.querySelectorAll<HTMLAnchorElement>("a[href]")).find(
    (a) => a.getAttribute("href") === href,
  );
  again?.focus();
}
