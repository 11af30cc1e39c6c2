// A live page ([data-live]: its socket's path; [data-stamp]: the version it shows) follows its
// table or tournament. The socket says only which version is current, on connecting and after
// every change; the page then fetches itself, as its own viewer may see it. A version the page
// already shows, or is already fetching, or that an answer on its way will bring, is not
// fetched again. A dropped socket is retried; on reconnecting the page catches up.
// A click on the page while its fetch is on its way wins: the fetch's answer is not swapped in
// (it would replace the table the click came from, and the click's answer, the newer, would
// land nowhere: htmx then reports oobErrorNoTarget for the announcement).
// A page whose forms sit among what it follows ([data-keep-unsent]: the director's Run page)
// keeps what its reader has typed or chosen and not sent: each such field of the fetched page
// gets it back, found by its form's address, its name and (a box) its value.
// A seat's own page ([data-seat-page]) tells its socket every 20 seconds that it is open
// (who is connected); once its link is replaced (its address answers 404) it says so
// ([data-gone]) and stops.
(function () {
  "use strict";
  const live = () => document.querySelector("[data-live]");
  const status = document.getElementById("live-status");
  if (!live() || !window.WebSocket || !window.htmx) return;
  const parse = (text) => text.trim().split(/\s+/).map(Number);
  const newer = (a, b) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
    }
    return false;
  };
  let announced = null;  // the newest version the server announced
  let asked = null;  // the version announced when the page last fetched itself
  const pending = new Set();  // requests in flight: each brings the page as it is then
  let fetching = null;  // the page's own fetch of itself, while it is on its way
  let asking = false;  // (true while htmx.ajax issues that fetch)
  let overtaken = false;  // a click on the page was sent after it: its answer wins
  let gone = false;  // a seat's replaced link: nothing more to follow
  let kept = null;  // what the reader had typed and not sent, while the page's fetch swaps

  const FIELDS = "input:not([type=hidden]), textarea, select";
  const box = (field) => field.type === "checkbox" || field.type === "radio";
  const keyOf = (field) => [
    field.form ? field.form.getAttribute("action") : "", field.name, box(field) ? field.value : "",
  ].join(" ");
  function changed(field) {
    if (box(field)) return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {  // one choice: the one marked, else the first
      const marked = [...field.options].findIndex((o) => o.defaultSelected);
      return field.selectedIndex !== Math.max(marked, 0);
    }
    return field.value !== field.defaultValue;
  }
  function unsent(page) {
    const found = new Map();
    page.querySelectorAll(FIELDS).forEach((field) => {
      if (!field.name || !changed(field)) return;
      const focused = field === document.activeElement;
      const text = focused && typeof field.selectionStart === "number";
      found.set(keyOf(field), {
        value: box(field) ? field.checked : field.value,
        selection: text ? [field.selectionStart, field.selectionEnd] : null,
        focused,
      });
    });
    return found;
  }
  function retype(page, found) {
    page.querySelectorAll(FIELDS).forEach((field) => {
      const was = found.get(keyOf(field));
      if (!was) return;
      if (box(field)) {
        field.checked = was.value;
      } else if (!field.options || [...field.options].some((o) => o.value === was.value)) {
        field.value = was.value;  // (a choice no longer offered is not made)
      }
      if (was.focused) field.focus({preventScroll: true});
      if (was.selection) field.setSelectionRange(...was.selection);
      // what the field's choice shows beside it (the swap's preview) is asked again
      field.dispatchEvent(new Event("change", {bubbles: true}));
    });
  }

  function catchUp() {
    const page = live();
    if (!page || pending.size || announced === null) return;
    if (!newer(announced, parse(page.dataset.stamp))) return;
    if (asked !== null && !newer(announced, asked)) return;
    asked = announced;
    asking = true;
    try {
      htmx.ajax("GET", location.href, {target: page, swap: "outerHTML", select: "[data-live]"});
    } finally {
      asking = false;
    }
  }
  // a request's end is its loadend: htmx's afterRequest does not reach the document once the
  // control that sent it is gone (its answer may be swapped in before: static/js/regions.js)
  document.addEventListener("htmx:beforeRequest", (e) => {
    const xhr = e.detail.xhr;
    pending.add(xhr);
    xhr.addEventListener("loadend", () => {
      pending.delete(xhr);
      if (xhr === fetching) fetching = null;
      catchUp();
    });
    if (asking) {
      fetching = xhr;
      overtaken = false;
    } else if (fetching && live() && live().contains(e.detail.elt)) {
      overtaken = true;
    }
  });
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (e.detail.xhr === fetching && overtaken) e.detail.shouldSwap = false;
    const page = live();
    const keeps = page && page.hasAttribute("data-keep-unsent");
    if (e.detail.xhr === fetching && e.detail.shouldSwap && keeps) kept = unsent(page);
    if (e.detail.xhr.status === 404 && page && page.dataset.gone) {
      e.detail.shouldSwap = false;
      gone = true;
      const note = document.getElementById("seat-gone");
      if (note) { note.textContent = page.dataset.gone; note.hidden = false; }
      page.querySelectorAll("button, input, select").forEach((b) => { b.disabled = true; });
      if (socket) socket.close();
    }
  });

  // once settled: htmx has bound the new page's controls (a choice's change asks its preview)
  document.addEventListener("htmx:afterSettle", (e) => {
    if (!kept || e.detail.xhr !== fetching || !live()) return;
    const found = kept;
    kept = null;
    if (found.size) retype(live(), found);
  });

  const path = live().dataset.live;
  const pings = live().hasAttribute("data-seat-page");
  let delay = 500;
  let socket = null;
  let pinger = null;
  function connect() {
    if (gone) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + path);
    let opened = false;
    socket.onopen = () => {
      opened = true;
      delay = 500;
      if (status) { status.hidden = true; status.dataset.socket = "open"; }
      if (pings) pinger = setInterval(() => socket.send("ping"), 20000);
    };
    socket.onmessage = (event) => {
      let notice;
      try { notice = JSON.parse(event.data); } catch (error) { return; }
      if (!Array.isArray(notice.stamp)) return;
      if (announced === null || newer(notice.stamp, announced)) announced = notice.stamp;
      catchUp();
    };
    socket.onclose = () => {
      clearInterval(pinger);
      if (gone) return;
      // refused: a seat's link may have been replaced meanwhile; its page asks (a 404 says)
      if (!opened && pings && live() && !pending.size) {
        htmx.ajax("GET", location.href, {target: live(), swap: "outerHTML", select: "[data-live]"});
      }
      if (status) { status.hidden = false; status.dataset.socket = "closed"; }
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 5000);
    };
  }
  connect();
})();
