// The skill clock, and the menu's keys (P pauses, M opens the menu). The server counts
// the time (SPEC §10); the page only ticks on from its last answer, as the server would:
// up to the idle limit after the last action, and not at all while the game is paused or
// finished.
(function () {
  "use strict";

  let shown = null;   // the #clock element the baseline belongs to
  let since = 0;      // when that element arrived (a page load or an htmx swap)

  function format(seconds) {
    const minutes = Math.floor(seconds / 60);
    const rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    const clock = document.getElementById("clock");
    if (!clock) return;
    if (clock !== shown) {
      shown = clock;
      since = Date.now();
    }
    if (clock.dataset.running !== "true") return;
    const base = Number(clock.dataset.seconds) || 0;
    const limit = Number(clock.dataset.idleLimit) || 60;
    const elapsed = Math.min(Math.floor((Date.now() - since) / 1000), limit);
    clock.textContent = format(base + elapsed);
  }

  // P pauses; M opens (or closes) the menu.
  function menuKeys(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector(".win.show")) return; // the win box is modal while it shows
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const key = event.key.toLowerCase();
    if (key === "p") {
      const button = document.getElementById("pause");
      if (button) {
        event.preventDefault();
        button.click();
      }
    } else if (key === "m") {
      const menu = document.getElementById("menu");
      if (menu && menu.togglePopover) {
        event.preventDefault();
        menu.togglePopover();
      }
    }
  }

  // The start window was drawn with the page: when it opens, say whether starting a new
  // game now abandons one in progress (an action was made since).
  function warnBeforeAbandoning(event) {
    if (event.newState !== "open") return;
    const warning = event.target.querySelector("[data-abandon-warning]");
    const status = document.getElementById("status");
    if (!warning || !status) return;
    warning.hidden = !(Number(status.dataset.version) > 0 && status.dataset.won !== "true");
  }

  document.addEventListener("beforetoggle", warnBeforeAbandoning, true);
  document.addEventListener("keydown", menuKeys);
  document.addEventListener("DOMContentLoaded", tick);
  setInterval(tick, 1000);
})();
