// The app works without this script; it adds the live stage of a dispatch
// (Server-Sent Events) and keeps the name form on the current page.
(function () {
  "use strict";
  var back = document.querySelector("[data-back]");
  if (back) back.value = location.pathname + location.search;

  var stage = document.getElementById("stage");
  if (!stage || !stage.dataset.watch || !window.EventSource) return;
  var shown = { stage: stage.dataset.stage, round: Number(stage.dataset.round) };
  var text = document.getElementById("stage-text");
  var events = new EventSource(stage.dataset.watch);
  events.onmessage = function (e) {
    var p = JSON.parse(e.data);
    if (p.error) return;
    if (p.ended || p.round !== shown.round || (p.ready && p.stage !== shown.stage) || (shown.stage === "awaiting_review" && p.stage !== shown.stage) || (shown.stage === "awaiting_clarification" && p.stage !== shown.stage)) {
      events.close();
      location.reload();
      return;
    }
    if (text) text.textContent = p.text;
    stage.dataset.stage = p.stage;
    shown.stage = p.stage;
  };
})();
