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
.labels .row{display:flex;height:22px;line-height:22px;padding:0 8px 0 6px;white-space:nowrap}
.labels .c-id,.labels .c-name{overflow:hidden;text-overflow:ellipsis}
text{font-size:12px;fill:var(--ink)}
.labels .dur{min-width:40px;text-align:right}
.labels .critical-row{color:var(--red)}
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
@media print{body{display:block}#gantt{overflow:visible}.zoom{display:none}}
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
  each(".float", function (el) { floats.push({el: el, ef: bars[num(el, "data-i")].ef, tf: num(el, "data-tf")}); });
  each(".link", function (el) { links.push({el: el, p: num(el, "data-p"), s: num(el, "data-s"), t: el.getAttribute("data-t")}); });
  var baselines = [], marks = [], dataDate = chart.querySelector("line.datadate");
  each(".baseline", function (el) { baselines.push({el: el, bs: num(el, "data-bs"), bf: num(el, "data-bf")}); });
  each(".constraint", function (el) { marks.push({el: el, at: num(el, "data-at")}); });

  function X(d) { return G.pad + d * k; }
  function r1(v) { return Math.round(v * 10) / 10; }
  function W(b) { return Math.max((b.ef - b.es) * k, 1); }

  // place lays out a bar or a ghost as the Go code's shape does.
  function place(b) {
    if (b.ms) {
      b.el.setAttribute("d", "M" + r1(X(b.es)) + " " + r1(b.i * H + H / 2 - G.diamond) + "l7 7l-7 7l-7-7z");
    } else {
      b.el.setAttribute("x", r1(X(b.es)));
      b.el.setAttribute("width", r1(W(b)));
    }
  }

  function route(l) {
    var p = bars[l.p], s = bars[l.s], t = l.t;
    var fromFinish = t === "FS" || t === "FF", toStart = t === "FS" || t === "SS";
    var x1 = X(fromFinish ? p.ef : p.es), x2 = X(toStart ? s.es : s.ef);
    var y1 = l.p * H + H / 2, y2 = l.s * H + H / 2;
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
    });
    floats.forEach(function (f) { f.el.setAttribute("x", r1(X(f.ef))); f.el.setAttribute("width", r1(f.tf * k)); });
    links.forEach(function (l) { l.el.setAttribute("d", route(l)); });
    finish.setAttribute("x1", r1(X(G.finish)));
    finish.setAttribute("x2", r1(X(G.finish)));
    if (finishBefore) {
      finishBefore.setAttribute("x1", r1(X(G.finishBefore)));
      finishBefore.setAttribute("x2", r1(X(G.finishBefore)));
    }
    baselines.forEach(function (b) { b.el.setAttribute("x", r1(X(b.bs))); b.el.setAttribute("width", r1(Math.max((b.bf - b.bs) * k, 1))); });
    marks.forEach(function (m) { m.el.setAttribute("transform", "translate(" + r1(X(m.at)) + " 0)"); });
    if (dataDate) {
      dataDate.setAttribute("x1", r1(X(G.dataDate)));
      dataDate.setAttribute("x2", r1(X(G.dataDate)));
    }
    drawAxis();
    showLevel();
  }

  function showLevel() { level.textContent = (k >= 10 ? k.toFixed(0) : k.toFixed(2)) + " px per working day"; }

  // zoomTo keeps the day under clientX (or the middle) where it is.
  function zoomTo(nk, clientX) {
    nk = Math.min(G.maxK, Math.max(G.minK, nk));
    var vw = root.clientWidth - G.labelW;
    var at = clientX == null ? vw / 2 : Math.max(0, clientX - root.getBoundingClientRect().left - G.labelW);
    var day = (root.scrollLeft + at - G.pad) / k;
    k = nk;
    layout();
    root.scrollLeft = G.pad + day * k - at;
  }
  function fit() {
    zoomTo((root.clientWidth - G.labelW - 2 * G.pad - G.tail - 16) / G.span);
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

  var m = /^#zoom=([0-9.]+)$/.exec(location.hash);
  if (location.hash === "#fit") fit();
  else if (m) { zoomTo(+m[1]); root.scrollLeft = 0; }
  else showLevel();
})();
`
