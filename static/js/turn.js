// The turn on one screen. Once the player to act has his hand shown (the page loaded, or a
// table swapped in, with a hand in it), the board and the turn's panel are brought into view;
// at a hand-off, the panel (its button, and the take-back). Not at all when that is on the
// screen already, else as little as it takes, else from its top. On a phone this leaves the
// site's header and the seats above the screen. It moves no focus. Once an answer has
// settled: the table's own event (the regions swapped out of band settle with it).
(function () {
  "use strict";
  function show() {
    const board = document.querySelector("#table .board");
    const panel = document.querySelector("#table .panel.turn");
    if (!board || !panel) return;
    let top;
    if (panel.querySelector(".hand")) top = board.getBoundingClientRect().top;
    else if (panel.querySelector(".handoff")) top = panel.getBoundingClientRect().top;
    else return;
    const bottom = panel.getBoundingClientRect().bottom;
    const height = window.innerHeight;
    if (top >= 0 && bottom <= height) return;
    const by = bottom - top <= height ? (top < 0 ? top : bottom - height) : top;
    window.scrollBy({top: by, left: 0, behavior: "instant"});
  }
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target.id === "table") show();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();
