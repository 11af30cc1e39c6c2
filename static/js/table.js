// Another screen or tab changed this table: fetch the table again, as this viewer may see it.
// The websocket notice carries only the deal number and version, never a card.
(function () {
  "use strict";
  const current = () => document.getElementById("table");
  if (!current() || !window.WebSocket) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const url = scheme + location.host + "/ws/t/" + current().dataset.token + "/";
  function connect() {
    const socket = new WebSocket(url);
    socket.onmessage = function (event) {
      const notice = JSON.parse(event.data);
      const table = current();
      if (table && (String(notice.deal) !== table.dataset.deal ||
                    String(notice.version) !== table.dataset.version)) {
        htmx.ajax("GET", location.pathname, {target: "#table", swap: "outerHTML"});
      }
    };
    socket.onclose = function () { setTimeout(connect, 3000); };
  }
  connect();
})();
