// Keyboard help for every page. (The focus after a swap needs nothing here: the server marks
// the control to focus with autofocus, and htmx focuses it in what it swaps in.)
// 1. A box that scrolls (a long log, a wide table on a phone: .scroll or [data-scrolls]) and
//    holds nothing focusable takes the focus while it overflows, so the arrow keys scroll it;
//    it is then a region named by its table's caption or its section's heading (unless a
//    named section holds it).
// 2. A held Enter or Space repeats its keydown: the repeats press nothing, so that holding the
//    key on one screen cannot play on the next (the focus lands on its first card).
(function () {
  "use strict";
  const BOXES = ".scroll, [data-scrolls]";
  const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";
  let named = 0;

  function nameOf(box) {
    if (box.hasAttribute("aria-label") || box.hasAttribute("aria-labelledby")) return null;
    // inside a named section (a region already) a region of its own would say it twice
    if (box.closest("section[aria-label], section[aria-labelledby]")) return null;
    const caption = box.querySelector("caption");
    const section = box.closest("section");
    const heading = caption || (section && section.querySelector("h1, h2, h3"));
    if (!heading) return null;
    if (!heading.id) heading.id = "scroll-name-" + (++named);
    return heading.id;
  }

  function overflows(box) {
    return box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
  }

  function fit(box, overflowing) {
    const made = box.hasAttribute("data-keyboard-scroll");
    if (overflowing && !made && !box.hasAttribute("tabindex") && !box.querySelector(FOCUSABLE)) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("data-keyboard-scroll", "");
      if (!box.hasAttribute("role")) {
        const name = nameOf(box);
        if (name) {
          box.setAttribute("role", "region");
          box.setAttribute("aria-labelledby", name);
          box.setAttribute("data-keyboard-scroll", "region");
        }
      }
    } else if (!overflowing && made) {
      box.removeAttribute("tabindex");
      if (box.getAttribute("data-keyboard-scroll") === "region") {
        box.removeAttribute("role");
        box.removeAttribute("aria-labelledby");
      }
      box.removeAttribute("data-keyboard-scroll");
    }
  }

  // every box measured first, then marked: marking one between two measures would have the
  // browser lay the page out again for the next
  function fitAll() {
    const boxes = [...document.querySelectorAll(BOXES)];
    const measured = boxes.map(overflows);
    boxes.forEach((box, i) => fit(box, measured[i]));
  }

  let pending = null;
  function later() {
    if (pending === null) pending = requestAnimationFrame(() => { pending = null; fitAll(); });
  }
  fitAll();
  document.addEventListener("htmx:afterSettle", later);
  window.addEventListener("resize", later);
  window.addEventListener("load", later);

  document.addEventListener("keydown", (event) => {
    if (event.repeat && (event.key === "Enter" || event.key === " ") &&
        event.target.closest && event.target.closest("button, a[href]")) {
      event.preventDefault();
    }
  }, true);
})();
