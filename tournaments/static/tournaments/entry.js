// A table's entry page: its report follows the table live (static/js/live.js), its row's form
// stays as typed. When the report has moved on (a row confirmed, withdrawn, entered on another
// phone) and nothing has been typed in the form yet, the page is loaded again so that the form
// is the next deal's; a form already typed in is sent as it is and refused as stale.
(function () {
  "use strict";
  const form = document.getElementById("entry-form");
  if (!form) return;
  let typed = false;
  form.addEventListener("input", () => { typed = true; });
  document.addEventListener("htmx:afterSettle", () => {
    const report = document.querySelector("[data-live][data-seen]");
    if (report && !typed && report.dataset.seen !== form.elements.seen.value) location.reload();
  });
})();
