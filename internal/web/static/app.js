// The app works without this script; it adds the live stage of a dispatch
// (Server-Sent Events), keeps the name form on the current page, asks
// before the actions that take changes back (data-confirm) and shows that
// a sent form is being worked on (data-busy).
(function () {
  "use strict";
  var back = document.querySelector("[data-back]");
  if (back) back.value = location.pathname + location.search;

  // Confirm first: a form (or the button that sends it) with data-confirm
  // asks in a dialog; "Keep it" leaves the page as it was. Then every
  // posted form shows progress until the next page arrives: its buttons are
  // disabled and the button pressed says what is happening (data-busy).
  var confirmed = null; // the button (or form) the person confirmed
  // A page shown again from the back/forward cache would keep its sent
  // forms disabled: draw it afresh.
  window.addEventListener("pageshow", function (e) { if (e.persisted) location.reload(); });
  document.addEventListener("submit", function (e) {
    var form = e.target, button = e.submitter || null;
    // Only what changes something (a post): searches stay as they are.
    if (e.defaultPrevented || form.method !== "post" || form.dataset.sent) return;
    var question = (button && button.dataset.confirm) || form.dataset.confirm;
    if (question && confirmed !== (button || form)) {
      e.preventDefault();
      ask(question, (button && button.dataset.yes) || form.dataset.yes || "Yes", function () {
        confirmed = button || form;
        if (form.requestSubmit) form.requestSubmit(button || undefined); else form.submit();
      });
      return;
    }
    confirmed = null;
    form.dataset.sent = "1";
    var busy = (button && button.dataset.busy) || form.dataset.busy || "Working…";
    // After the submit event: a disabled button would not be sent.
    setTimeout(function () { showBusy(form, button, busy); }, 0);
  });

  function showBusy(form, button, text) {
    form.setAttribute("aria-busy", "true");
    form.querySelectorAll("button, input[type=submit]").forEach(function (b) { b.disabled = true; });
    if (button) button.classList.add("busy");
    var status = document.createElement("span");
    status.className = "progress";
    status.setAttribute("role", "status");
    status.textContent = text;
    (button || form).insertAdjacentElement(button ? "afterend" : "beforeend", status);
  }

  function ask(question, yes, then) {
    var dialog = document.getElementById("confirm-dialog");
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.id = "confirm-dialog";
      dialog.className = "confirm";
      dialog.innerHTML = '<p id="confirm-text"></p><p class="actions"><button type="button" id="confirm-no">Keep it</button> <button type="button" id="confirm-yes" class="reject"></button></p>';
      dialog.setAttribute("aria-labelledby", "confirm-text");
      document.body.appendChild(dialog);
    }
    if (typeof dialog.showModal !== "function") {
      if (window.confirm(question)) then();
      return;
    }
    dialog.querySelector("#confirm-text").textContent = question;
    var yesButton = dialog.querySelector("#confirm-yes"), noButton = dialog.querySelector("#confirm-no");
    yesButton.textContent = yes;
    yesButton.onclick = function () { dialog.close(); then(); };
    noButton.onclick = function () { dialog.close(); };
    dialog.showModal();
    noButton.focus(); // the safe choice has the focus
  }

  // A frame marked data-fit takes its Gantt's whole height (the summary's
  // chart of the changed rows prints whole, not a scrolled window).
  // ganttHeight is the height a Gantt frame's page needs to show its
  // chart whole: its header, the axis and the rows drawn (0: no chart).
  function ganttHeight(f) {
    var d = f.contentDocument, g = d && d.getElementById("gantt"), chart = g && g.querySelector("svg.chart"), corner = g && g.querySelector(".corner");
    if (!chart || !corner) return 0;
    return g.offsetTop + corner.offsetHeight + Number(chart.getAttribute("height")) + 24;
  }
  document.querySelectorAll("iframe[data-fit]").forEach(function (f) {
    function fit() {
      var h = ganttHeight(f);
      if (h) f.style.height = h + "px";
    }
    f.addEventListener("load", fit);
    if (f.contentDocument && f.contentDocument.readyState === "complete") fit();
  });
  document.querySelectorAll("[data-print]").forEach(function (b) {
    b.addEventListener("click", function () { window.print(); });
  });
  // Paper has no disclosure triangles: what a <details> holds is printed,
  // then closed again.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    // (Not on the one-page summary: its lists stay short to fit the page.)
    document.querySelectorAll("details:not([open])").forEach(function (d) {
      if (d.closest(".summary-page")) return;
      d.open = true;
      opened.push(d);
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
  // A review printed: its before/after Gantt shows the changed rows only,
  // as tall as they are (a frame prints as one block, cut at the page's
  // end: at most a page's height), not the scrolled window on screen.
  var diffFrame = document.getElementById("diff-gantt"), diffWas = null;
  if (diffFrame) {
    window.addEventListener("beforeprint", function () {
      var d = diffFrame.contentDocument, only = d && d.getElementById("changed-only");
      if (!ganttHeight(diffFrame)) return;
      diffWas = {height: diffFrame.style.height, toggled: false};
      if (only && !only.disabled && only.getAttribute("aria-pressed") !== "true") { only.click(); diffWas.toggled = true; }
      diffFrame.style.height = Math.min(ganttHeight(diffFrame), 900) + "px";
    });
    window.addEventListener("afterprint", function () {
      if (!diffWas) return;
      var d = diffFrame.contentDocument, only = d && d.getElementById("changed-only");
      if (diffWas.toggled && only) only.click();
      diffFrame.style.height = diffWas.height;
      diffWas = null;
    });
  }

  // The one-page summary shrinks to fit one page: laid out at A4's
  // printable width (718 px at 10 mm margins) in the screen's larger type,
  // it is scaled to the page's printable height, 0.78 at most (the print
  // stylesheet's scale when no script runs).
  var onePage = document.querySelector(".summary-page");
  if (onePage) {
    window.addEventListener("beforeprint", function () {
      onePage.style.zoom = "";
      onePage.style.width = "718px";
      var h = onePage.scrollHeight;
      onePage.style.width = "";
      onePage.style.zoom = Math.max(0.4, Math.min(0.78, 980 / h));
    });
    window.addEventListener("afterprint", function () { onePage.style.zoom = ""; });
  }

  // A link to an activity's row (#row-ID) shows it in the Gantt, which
  // opens on it; its row in the table below is marked too.
  var ganttSection = document.getElementById("gantt-section");
  if (ganttSection && /^#row-/.test(location.hash)) ganttSection.scrollIntoView();

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
