package render

// The Gantt page's style and script, inline so the page fetches nothing.
// The script has no backquotes: it lives in a Go raw string.

const ganttCSS = `
:root{--red:#d62728;--blue:#4e79a7;--green:#2da44e;--green-ink:#116329;--amber:#bf8700;--float:#9aa5b1;--grid:#e6e9ed;--line:#d0d7de;--ink:#1f2328;--muted:#57606a;color-scheme:light}
*{box-sizing:border-box}
html,body{height:100%;margin:0}
body{display:flex;flex-direction:column;font:13px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--ink);background:#fff}
header{padding:8px 12px;border-bottom:1px solid var(--line)}
h1{font-size:16px;margin:0 0 2px}
.summary{margin:0 0 6px;color:var(--muted)}
.tools{display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center}
.zoom button{font:inherit;min-width:30px;padding:1px 8px;margin-right:2px;border:1px solid var(--line);border-radius:4px;background:#f6f8fa;cursor:pointer}
.zoom button:hover{background:#eaeef2}
#zoom-level{color:var(--muted);margin-left:4px}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;margin:0;padding:0;color:var(--muted)}
.legend li{display:flex;align-items:center;gap:5px}
#gantt{flex:1;min-height:0;overflow:auto;display:grid;grid-template-columns:var(--label-w) max-content;align-content:start}
svg{display:block}
.corner,svg.axis{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid var(--line)}
.corner{left:0;z-index:3;display:flex;align-items:flex-end;padding:0 8px 5px 6px;font-weight:600;border-right:1px solid var(--line)}
.c-id{width:74px}.c-name{flex:1}
.labels,svg.chart{background:repeating-linear-gradient(#fff 0 22px,#f6f8fa 22px 44px)}
.labels{position:sticky;left:0;z-index:1;width:var(--label-w);border-right:1px solid var(--line);font-size:12px}
.labels .blk{content-visibility:auto}
.labels .blk.near,.only-changed .labels .blk,.printing .labels .blk{content-visibility:visible}
.off,.labels .row.off{display:none}
.labels .row.current{background:#fff8c5;font-weight:600}
rect.current{fill:#fff8c5}
.changes button{font:inherit;padding:1px 8px;margin-right:2px;border:1px solid var(--line);border-radius:4px;background:#f6f8fa;cursor:pointer}
.changes button[aria-pressed=true]{background:#ddf4ff;border-color:#54aeff}
.changes button:focus-visible,.zoom button:focus-visible{outline:3px solid #0969da;outline-offset:1px}
#change-at{color:var(--muted)}
.labels .row{display:flex;height:22px;line-height:22px;padding:0 8px 0 6px;white-space:nowrap}
.labels .c-id,.labels .c-name{overflow:hidden;text-overflow:ellipsis}
text{font-size:12px;fill:var(--ink)}
.labels .dur{min-width:40px;text-align:right}
.labels .critical-row{color:var(--red)}
.labels .group-row{font-weight:600;background:#f1f3f5}
.bar.summary{fill:#3b4048}
.axis line{stroke:#8c959f}
.axis text{font-size:11px;fill:var(--muted)}
.axis .date{fill:var(--ink)}
.grid{stroke:var(--grid);fill:none}
.finish{stroke:#6e7781;stroke-dasharray:4 3}
.bar,.sw-bar{fill:var(--blue)}
.bar.critical,.sw-bar.critical{fill:var(--red)}
.bar.milestone{fill:var(--ink)}
.bar.milestone.critical{fill:var(--red)}
.bar:hover{stroke:var(--ink);stroke-width:1.5}
.float,.sw-float{fill:var(--float)}
.link,.sw-link{fill:none;stroke:#8c959f}
.link{marker-end:url(#arrow)}
.link.critical,.sw-link.critical{stroke:var(--red);stroke-width:1.4}
.link.critical{marker-end:url(#arrow-critical)}
.link:hover{stroke-width:2.5}
.head{fill:#8c959f}.head.critical{fill:var(--red)}
.bar.added,.sw-added{fill:var(--green);stroke:var(--green-ink);stroke-width:1.5}
.bar.added.critical{stroke:var(--red)}
.bar.removed,.sw-removed{opacity:.45}
.sw-removed{fill:var(--blue)}
.strike,.sw-strike{stroke:var(--ink);stroke-width:1.5;pointer-events:none}
.bar.moved,.sw-moved{stroke:var(--amber);stroke-width:2}
.sw-moved{fill:var(--blue)}
.ghost,.sw-ghost{fill:none;stroke:#57606a;stroke-width:1.2;stroke-dasharray:3 2}
.link.removed,.sw-link-removed{stroke-dasharray:4 3}
.sw-link-removed{fill:none;stroke:#8c959f}
.link.added,.sw-link-added{fill:none;stroke:var(--green)}
.finish.before,.sw-finish-before{stroke:#afb8c1;stroke-dasharray:2 3}
.baseline,.sw-baseline{fill:#8c959f;opacity:.8}
.datadate{stroke:var(--green);stroke-width:1.5;stroke-dasharray:6 3}
.constraint,.sw-constraint.soft{fill:var(--amber)}.constraint.hard,.sw-constraint{fill:var(--ink)}
.labels .removed-row span{text-decoration:line-through;color:var(--muted)}
.labels .added-row{color:var(--green-ink)}
#tip{position:fixed;z-index:10;pointer-events:none;white-space:pre;background:var(--ink);color:#fff;padding:6px 8px;border-radius:4px;font-size:12px;max-width:520px;box-shadow:0 2px 6px rgba(0,0,0,.25)}
#tip[hidden]{display:none}
/* A phone: the left pane keeps the ids only (the names are in each bar's tooltip). */
@media (max-width:600px){#gantt{--label-w:84px!important}.c-name,.labels .dur,.corner .c-dur{display:none}.legend{display:none}header{padding:6px 8px}}
/* Print: every label drawn, the whole chart on the paper, no buttons. */
@media print{body{display:block;font-size:10px}header{padding:2px 4px}h1{font-size:12px}.legend{font-size:9px;gap:2px 10px}#gantt{overflow:visible}.zoom,.changes{display:none}.labels .blk{content-visibility:visible}.corner,svg.axis,.labels{position:static}}
`

