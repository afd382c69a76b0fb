/**
 * The board's browser code (bundled into board.js by scripts/build-browser.mjs). Everything works
 * without it; it adds the live update of the board's columns and the copy buttons of capture links.
 */
import { startLiveUpdates } from "./live";

startLiveUpdates(document);
enableCopyButtons(document);

/** Shows the copy buttons (hidden without JavaScript) and copies the named input's text on click. */
function enableCopyButtons(doc: Document): void {
  const status = doc.getElementById("copy-status");
  for (const button of Array.from(doc.querySelectorAll<HTMLButtonElement>("button[data-copy]"))) {
    const input = doc.getElementById(button.dataset.copy ?? "");
    if (!(input instanceof HTMLInputElement)) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        // No clipboard permission (e.g. an insecure origin): select the text so Ctrl+C copies it.
        input.focus();
        input.select();
        return;
      }
      if (status) status.textContent = button.dataset.copied ?? "";
    });
  }
}
