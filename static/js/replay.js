// A replay's keys: ← and → step back and on, Home and End go to the first and the last step.
// Each presses the page's own control (a link, or a button of the uploaded record's form), so
// the page works the same with the mouse, the keys and without JavaScript. Keys pressed while a
// step is on its way are kept and pressed in turn once it has come (a held → steps on). After
// htmx swaps the panel in, the focus returns to the control that was pressed.
(function () {
  "use strict";
  const KEYS = {ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last"};
  const control = (key) => document.querySelector(`#replay [data-step-key="${key}"]`);
  const usable = (el) => el && !el.disabled && el.getAttribute("aria-disabled") !== "true";
  const waiting = [];  // keys pressed while a step was on its way
  let busy = false;

  function press(key) {
    const el = control(key);
    if (usable(el)) el.click();
  }

  document.addEventListener("keydown", (event) => {
    const key = KEYS[event.key];
    if (!key || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    if (!control(key)) return;
    event.preventDefault();
    if (busy) {
      if (waiting.length < 100) waiting.push(key);
    } else {
      press(key);
    }
  });

  let pressed = null;  // the control that had the focus when the step was asked for
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!event.target.closest || !event.target.closest("#replay")) return;
    busy = true;
    const active = document.activeElement;
    pressed = active && active.closest && active.closest("#replay [data-step-key]")
      ? active.dataset.stepKey : null;
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.successful) { busy = false; waiting.length = 0; }
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!busy || event.target.id !== "replay") return;  // (the announcement settles too)
    busy = false;
    if (pressed) {
      const el = control(pressed);
      const step = document.getElementById("replay-step");
      if (usable(el)) el.focus();
      else if (step) step.focus();
      pressed = null;
    }
    if (waiting.length) press(waiting.shift());
  });
})();