// ganttJS re-lays out the x axis on zoom with the same formulas as the Go
// code (route, tickStep, shape; in a diff also strike and the before
// finish), and shows a tooltip from each bar's, link's or ghost's <title>.
const ganttJS = `
(function () {
  "use strict";
  var G = JSON.parse(document.getElementById("gantt-data").textContent);
  var root = document.getElementById("gantt");
  var chart = root.querySelector("svg.chart"), axis = root.querySelector("svg.axis");
  var grid = chart.querySelector(".grid"), finish = chart.querySelector("line.finish:not(.before)");
  var finishBefore = chart.querySelector("line.finish.before");
  var level = document.getElementById("zoom-level"), tip = document.getElementById("tip");
  var k = G.k, H = G.rowH;
  var bars = [], floats = [], links = [], ghosts = [], strikes = [];
  var each = function (sel, f) { Array.prototype.forEach.call(chart.querySelectorAll(sel), f); };
  var num = function (el, a) { return +el.getAttribute(a); };
  function shape(el) { return {el: el, i: num(el, "data-i"), es: num(el, "data-es"), ef: num(el, "data-ef"), ms: el.classList.contains("milestone")}; }
  each(".bar", function (el) { var b = shape(el); bars[b.i] = b; });
  each(".ghost", function (el) { ghosts.push(shape(el)); });
  each(".strike", function (el) { strikes.push({el: el, b: bars[num(el, "data-i")]}); });
  each(".float", function (el) { var i = num(el, "data-i"); floats.push({el: el, i: i, ef: bars[i].ef, tf: num(el, "data-tf")}); });
  each(".link", function (el) { links.push({el: el, p: num(el, "data-p"), s: num(el, "data-s"), t: el.getAttribute("data-t")}); });
  var baselines = [], marks = [], dataDate = chart.querySelector("line.datadate");
  each(".baseline", function (el) { baselines.push({el: el, i: num(el, "data-i"), bs: num(el, "data-bs"), bf: num(el, "data-bf")}); });
  each(".constraint", function (el) { marks.push({el: el, i: num(el, "data-i"), at: num(el, "data-at")}); });
  var labels = root.querySelector(".labels"), rows = labels.querySelectorAll(".row"), blocks = labels.querySelectorAll(".blk");
  // slot[i] is the line row i is drawn on; -1 hides it ("changed only").
  var slot = [], lines = rows.length;
  for (var n = 0; n < rows.length; n++) slot[n] = n;

  function X(d) { return G.pad + d * k; }
  function Y(i) { return slot[i] * H; }
  // labelW is the left pane's width as drawn: narrower on a phone.
  function labelW() { return labels.offsetWidth || G.labelW; }
  function r1(v) { return Math.round(v * 10) / 10; }
  function W(b) { return Math.max((b.ef - b.es) * k, 1); }

  // place lays out a bar or a ghost as the Go code's shape does.
  function place(b) {
    if (b.ms) {
      b.el.setAttribute("d", "M" + r1(X(b.es)) + " " + r1(Y(b.i) + H / 2 - G.diamond) + "l7 7l-7 7l-7-7z");
    } else {
      b.el.setAttribute("x", r1(X(b.es)));
      b.el.setAttribute("y", r1(Y(b.i) + (H - G.barH) / 2));
      b.el.setAttribute("width", r1(W(b)));
    }
  }

  function route(l) {
    var p = bars[l.p], s = bars[l.s], t = l.t;
    var fromFinish = t === "FS" || t === "FF", toStart = t === "FS" || t === "SS";
    var x1 = X(fromFinish ? p.ef : p.es), x2 = X(toStart ? s.es : s.ef);
    var y1 = Y(l.p) + H / 2, y2 = Y(l.s) + H / 2;
    var xa = fromFinish ? x1 + G.stub : x1 - G.stub, xb = toStart ? x2 - G.stub : x2 + G.stub;
    var d = "M" + r1(x1) + " " + r1(y1);
    if ((toStart && fromFinish && xa <= xb) || (!toStart && !fromFinish && xa >= xb)) {
      d += "H" + r1(xb);
    } else {
      var ym = y2 < y1 ? y2 + H / 2 : y2 - H / 2;
      d += "H" + r1(xa) + "V" + r1(ym) + "H" + r1(xb);
    }
    return d + "V" + r1(y2) + "H" + r1(x2);
  }

  function tickStep() {
    var min = G.dates ? 84 : 40;
    for (var mag = 1; mag < 1e9; mag *= 10) {
      for (var m = [1, 2, 5], j = 0; j < 3; j++) { if (m[j] * mag * k >= min) return m[j] * mag; }
    }
    return 1e9;
  }

  function drawAxis() {
    var step = tickStep(), h = num(axis, "height"), ch = chart.getAttribute("height"), out = "", gd = "";
    for (var d = 0; d <= G.span; d += step) {
      var x = r1(X(d)), tx = r1(X(d) + 3);
      out += '<line x1="' + x + '" x2="' + x + '" y1="' + (h - 6) + '" y2="' + h + '"/>';
      if (G.dates) out += '<text class="date" x="' + tx + '" y="15">' + G.dates[d] + "</text>";
      out += '<text class="wd" x="' + tx + '" y="' + (h - 8) + '">' + d + "</text>";
      gd += "M" + x + " 0V" + ch;
    }
    axis.querySelector(".ticks").innerHTML = out;
    grid.setAttribute("d", gd);
  }

  function layout() {
    var w = r1(2 * G.pad + G.span * k + G.tail);
    chart.setAttribute("width", w);
    axis.setAttribute("width", w);
    bars.forEach(place);
    ghosts.forEach(place);
    strikes.forEach(function (s) {
      var b = s.b;
      s.el.setAttribute("x1", r1(b.ms ? X(b.es) - G.diamond : X(b.es)));
      s.el.setAttribute("x2", r1(b.ms ? X(b.es) + G.diamond : X(b.es) + W(b)));
      s.el.setAttribute("y1", r1(Y(b.i) + H / 2));
      s.el.setAttribute("y2", r1(Y(b.i) + H / 2));
    });
    floats.forEach(function (f) { f.el.setAttribute("x", r1(X(f.ef))); f.el.setAttribute("y", r1(Y(f.i) + (H - G.floatH) / 2)); f.el.setAttribute("width", r1(f.tf * k)); });
    links.forEach(function (l) { l.el.setAttribute("d", route(l)); });
    finish.setAttribute("x1", r1(X(G.finish)));
    finish.setAttribute("x2", r1(X(G.finish)));
    if (finishBefore) {
      finishBefore.setAttribute("x1", r1(X(G.finishBefore)));
      finishBefore.setAttribute("x2", r1(X(G.finishBefore)));
    }
    baselines.forEach(function (b) { b.el.setAttribute("x", r1(X(b.bs))); b.el.setAttribute("y", r1(Y(b.i) + H / 2 + G.barH / 2 + 1)); b.el.setAttribute("width", r1(Math.max((b.bf - b.bs) * k, 1))); });
    marks.forEach(function (m) { m.el.setAttribute("transform", "translate(" + r1(X(m.at)) + " " + (Y(m.i) - m.i * H) + ")"); });
    if (dataDate) {
      dataDate.setAttribute("x1", r1(X(G.dataDate)));
      dataDate.setAttribute("x2", r1(X(G.dataDate)));
    }
    if (mark) { mark.setAttribute("y", Y(+mark.dataset.i)); mark.setAttribute("width", chart.getAttribute("width")); }
    drawAxis();
    showLevel();
  }

  function showLevel() { level.textContent = (k >= 10 ? k.toFixed(0) : k.toFixed(2)) + " px per working day"; }

  // zoomTo keeps the day under clientX (or the middle) where it is.
  function zoomTo(nk, clientX) {
    nk = Math.min(G.maxK, Math.max(G.minK, nk));
    var vw = root.clientWidth - labelW();
    var at = clientX == null ? vw / 2 : Math.max(0, clientX - root.getBoundingClientRect().left - labelW());
    var day = (root.scrollLeft + at - G.pad) / k;
    k = nk;
    layout();
    root.scrollLeft = G.pad + day * k - at;
  }
  function fit() {
    zoomTo((root.clientWidth - labelW() - 2 * G.pad - G.tail - 16) / G.span);
    root.scrollLeft = 0;
  }

  document.getElementById("zoom-in").addEventListener("click", function () { zoomTo(k * 1.5); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoomTo(k / 1.5); });
  document.getElementById("zoom-fit").addEventListener("click", fit);
  root.addEventListener("wheel", function (e) {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    zoomTo(k * Math.pow(1.002, -e.deltaY), e.clientX);
  }, {passive: false});

  // The tooltip takes over from the native one: the <title> moves into data-tip.
  function move(e) {
    if (tip.hidden) return;
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + tip.offsetWidth > innerWidth) x = e.clientX - tip.offsetWidth - 10;
    if (y + tip.offsetHeight > innerHeight) y = e.clientY - tip.offsetHeight - 10;
    tip.style.left = Math.max(0, x) + "px";
    tip.style.top = Math.max(0, y) + "px";
  }
  chart.addEventListener("mouseover", function (e) {
    var el = e.target.closest && e.target.closest(".bar, .link, .ghost");
    if (!el) { tip.hidden = true; return; }
    var t = el.querySelector("title");
    if (t) { el.setAttribute("data-tip", t.textContent); t.remove(); }
    tip.textContent = el.getAttribute("data-tip");
    tip.hidden = false;
    move(e);
  });
  chart.addEventListener("mousemove", move);
  chart.addEventListener("mouseleave", function () { tip.hidden = true; });

  // Rows shown: "changed only" keeps the changed rows and closes the gaps
  // (every mark is moved to its row's line); hidden marks get class "off".
  var changed = G.changed || [], isChanged = [];
  changed.forEach(function (i) { isChanged[i] = true; });
  var onlyChanged = false, toggle = document.getElementById("changed-only");
  function showRows(only) {
    onlyChanged = only;
    lines = 0;
    for (var i = 0; i < rows.length; i++) {
      slot[i] = !only || isChanged[i] ? lines++ : -1;
      rows[i].classList.toggle("off", slot[i] < 0);
    }
    var hide = function (el, off) { el.classList.toggle("off", off); };
    bars.forEach(function (b) { hide(b.el, slot[b.i] < 0); });
    ghosts.concat(floats, baselines, marks).forEach(function (m) { hide(m.el, slot[m.i] < 0); });
    strikes.forEach(function (s) { hide(s.el, slot[s.b.i] < 0); });
    links.forEach(function (l) { hide(l.el, slot[l.p] < 0 || slot[l.s] < 0); });
    root.classList.toggle("only-changed", only);
    var h = Math.max(lines, 1) * H;
    chart.setAttribute("height", h);
    labels.style.height = h + "px";
    [finish, finishBefore, dataDate].forEach(function (l) { if (l) l.setAttribute("y2", h); });
    if (toggle) toggle.setAttribute("aria-pressed", only ? "true" : "false");
    layout();
  }

  // The label blocks are laid out only near the view (content-visibility):
  // the ones in and around it are marked "near" and always drawn, so a
  // capture or print of a frame that was off screen at load has its labels.
  var nearQueued = false;
  function markNear() {
    nearQueued = false;
    var top = root.scrollTop - root.clientHeight, bottom = root.scrollTop + 2 * root.clientHeight;
    for (var b = 0; b < blocks.length; b++) {
      var el = blocks[b], y = el.offsetTop;
      el.classList.toggle("near", y < bottom && y + (el.offsetHeight || 2200) > top);
    }
  }
  root.addEventListener("scroll", function () { if (!nearQueued) { nearQueued = true; requestAnimationFrame(markNear); } });
  window.addEventListener("beforeprint", function () { document.documentElement.classList.add("printing"); });
  window.addEventListener("afterprint", function () { document.documentElement.classList.remove("printing"); });

  // The change stops: runs of consecutive changed rows. goTo shows row i
  // (a few rows of context above it, its bar in view) and marks it.
  var stops = [], current = -1, mark = null;
  changed.forEach(function (i, n) { if (n === 0 || changed[n - 1] !== i - 1) stops.push(i); });
  var at = document.getElementById("change-at");
  function goTo(i) {
    if (i < 0 || i >= rows.length) return;
    if (slot[i] < 0) showRows(false);
    root.scrollTop = Math.max(0, Y(i) - 3 * H);
    var b = bars[i];
    if (b) root.scrollLeft = Math.max(0, X(b.es) - 48);
    Array.prototype.forEach.call(labels.querySelectorAll(".row.current"), function (r) { r.classList.remove("current"); });
    rows[i].classList.add("current");
    if (!mark) {
      mark = document.createElementNS(chart.namespaceURI, "rect");
      mark.setAttribute("class", "current");
      mark.setAttribute("x", 0);
      mark.setAttribute("height", H);
      chart.insertBefore(mark, chart.querySelector(".links"));
    }
    mark.setAttribute("y", Y(i));
    mark.setAttribute("width", chart.getAttribute("width"));
    mark.dataset.i = i;
    markNear();
  }
  function showStop(n) {
    if (!stops.length) return;
    current = (n + stops.length) % stops.length;
    goTo(stops[current]);
    var run = 1;
    while (isChanged[stops[current] + run]) run++;
    at.textContent = "change " + (current + 1) + " of " + stops.length + (run > 1 ? " (" + run + " rows)" : "");
  }
  if (toggle) {
    document.getElementById("next-change").addEventListener("click", function () { showStop(current + 1); });
    document.getElementById("prev-change").addEventListener("click", function () { showStop(current - 1); });
    toggle.addEventListener("click", function () {
      showRows(!onlyChanged);
      if (current >= 0) goTo(stops[current]);
    });
    document.addEventListener("keydown", function (e) {
      if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
      if (e.key === "n") showStop(current + 1);
      else if (e.key === "p") showStop(current - 1);
      else if (e.key === "c") toggle.click();
    });
    if (!stops.length) {
      at.textContent = "no rows changed";
      ["next-change", "prev-change", "changed-only"].forEach(function (id) { document.getElementById(id).disabled = true; });
    }
  }

  var m = /^#zoom=([0-9.]+)$/.exec(location.hash);
  if (location.hash === "#fit") fit();
  else if (m) { zoomTo(+m[1]); root.scrollLeft = 0; }
  else showLevel();
  // Where the page opens: the row the address names (#row-ID), else the
  // first change (the first edit's run: what the change did, before what
  // it moved), with "#changed" only the changed rows.
  function openAt() {
    var target = null;
    try { target = /^#row-/.test(location.hash) && document.getElementById(decodeURIComponent(location.hash.slice(1))); } catch (e) {}
    if (target && target.parentNode && target.parentNode.parentNode === labels) {
      goTo(Array.prototype.indexOf.call(rows, target));
      return;
    }
    if (location.hash === "#changed" && toggle) showRows(true);
    if (stops.length) {
      var first = 0;
      if (G.firstEdit >= 0) while (first + 1 < stops.length && stops[first + 1] <= G.firstEdit) first++;
      showStop(first);
      if (G.firstEdit >= 0) goTo(G.firstEdit);
    }
  }
  openAt();
  window.addEventListener("hashchange", openAt);
  markNear();
})();
`
