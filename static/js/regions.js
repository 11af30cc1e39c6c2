// The table page's regions (games/regions.py). Every htmx request for the table (#table) says
// which regions the page shows, by their digests (X-Regions); the answer then carries only
// the regions that changed, out of band, and the table's own attributes (its live stamp) in
// X-Table-Attributes, set here once the answer is swapped in. Each region sent is put here in
// place of the page's and bound by htmx, and htmx is left nothing to swap (the answer says
// none): htmx's own out-of-band swap would give the same page, but cleans up every element
// it removes and settles every one it adds, which costs a phone more than the swap.
// An answer computed against regions the page no longer shows (another answer came between)
// is not swapped in: the whole table is asked for instead. Once regions are swapped, the focus
// lost with a replaced control goes where the whole table would have put it (autofocus).
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
    for (const region of [...template.content.children]) {
      const old = region.id && document.getElementById(region.id);
      if (!old) continue;
      region.removeAttribute("hx-swap-oob");
      old.replaceWith(region);
      // htmx binds what sends a request (its forms); a region with none has nothing to bind
      if (region.querySelector(BOUND)) htmx.process(region);
    }
    detail.serverResponse = "";
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (!event.detail.shouldSwap || !xhr.getResponseHeader("X-Table-Attributes")) return;
    const asked = event.detail.requestConfig && event.detail.requestConfig.headers["X-Regions"];
    if (asked === digests()) {
      swapRegions(event.detail);
      return;
    }
    event.detail.shouldSwap = false;
    htmx.ajax("GET", location.href, {
      target: "#table", swap: "outerHTML", select: "[data-live]", headers: {"X-Regions": ""},
    });
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    const t = table();
    const attributes = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Table-Attributes");
    if (!attributes || event.target !== t) return;
    for (const [name, value] of Object.entries(JSON.parse(attributes))) {
      if (value === null) t.removeAttribute(name);
      else t.setAttribute(name, value);
    }
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
