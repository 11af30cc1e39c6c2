// The table page's regions (games/regions.py). Every htmx request for the table (#table) says
// which regions the page shows, by their digests (X-Regions); the answer then carries only
// the regions that changed, out of band, and the table's own attributes (its live stamp) in
// X-Table-Attributes, set here once the answer is swapped in. Each region sent is put here in
// place of the page's, and htmx is left nothing to swap: htmx's own
// out-of-band swap would give the same page, but cleans up every element it removes and
// settles every one it adds, and even its swap of nothing parses a document of its own, all
// of which costs a phone more than the swap.
// The answer to a control of the table (a move, a card chosen) is put in place as soon as its
// last byte has reached the page (the text as long as its Content-Length says), not at the
// request's load, which the browser delivers as a message of its own: a millisecond later
// on a laptop, several on a phone. The page's own fetch of itself (static/js/live.js) waits
// for its load, where a click sent after it may overrule it.
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

  // The table's forms carry no hx-post or hx-get: this one listener sends each through htmx,
  // the form its source (the table's target, swap and one request at a time inherited), with
  // the button that sent it. Bound one by one by htmx, as each answer's forms would have to
  // be, a hand's forms cost about as much at every move as putting the regions in place. A
  // form htmx sends by itself (hx-trigger: a part's own form) is htmx's.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const t = table();
    if (event.defaultPrevented || !t || !t.contains(form) || form.matches(BOUND)) return;
    event.preventDefault();
    const button = event.submitter;
    htmx.ajax(form.method, form.getAttribute("action"), {
      source: form,
      values: button && button.name ? {[button.name]: button.value} : {},
    }).catch(() => {});  // a failure is htmx's to report (htmx:sendError), as for its own forms
  });

  document.addEventListener("htmx:configRequest", (event) => {
    const target = event.detail.target;
    if (!target || target.id !== "table" || "X-Regions" in event.detail.headers) return;
    event.detail.headers["X-Regions"] = digests();
  });

  // A region that differs from the page's only in a list grown at its top ([data-grows]: the
  // deal's log, newest first) keeps the list the page shows: the new items are put in before
  // its own, and any item of its own that changed (a move taken back) is replaced. The
  // browser then lays out those items alone: a log of a hundred numbered entries laid out
  // anew costs more than the rest of the table. The growth, as a function, or null.
  function growth(old, region) {
    if (!region.querySelector("[data-grows]")) return null;
    const kept = [...old.childNodes];
    const fresh = [...region.childNodes];
    if (kept.length !== fresh.length || !sameAttributes(old, region)) return null;
    let list = null;
    let grown = null;
    for (let i = 0; i < kept.length; i++) {
      if (kept[i].nodeType === 1 && kept[i].hasAttribute("data-grows")
          && fresh[i].nodeType === 1 && fresh[i].hasAttribute("data-grows")) {
        [list, grown] = [kept[i], fresh[i]];
      } else if (!kept[i].isEqualNode(fresh[i])) {
        return null;
      }
    }
    if (!list) return null;
    const shown = [...list.children];
    const items = [...grown.children];
    const added = items.length - shown.length;
    if (added < 0) return null;
    return () => {
      if (shown.length) shown[0].before(...items.slice(0, added));
      else list.append(...items);
      shown.forEach((item, i) => {
        if (!item.isEqualNode(items[added + i])) item.replaceWith(items[added + i]);
      });
      old.dataset.digest = region.dataset.digest;
    };
  }

  // the same attributes, but for the digest (the page's own marks on the region aside)
  function sameAttributes(old, region) {
    const names = region.getAttributeNames().filter((name) => name !== "data-digest");
    return names.length === old.getAttributeNames().length - 1
      && names.every((name) => old.getAttribute(name) === region.getAttribute(name));
  }

  // each element of the answer (the regions, the announcement) in place of the page's
  function swapRegions(detail) {
    const template = document.createElement("template");
    template.innerHTML = detail.serverResponse;
    const swapped = [...template.content.children]
      .map((region) => [region, region.id && document.getElementById(region.id)])
      .filter(([, old]) => old)
      .map(([region, old]) => {
        region.removeAttribute("hx-swap-oob");
        return [region, old, growth(old, region)];
      });
    // the focus leaves a control about to go while the page's style is still clean: the
    // browser would bring the style up to date to move it at the control's removal
    const focused = document.activeElement;
    if (focused && swapped.some(([, old, grow]) => !grow && old.contains(focused))) {
      focused.blur();
    }
    for (const [region, old, grow] of swapped) {
      if (grow) {
        grow();
        continue;
      }
      old.replaceWith(region);
      // htmx binds what it sends by itself (a part's own form); the
      // table's other forms go by the listener above, and need no binding
      if (region.querySelector(BOUND)) htmx.process(region);
    }
    const t = table();
    const attributes = JSON.parse(detail.xhr.getResponseHeader("X-Table-Attributes"));
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null) t.removeAttribute(name);
      else t.setAttribute(name, value);
    }
  }

  const asked = (detail) => detail.requestConfig && detail.requestConfig.headers["X-Regions"];

  // An answer of regions is swapped here, whole, and htmx is left nothing to do but say so:
  // the table's swap and settle events, as its own swap of nothing would have sent them.
  function swapAnswer(detail) {
    swapRegions(detail);
    htmx.trigger(table(), "htmx:afterSwap", detail);
    htmx.trigger(table(), "htmx:afterSettle", detail);
  }

  let landing = null;  // the request whose answer was swapped in before its load, until then
  let held = [];  // the requests of controls pressed meanwhile, to send once it has loaded
  const utf8 = new TextEncoder();

  function arrivedWhole(xhr) {
    if (xhr.readyState !== 3 || xhr.status !== 200) return false;
    if (!xhr.getResponseHeader("X-Table-Attributes")) return false;
    const length = Number(xhr.getResponseHeader("Content-Length"));
    return length > 0 && utf8.encode(xhr.responseText).length === length;
  }

  document.addEventListener("htmx:beforeSend", (event) => {
    const detail = event.detail;
    const t = table();
    if (!t || detail.target !== t || !t.contains(event.target)) return;
    const xhr = detail.xhr;
    // the click's own changes (the focus, htmx's request class) are styled and laid out
    // while the request is on its way, not by whatever first needs them once its answer has
    // come (the next frame may not have run by then, on a phone least of all)
    setTimeout(() => void document.body.offsetHeight, 0);
    xhr.addEventListener("readystatechange", function arrived() {
      if (!arrivedWhole(xhr)) return;
      xhr.removeEventListener("readystatechange", arrived);
      if (asked(detail) !== digests()) return;  // its load asks for the whole table
      landing = xhr;
      xhr.addEventListener("loadend", () => {
        if (landing !== xhr) return;
        landing = null;
        const waiting = held;
        held = [];
        waiting.forEach((send) => send(true));
      });
      swapAnswer({...detail, serverResponse: xhr.responseText});
    });
  });

  // A control of the answer swapped in early, pressed before that request's load, would be
  // dropped by the table's one request at a time (hx-sync): it is sent once the load is over.
  document.addEventListener("htmx:confirm", (event) => {
    const t = table();
    if (!landing || !t || !t.contains(event.target)) return;
    event.preventDefault();
    held.push(event.detail.issueRequest);
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!detail.shouldSwap || !detail.xhr.getResponseHeader("X-Table-Attributes")) return;
    detail.shouldSwap = false;
    if (detail.xhr === landing) return;
    if (asked(detail) === digests()) {
      swapAnswer(detail);
    } else {
      htmx.ajax("GET", location.href, {
        target: "#table", swap: "outerHTML", select: "[data-live]", headers: {"X-Regions": ""},
      });
    }
  });

  // The tab's title follows the table (its deal; a seat's own page marks its player's turn),
  // from the table's own attributes, as the page rendered afresh would give it.
  function title() {
    const t = table();
    if (!t || !t.dataset.title) return;
    document.title = (t.hasAttribute("data-my-turn") ? "● " : "") + t.dataset.title;
  }
  title();
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target === table()) title();
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
