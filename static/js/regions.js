// The table page's regions (games/regions.py). Every htmx request for the table (#table) says
// which regions the page shows, by their digests (X-Regions); the answer then carries only
// the regions that changed, out of band, and the table's own attributes (its live stamp) in
// X-Table-Attributes, set here once the answer is swapped in. Each region sent is put here in
// place of the page's and bound by htmx, and htmx is left nothing to swap: htmx's own
// out-of-band swap would give the same page, but cleans up every element it removes and
// settles every one it adds, and even its swap of nothing parses a document of its own, all
// of which costs a phone more than the swap.
// An answer computed against regions the page no longer shows (another answer came between)
// is not swapped in: the whole table is asked for instead. Once regions are swapped, the focus
// lost with a replaced control goes where the whole table would have put it (autofocus).
// The table's buttons have no type attribute (a button's type is submit by default): htmx
// initialises, one by one, every element whose type attribute says submit in what it binds.
(function () {
  "use strict";
  const table = () => document.getElementById("table");
  const BOUND = "[hx-get], [hx-post], [hx-trigger]";

  function digests() {
    const t = table();
    if (!t) return "";
    return [...t.querySelectorAll("[data-digest]")]
      .map((region) => region.id.replace(/^region-/, "") + "=" + region.dataset.digest)
      .join(",");
  }

  document.addEventListener("htmx:configRequest", (event) => {
    const target = event.detail.target;
    if (!target || target.id !== "table" || "X-Regions" in event.detail.headers) return;
    event.detail.headers["X-Regions"] = digests();
  });

  // each element of the answer (the regions, the announcement) in place of the page's
  function swapRegions(detail) {
    const template = document.createElement("template");
    template.innerHTML = detail.serverResponse;
    const swapped = [...template.content.children]
      .map((region) => [region, region.id && document.getElementById(region.id)])
      .filter(([, old]) => old);
    // the focus leaves a control about to go while the page's style is still clean: the
    // browser would bring the style up to date to move it at the control's removal
    const focused = document.activeElement;
    if (focused && swapped.some(([, old]) => old.contains(focused))) focused.blur();
    for (const [region, old] of swapped) {
      region.removeAttribute("hx-swap-oob");
      old.replaceWith(region);
      // htmx binds what sends a request (its forms); a region with none has nothing to bind
      if (region.querySelector(BOUND)) htmx.process(region);
    }
    const t = table();
    const attributes = JSON.parse(detail.xhr.getResponseHeader("X-Table-Attributes"));
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null) t.removeAttribute(name);
      else t.setAttribute(name, value);
    }
  }

  // An answer of regions is swapped here, whole, and htmx is left nothing to do but say so:
  // the table's swap and settle events, as its own swap of nothing would have sent them.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!detail.shouldSwap || !detail.xhr.getResponseHeader("X-Table-Attributes")) return;
    detail.shouldSwap = false;
    const asked = detail.requestConfig && detail.requestConfig.headers["X-Regions"];
    if (asked !== digests()) {
      htmx.ajax("GET", location.href, {
        target: "#table", swap: "outerHTML", select: "[data-live]", headers: {"X-Regions": ""},
      });
      return;
    }
    swapRegions(detail);
    htmx.trigger(table(), "htmx:afterSwap", detail);
    htmx.trigger(table(), "htmx:afterSettle", detail);
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    const t = table();
    const xhr = event.detail.xhr;
    if (event.target !== t || !xhr || !xhr.getResponseHeader("X-Table-Attributes")) return;
    const focused = document.activeElement;
    if (focused && focused !== document.body && focused.isConnected) return;
    const first = t.querySelector("[autofocus]");
    if (first) first.focus();
  });
})();
