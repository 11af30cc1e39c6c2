// A seat's own page ([data-seat-page]): when its player's turn comes ([data-my-turn]) the
// favicon says so (the title too: static/js/regions.js) and, if he ticked them, a short sound
// (made here with WebAudio: no file) or a vibration. His choices are kept in this browser.
(function () {
  "use strict";
  const mark = "data:image/svg+xml," + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">' +
    '<circle cx="8" cy="8" r="7" fill="#c0392b"/></svg>');
  let icon = document.querySelector("link[rel~='icon']");
  const plainIcon = icon ? icon.href : "";
  let mine = null;  // whether the page showed his turn last time
  let audio = null;

  function ticked(kind) { return localStorage.getItem("seat-alert-" + kind) === "1"; }
  document.querySelectorAll("[data-alert]").forEach((box) => {
    box.checked = ticked(box.dataset.alert);
    box.addEventListener("change", () => {
      localStorage.setItem("seat-alert-" + box.dataset.alert, box.checked ? "1" : "0");
      // a browser lets a page sound only after the reader has touched it: now
      if (box.checked && box.dataset.alert === "sound" && !audio && window.AudioContext) {
        audio = new AudioContext();
      }
    });
  });

  function beep() {
    if (!window.AudioContext) return;
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
  }

  function update() {
    const page = document.querySelector("[data-seat-page]");
    if (!page) return;
    const now = page.hasAttribute("data-my-turn");
    if (now === mine) return;
    if (now && mine === false) {
      if (ticked("sound")) beep();
      if (ticked("vibrate") && navigator.vibrate) navigator.vibrate(200);
    }
    mine = now;
    if (!icon) {
      icon = document.createElement("link");
      icon.rel = "icon";
      document.head.appendChild(icon);
    }
    icon.href = now ? mark : plainIcon;
  }
  update();
  document.addEventListener("htmx:afterSettle", update);
})();
