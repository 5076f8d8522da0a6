// The report's charts: a small SVG line-chart renderer and the page layout.
// No library, no network: the data is YCSB_DATA, computed by ycsb report.
(function () {
  "use strict";
  var status = document.getElementById("status");
  var errors = [];
  function fail(msg) {
    errors.push(String(msg));
    status.setAttribute("data-status", "error");
    status.textContent = "error: " + errors.join("; ");
  }
  window.addEventListener("error", function (e) { fail(e.message || e); });
  var consoleError = console.error;
  console.error = function () {
    fail(Array.prototype.join.call(arguments, " "));
    consoleError.apply(console, arguments);
  };

  var NS = "http://www.w3.org/2000/svg";
  var COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
  var CAPACITY_COLORS = ["#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"];
  var M = { l: 64, r: 30, t: 10, b: 40 };

  function svgEl(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function htmlEl(tag, attrs, parent, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // Formats.
  function fmtCount(v) {
    var a = Math.abs(v);
    if (a >= 1e9) return +(v / 1e9).toPrecision(3) + "G";
    if (a >= 1e6) return +(v / 1e6).toPrecision(3) + "M";
    if (a >= 1e3) return +(v / 1e3).toPrecision(3) + "k";
    return String(+v.toPrecision(3));
  }
  function fmtUs(v) {
    if (v >= 1e6) return +(v / 1e6).toPrecision(3) + "s";
    if (v >= 1e3) return +(v / 1e3).toPrecision(3) + "ms";
    return +v.toPrecision(3) + "µs";
  }
  function fmtSecs(v) {
    if (v >= 120) return Math.floor(v / 60) + "m" + (v % 60 ? Math.round(v % 60) + "s" : "");
    return +v.toPrecision(4) + "s";
  }
  function fmtNines(n) { // x = -log10(1-q) back to a percentile label
    if (n <= 0) return "0%";
    var p = 100 * (1 - Math.pow(10, -n));
    return +p.toFixed(Math.max(0, Math.ceil(n) - 2)) + "%";
  }
  function fmtInt(v) { return Math.round(v).toLocaleString("en-US"); }
  // An answer, rounded down: never shown above what its step achieved.
  function fmtFloor(v) { return Math.floor(v).toLocaleString("en-US"); }

  // Ticks.
  function linearTicks(min, max, n) {
    var span = max - min;
    var step = Math.pow(10, Math.floor(Math.log10(span / n)));
    var err = n / span * step;
    if (err <= 0.15) step *= 10; else if (err <= 0.35) step *= 5; else if (err <= 0.75) step *= 2;
    var t = [];
    for (var v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) t.push(+v.toPrecision(12));
    return t;
  }
  function logTicks(min, max) {
    var t = [];
    for (var e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) t.push(Math.pow(10, e));
    return t;
  }

  // scale returns a function from data to pixels and the ticks.
  function scale(axis, lo, hi, pxLo, pxHi) {
    if (axis.log) {
      lo = Math.max(lo, 1); hi = Math.max(hi, lo * 10);
      var a = Math.floor(Math.log10(lo)), b = Math.ceil(Math.log10(hi));
      if (a === b) b++;
      var f = function (v) { return pxLo + (Math.log10(Math.max(v, 1)) - a) / (b - a) * (pxHi - pxLo); };
      return { f: f, ticks: logTicks(Math.pow(10, a), Math.pow(10, b)), lo: Math.pow(10, a), hi: Math.pow(10, b) };
    }
    if (axis.zero) lo = Math.min(lo, 0);
    if (hi <= lo) { hi = lo + (Math.abs(lo) || 1); }
    var ticks = axis.integerTicks ? integerTicks(lo, hi) : linearTicks(lo, hi, axis.nTicks || 6);
    lo = Math.min(lo, ticks[0]); hi = Math.max(hi, ticks[ticks.length - 1]);
    return { f: function (v) { return pxLo + (v - lo) / (hi - lo) * (pxHi - pxLo); }, ticks: ticks, lo: lo, hi: hi };
  }
  function integerTicks(lo, hi) {
    var t = [];
    for (var v = Math.floor(lo); v <= Math.ceil(hi); v++) t.push(v);
    return t;
  }

  function minOf(a) { var m = Infinity; for (var i = 0; i < a.length; i++) if (a[i] < m) m = a[i]; return m; }
  function maxOf(a) { var m = -Infinity; for (var i = 0; i < a.length; i++) if (a[i] > m) m = a[i]; return m; }

  var chartCount = 0, pointCount = 0, emptyCount = 0, thresholdCount = 0;

  // Verdict colours: a pass, a failure, and nothing measured or not judged.
  var VERDICT_COLORS = { PASS: "#1a7f37", FAIL: "#c62828" };
  var NEUTRAL = "#6b7280";
  function verdictColor(v) { return VERDICT_COLORS[v] || NEUTRAL; }

  // lineChart draws series [{name, color, dash, width, points: [[x, y]]}]
  // into parent and returns the number of points drawn. Each of lines
  // [{y, to, label: [{text, color}], color, name}] is a dashed horizontal
  // threshold at y, across the chart or from its left edge to x = to,
  // labelled at its right end.
  function lineChart(parent, title, x, y, series, wide, lines) {
    lines = lines || [];
    // Wide charts span the page: a wider drawing keeps the text the same size.
    var W = wide ? 1180 : 560, H = wide ? 320 : 300;
    var box = htmlEl("div", { "class": "chart" }, parent);
    htmlEl("h3", {}, box, title);
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title }, box);
    chartCount++;
    var xs = [], ys = [];
    series.forEach(function (s) {
      s.points = (s.points || []).filter(function (p) { return isFinite(p[0]) && isFinite(p[1]); });
      s.points.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); });
    });
    svgEl("rect", { "class": "frame", x: M.l, y: M.t, width: W - M.l - M.r, height: H - M.t - M.b }, svg);
    var hasData = xs.length > 0;
    lines.forEach(function (l) {
      ys.push(l.y);
      if (l.to !== undefined) xs.push(l.to);
    });
    if (!hasData) {
      emptyCount++;
      svgEl("text", { "class": "empty", x: W / 2, y: H / 2, "text-anchor": "middle" }, svg).textContent = "no data in these reports";
      return 0;
    }
    var sx = scale(x, minOf(xs), maxOf(xs), M.l, W - M.r);
    var sy = scale(y, minOf(ys), maxOf(ys), H - M.b, M.t);
    axes(svg, W, H, x, y, sx, sy);
    var n = 0;
    var legend = htmlEl("div", { "class": "legend" }, box);
    series.forEach(function (s) {
      if (s.points.length === 0) return;
      var d = s.points.map(function (p, i) {
        return (i ? "L" : "M") + sx.f(p[0]).toFixed(1) + "," + sy.f(p[1]).toFixed(1);
      }).join("");
      var path = svgEl("path", { d: d, fill: "none", stroke: s.color, "stroke-width": s.width || 1.8,
        "stroke-linejoin": "round", "stroke-dasharray": s.dash === "dash" ? "6 4" : s.dash === "dot" ? "2 3" : "none" }, svg);
      svgEl("title", {}, path).textContent = s.name;
      if (s.points.length === 1) {
        svgEl("circle", { cx: sx.f(s.points[0][0]), cy: sy.f(s.points[0][1]), r: 3, fill: s.color }, svg);
      }
      var item = htmlEl("span", {}, legend);
      htmlEl("i", { "class": s.dash || "", style: "border-color:" + s.color }, item);
      item.appendChild(document.createTextNode(s.name));
      n += s.points.length;
    });
    lines.forEach(function (l) { threshold(svg, legend, W, sx, sy, l); });
    pointCount += n;
    return n;
  }

  // axes draws the grid, the ticks and the axis labels of a chart.
  function axes(svg, W, H, x, y, sx, sy) {
    var g = svgEl("g", { "class": "axis" }, svg);
    sx.ticks.forEach(function (t) {
      if (t < sx.lo || t > sx.hi) return;
      var px = sx.f(t);
      svgEl("line", { x1: px, x2: px, y1: M.t, y2: H - M.b }, g);
      svgEl("text", { x: px, y: H - M.b + 14, "text-anchor": "middle" }, g).textContent = x.fmt(t);
    });
    sy.ticks.forEach(function (t) {
      if (t < sy.lo || t > sy.hi) return;
      var py = sy.f(t);
      svgEl("line", { x1: M.l, x2: W - M.r, y1: py, y2: py }, g);
      svgEl("text", { x: M.l - 6, y: py + 4, "text-anchor": "end" }, g).textContent = y.fmt(t);
    });
    svgEl("text", { "class": "label", x: (M.l + W - M.r) / 2, y: H - 6, "text-anchor": "middle" }, svg).textContent = x.label;
    svgEl("text", { "class": "label", x: 12, y: (M.t + H - M.b) / 2, "text-anchor": "middle",
      transform: "rotate(-90 12 " + (M.t + H - M.b) / 2 + ")" }, svg).textContent = y.label;
  }

  // threshold draws line l (see lineChart) and its legend item.
  function threshold(svg, legend, W, sx, sy, l) {
    var py = sy.f(l.y), x1 = l.to === undefined ? W - M.r : sx.f(l.to);
    var ln = svgEl("line", { "class": "threshold", x1: M.l, x2: x1, y1: py, y2: py, stroke: l.color,
      "stroke-width": 1.6, "stroke-dasharray": "9 4" }, svg);
    svgEl("title", {}, ln).textContent = l.name;
    if (l.to !== undefined) {
      svgEl("line", { x1: x1, x2: x1, y1: py - 5, y2: py + 5, stroke: l.color, "stroke-width": 1.6 }, svg);
    }
    // The label sits above the line, inside the frame, at its right end
    // (or its left, where the right is busy).
    var ty = py - 5 < M.t + 12 ? py + 14 : py - 5;
    var text = svgEl("text", { "class": "threshold-label", x: l.left ? M.l + 4 : x1 - 4, y: ty, "text-anchor": l.left ? "start" : "end" }, svg);
    l.label.forEach(function (part) {
      var ts = svgEl("tspan", part.color ? { fill: part.color, "font-weight": "bold" } : {}, text);
      ts.textContent = part.text;
    });
    // A short line (a low percentile) leaves no room on its left: the
    // label goes right of its end.
    if (!l.left && text.getComputedTextLength && x1 - 4 - text.getComputedTextLength() < M.l) {
      text.setAttribute("x", x1 + 6);
      text.setAttribute("text-anchor", "start");
    }
    var item = htmlEl("span", {}, legend);
    htmlEl("i", { "class": "dash", style: "border-color:" + l.color }, item);
    item.appendChild(document.createTextNode(l.name));
    thresholdCount++;
  }

  // Capacity searches (ycsb capacity): latency against throughput.
  var answerCount = 0;
  var CLIENT_LIMITED = "CLIENT-LIMITED";
  var ANSWER_SHORT = { client: "(client-limited)", max: "(capacity.max)", steps: "(steps ran out)" };

  // marker draws run i's point shape (circle, square, diamond, triangle).
  function marker(parent, i, cx, cy, attrs) {
    var r = 5.5, e;
    switch (i % 4) {
      case 0: e = svgEl("circle", { cx: cx, cy: cy, r: r }, parent); break;
      case 1: e = svgEl("rect", { x: cx - r + 0.8, y: cy - r + 0.8, width: 2 * r - 1.6, height: 2 * r - 1.6 }, parent); break;
      case 2: e = svgEl("path", { d: "M" + cx + "," + (cy - r - 1) + "l" + (r + 1) + "," + (r + 1) + "l" + -(r + 1) + "," + (r + 1) +
        "l" + -(r + 1) + "," + -(r + 1) + "z" }, parent); break;
      default: e = svgEl("path", { d: "M" + cx + "," + (cy - r - 1) + "l" + (r + 1) + "," + (2 * r) + "h" + -(2 * r + 2) + "z" }, parent);
    }
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  // pointStyle is a step's marker by its verdict: filled green or red, a
  // client-limited step hollow grey (nothing is known of the system there).
  function pointStyle(verdict) {
    if (verdict === CLIENT_LIMITED) return { fill: "#fff", stroke: NEUTRAL, "stroke-width": 2, "class": "step client-limited" };
    return { fill: verdictColor(verdict), stroke: "#fff", "stroke-width": 1, "class": "step " + verdict.toLowerCase() };
  }
  function legendMarker(parent, i, style) {
    var sv = svgEl("svg", { "class": "marker", width: 16, height: 14, viewBox: "0 0 16 14" }, parent);
    marker(sv, i, 8, 7, style).removeAttribute("class"); // a step's class counts the chart's steps
  }

  // capacityChart draws chart c: each search's steps at (achieved
  // throughput, the objective's figure), joined in order of the rate
  // asked; the objective's limit dashed across; each search's answer as a
  // vertical line, with the bracket to its first failing step shaded.
  function capacityChart(parent, c, D, color) {
    var W = 1180, H = 360;
    var title = c.objective + ": the " + c.statistic + " of " + (c.operation === "ALL" ? "all operations" : c.operation) +
      " (intended latency) at each step, against the throughput it achieved";
    var box = htmlEl("div", { "class": "chart" }, parent);
    htmlEl("h3", {}, box, title);
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title }, box);
    chartCount++;
    svgEl("rect", { "class": "frame", x: M.l, y: M.t, width: W - M.l - M.r, height: H - M.t - M.b }, svg);
    var xs = [0], ys = [c.limit], n = 0;
    c.series.forEach(function (s) {
      s.points.forEach(function (p) { xs.push(p.achieved); ys.push(p.measured); n++; });
      var a = D.runs[s.run].capacity.answer;
      if (a.x > 0) xs.push(a.x);
      if (a.x_failing > 0) xs.push(a.x_failing);
    });
    if (n === 0) emptyCount++;
    var x = { label: "throughput achieved (ops/s)", fmt: fmtCount, zero: true };
    var y = { label: c.statistic + " latency" + (c.log_y ? " (log scale)" : ""), fmt: fmtUs, log: c.log_y, zero: !c.log_y };
    // Head room for the answers' labels above the highest point (a log
    // axis ends at the next decade).
    var ymax = maxOf(ys), ymin = minOf(ys);
    var sx = scale(x, 0, maxOf(xs) * 1.04, M.l, W - M.r);
    var sy = scale(y, ymin, c.log_y ? ymax : ymax * 1.15, H - M.b, M.t);
    axes(svg, W, H, x, y, sx, sy);
    var legend = htmlEl("div", { "class": "legend" }, box);

    // The answers' lines first, under the points; their labels last, over
    // everything.
    var answerLabels = [];
    c.series.forEach(function (s, k) {
      var r = D.runs[s.run], a = r.capacity.answer;
      if (!(a.x > 0)) return;
      var px = sx.f(a.x);
      if (a.x_failing > 0) {
        var x0 = Math.min(px, sx.f(a.x_failing)), x1 = Math.max(px, sx.f(a.x_failing));
        svgEl("rect", { "class": "bracket", x: x0, y: M.t, width: Math.max(x1 - x0, 1), height: H - M.t - M.b,
          fill: color(s.run), "fill-opacity": 0.12 }, svg);
      }
      var ln = svgEl("line", { "class": "answer", x1: px, x2: px, y1: M.t, y2: H - M.b, stroke: color(s.run), "stroke-width": 2 }, svg);
      svgEl("title", {}, ln).textContent = r.name + ": " + a.headline + ". Limit: " + a.limit_why;
      var label = (c.series.length > 1 ? r.name + ": " : "") + (a.limit === "client" || a.limit === "max" ? "≥ " : "max ") +
        fmtFloor(a.max_ops_sec) + " ops/s" + (ANSWER_SHORT[a.limit] ? " " + ANSWER_SHORT[a.limit] : "");
      answerLabels.push({ px: px, y: M.t + 14 + 16 * k, text: label, color: color(s.run) });
      answerCount++;
    });

    // Its label on the left: the answers and the failing steps are on the right.
    threshold(svg, legend, W, sx, sy, { left: true, y: c.limit, label: [{ text: c.objective + " (the limit)" }], color: "#374151",
      name: c.objective + ": the objective's limit" });

    c.series.forEach(function (s) {
      var r = D.runs[s.run];
      if (s.points.length > 0) {
        var d = s.points.map(function (p, i) {
          return (i ? "L" : "M") + sx.f(p.achieved).toFixed(1) + "," + sy.f(p.measured).toFixed(1);
        }).join("");
        var path = svgEl("path", { d: d, fill: "none", stroke: color(s.run), "stroke-width": 1.6, "stroke-linejoin": "round" }, svg);
        svgEl("title", {}, path).textContent = r.name;
      }
      s.points.forEach(function (p) {
        var px = sx.f(p.achieved), py = sy.f(p.measured);
        var m = marker(svg, s.run, px, py, pointStyle(p.verdict));
        svgEl("title", {}, m).textContent = r.name + ", step " + p.step + ": " + fmtInt(p.asked) + " ops/s asked, " +
          fmtInt(p.achieved) + " achieved, " + c.statistic + " " + fmtUs(p.measured) + " (" + p.objective + "): " + p.verdict +
          (p.why ? " — " + p.why : "");
        if (p.verdict !== "PASS") {
          // A step that failed on another objective says which.
          var txt = p.verdict === "FAIL" && p.objective === "PASS" && p.why ? "FAIL: " + p.why : p.verdict;
          var t = svgEl("text", { "class": "threshold-label point-label", x: px + 9, y: py - 7, "text-anchor": "start",
            fill: p.verdict === CLIENT_LIMITED ? NEUTRAL : verdictColor(p.verdict) }, svg);
          t.textContent = txt;
          if (t.getComputedTextLength && px + 9 + t.getComputedTextLength() > W - M.r) {
            t.setAttribute("x", px - 9);
            t.setAttribute("text-anchor", "end");
          }
        }
      });
      pointCount += s.points.length;
      var item = htmlEl("span", {}, legend);
      htmlEl("i", { style: "border-color:" + color(s.run) }, item);
      legendMarker(item, s.run, { fill: color(s.run), stroke: "#fff" });
      item.appendChild(document.createTextNode(r.name));
    });
    answerLabels.forEach(function (l) {
      var text = svgEl("text", { "class": "threshold-label answer-label", x: l.px - 5, y: l.y, "text-anchor": "end",
        fill: l.color, "font-weight": "bold" }, svg);
      text.textContent = l.text;
      if (text.getComputedTextLength && l.px - 5 - text.getComputedTextLength() < M.l) {
        text.setAttribute("x", l.px + 5);
        text.setAttribute("text-anchor", "start");
      }
    });
    [["PASS", "step passed"], ["FAIL", "step failed"], [CLIENT_LIMITED, "client-limited: the client, not the system, limited the step"]].forEach(function (v) {
      var item = htmlEl("span", {}, legend);
      legendMarker(item, 0, pointStyle(v[0]));
      item.appendChild(document.createTextNode(v[1]));
    });
    var item = htmlEl("span", {}, legend);
    htmlEl("i", { style: "border-color:" + NEUTRAL }, item);
    item.appendChild(document.createTextNode("answer (solid), bracket to the first failing step (shaded)"));
    c.series.forEach(function (s) {
      var r = D.runs[s.run], a = r.capacity.answer;
      var p = htmlEl("p", { "class": "answer-text" }, box);
      htmlEl("span", { "class": "swatch", style: "background:" + color(s.run) }, p);
      htmlEl("b", {}, p, r.name + ": " + a.headline + ".");
      p.appendChild(document.createTextNode(" Limit: " + a.limit_why + "."));
    });
  }

  // capacityTable is a search's steps in the order it ran them, each
  // objective's figure coloured by its verdict, and the answer.
  function capacityTable(parent, r, i, color) {
    htmlEl("h3", {}, parent, "Steps: " + r.name);
    var objs = [];
    r.capacity.steps.forEach(function (s) {
      ((s.slo || {}).objectives || []).forEach(function (o) {
        if (objs.indexOf(o.objective) < 0) objs.push(o.objective);
      });
    });
    var head = ["step", "confirms", "asked (ops/s)", "achieved (ops/s)", "threads", "measured", "operations"].concat(objs)
      .concat([{ text: "verdict", cls: "l" }, { text: "why", cls: "l" }, "trusted"]);
    var div = htmlEl("div", { "class": "scroll" }, parent);
    table(div, head, r.capacity.steps.map(function (s, k) {
      // A step run again to confirm one that did not pass names it; its
      // verdict is the rate's.
      var cells = [k + 1, s.confirms ? "step " + s.confirms : "", fmtInt(s.asked_ops_sec), fmtInt(s.achieved_ops_sec), s.threads, fmtSecs(s.measured_ms / 1000), fmtInt(s.operations)];
      objs.forEach(function (name) {
        var o = ((s.slo || {}).objectives || []).filter(function (o) { return o.objective === name; })[0];
        if (!o) { cells.push(""); return; }
        // A client-limited step's figures are the client's queue: grey, as
        // nothing is known of the system there.
        cells.push({ text: o.measured === undefined ? "no data" : fmtMeasure(o.measured, o.unit),
          fg: s.verdict === CLIENT_LIMITED ? NEUTRAL : verdictColor(o.verdict) });
      });
      // Not to be trusted: too few operations for the percentiles, or the
      // machine's own load in a failure (its sentence follows the why).
      var distrust = [];
      if (!s.trusted) distrust.push("too few operations");
      if (s.untrusted) distrust.push("the machine's load");
      cells.push({ text: s.verdict, cls: "l", fg: s.verdict === CLIENT_LIMITED ? NEUTRAL : verdictColor(s.verdict) },
        { text: [s.why, s.untrusted].filter(Boolean).join("; "), cls: "l wrap" },
        distrust.length ? "no (" + distrust.join(", ") + ")" : "yes");
      return { cells: cells };
    })).className = "steps";
    var a = r.capacity.answer, p = htmlEl("p", { "class": "answer-text" }, parent);
    htmlEl("span", { "class": "swatch", style: "background:" + color(i) }, p);
    htmlEl("b", {}, p, "Answer: " + a.headline + ".");
    p.appendChild(document.createTextNode(" Limit: " + a.limit_why + "."));
  }

  function renderCapacity(D, main, color) {
    htmlEl("h2", {}, main, D.runs.length > 1 ? "Capacity searches" : "Capacity search");
    table(main, ["search", "binding", "start (UTC)", "run time", "steps", "answer (ops/s)", "achieved (ops/s)", "first failing (ops/s)",
      { text: "limit", cls: "l" }],
    D.runs.map(function (r, i) {
      var a = r.capacity.answer;
      return { cells: [{ text: r.name, color: color(i), cls: "run" }, { text: r.binding, cls: "l" },
        { text: r.start.replace("T", " ").replace("Z", ""), cls: "l" }, fmtSecs(r.runtime_ms / 1000), r.capacity.steps.length,
        a.max_ops_sec ? (a.limit === "client" || a.limit === "max" ? "≥ " : "") + fmtFloor(a.max_ops_sec) : "none",
        a.achieved_ops_sec ? fmtInt(a.achieved_ops_sec) : "-", a.first_failing_ops_sec ? fmtInt(a.first_failing_ops_sec) : "-",
        { text: a.limit, cls: "l" }] };
    }));
    htmlEl("h2", {}, main, "Latency against throughput (each step's whole measurement, judged on intended latency)");
    var g = htmlEl("div", { "class": "stack" }, main);
    var charts = D.capacity || []; // none without a latency objective
    if (charts.length === 0) htmlEl("p", { "class": "no-charts" }, g, "No latency objective: nothing to draw (the steps are in the table).");
    charts.forEach(function (c) { capacityChart(g, c, D, color); });
    htmlEl("h2", {}, main, "Steps (in the order the search ran them)");
    D.runs.forEach(function (r, i) { capacityTable(main, r, i, color); });
  }

  function section(parent, title) {
    htmlEl("h2", {}, parent, title);
    return htmlEl("div", { "class": "grid" }, parent);
  }

  function table(parent, head, rows) {
    var t = htmlEl("table", {}, parent);
    var tr = htmlEl("tr", {}, htmlEl("thead", {}, t));
    head.forEach(function (h) { htmlEl("th", h.cls ? { "class": h.cls } : {}, tr, h.text || h); });
    var body = htmlEl("tbody", {}, t);
    rows.forEach(function (r) {
      var row = htmlEl("tr", r.cls ? { "class": r.cls } : {}, body);
      r.cells.forEach(function (c, i) {
        var td = htmlEl("td", c && c.cls ? { "class": c.cls } : {}, row);
        if (c && c.fg) td.setAttribute("style", "color:" + c.fg + ";font-weight:600");
        if (c && c.title) td.setAttribute("title", c.title);
        if (c && c.color) htmlEl("span", { "class": "swatch", style: "background:" + c.color }, td);
        td.appendChild(document.createTextNode(c && typeof c === "object" ? c.text : String(c)));
      });
    });
    return t;
  }

  // fmtMeasure writes an objective's figure in its unit.
  function fmtMeasure(v, unit) {
    if (unit === "us") return fmtUs(v);
    if (unit === "fraction") return +(v * 100).toPrecision(3) + "%";
    return fmtInt(v) + " ops/s";
  }

  // thresholdLine turns threshold t into lineChart's line, labelled with
  // the objective and each judged run's verdict (and measure).
  function thresholdLine(t, D, color, to) {
    var judged = t.verdicts.filter(function (v) { return v.verdict !== ""; });
    var same = judged.every(function (v) { return v.verdict === judged[0].verdict; });
    var label = [{ text: t.objective + "  " }], plain = [];
    function measure(v) { return v.measured === undefined ? "" : " (" + fmtMeasure(v.measured, t.unit) + ")"; }
    // why is what a NO DATA lacks, for the line's name (too long for its label).
    function why(v) { return v.why ? " (" + v.why + ")" : ""; }
    if (judged.length === 0) {
      label.push({ text: "not judged", color: NEUTRAL });
      plain.push("not judged");
    } else if (judged.length === 1 && D.runs.length === 1) {
      label.push({ text: judged[0].verdict, color: verdictColor(judged[0].verdict) }, { text: measure(judged[0]) });
      plain.push(judged[0].verdict + measure(judged[0]) + why(judged[0]));
    } else if (same && judged.length === D.runs.length) {
      var all = judged.length === 2 ? "both" : "all " + judged.length;
      label.push({ text: judged[0].verdict, color: verdictColor(judged[0].verdict) }, { text: " (" + all + " runs)" });
      plain.push(judged[0].verdict + " in " + all + " runs");
    } else {
      judged.forEach(function (v, i) {
        var run = D.runs[v.run].name;
        label.push({ text: (i ? " · " : "") + run + " ", color: color(v.run) }, { text: v.verdict, color: verdictColor(v.verdict) });
        if (judged.length === 1) label.push({ text: measure(v) });
        plain.push(run + " " + v.verdict + measure(v) + why(v));
      });
    }
    var fail = judged.some(function (v) { return v.verdict === "FAIL"; });
    var pass = judged.length > 0 && judged.every(function (v) { return v.verdict === "PASS"; });
    return { y: t.limit, to: to, label: label, name: t.objective + ": " + plain.join(", "),
      color: fail ? VERDICT_COLORS.FAIL : pass ? VERDICT_COLORS.PASS : NEUTRAL };
  }

  // sloTable is the objectives of every run with their measures and
  // verdicts, and each run's overall verdict.
  function sloTable(parent, D, color) {
    htmlEl("h2", {}, parent, "Service level objectives");
    var rows = [];
    D.runs.forEach(function (r, i) {
      if (!r.slo) return;
      var runCell = { text: r.name, color: color(i), cls: "l" };
      r.slo.objectives.forEach(function (o) {
        rows.push({ cells: [runCell, { text: o.objective, cls: "l" }, { text: o.comparison + " " + fmtMeasure(o.limit, o.unit), cls: "l" },
          o.measured === undefined ? (o.why ? "no data: " + o.why : "no data") : fmtMeasure(o.measured, o.unit),
          { text: o.verdict || "not judged", cls: "l", fg: verdictColor(o.verdict) }] });
      });
      var failed = r.slo.objectives.filter(function (o) { return o.verdict !== "PASS"; }).length;
      var verdict = !r.slo.judged ? "NOT JUDGED" : r.slo.passed ? "PASS" : "FAIL";
      rows.push({ cls: "verdict", cells: [runCell, { text: "the run (" + r.slo.latency + " latency)", cls: "l" }, "", "",
        { text: verdict + (r.slo.judged && !r.slo.passed ? " (" + failed + " of " + r.slo.objectives.length + ")" : "") +
          (r.slo.aborted ? "; stopped early: " + r.slo.aborted : ""), cls: "l", fg: verdictColor(verdict) }] });
    });
    table(parent, ["run", { text: "objective", cls: "l" }, { text: "limit", cls: "l" }, "measured", { text: "verdict", cls: "l" }], rows);
  }

  // economyTable is each closed-economy run's check of its invariant.
  function economyTable(parent, D, color) {
    htmlEl("h2", {}, parent, "Closed economy");
    var rows = [];
    D.runs.forEach(function (r, i) {
      var v = r.validation;
      if (!v) return;
      var verdict = v.status === "SUCCESS" ? "PASS" : "FAIL";
      rows.push({ cells: [{ text: r.name, color: color(i), cls: "l" }, fmtInt(v.total_cash),
        v.start_cash === undefined ? "-" : fmtInt(v.start_cash), fmtInt(v.counted_cash),
        fmtInt(v.accounts) + " of " + fmtInt(v.expected_accounts), fmtInt(v.operations), String(v.anomaly_score),
        { text: v.method, cls: "l" }, { text: v.status + (v.error ? ": " + v.error : ""), cls: "l", fg: verdictColor(verdict) }] });
    });
    table(parent, ["run", "total cash", "start cash", "counted cash", "accounts", "operations", "anomaly score", { text: "method", cls: "l" },
      { text: "status", cls: "l" }], rows);
  }

  // scheduleTable is each paced run's schedule (its [SCHEDULE] rows):
  // the target, how far behind it the operations started, how late the
  // workers woke for those they had time to wait for, and how many
  // started late; dashes where an older report does not say.
  function scheduleTable(parent, D, color) {
    htmlEl("h2", {}, parent, "Schedule (-target)");
    htmlEl("p", {}, parent, "Lag: how far behind its due time an operation started. Wake lateness: how late a worker woke for an " +
      "operation it had time to wait for, the client's own timing. Late starts: operations started behind their due time.");
    var share = D.runs.some(function (r) { return r.schedule && r.schedule.wake_late_share !== undefined; });
    var rows = [];
    D.runs.forEach(function (r, i) {
      var s = r.schedule;
      if (!s) return;
      var w = s.wake, known = s.starts_known;
      function wake(v) { return w ? fmtUs(v(w)) : "-"; }
      var cells = [{ text: r.name, color: color(i), cls: "l" }, fmtInt(s.target_ops_sec), fmtUs(s.mean_lag_us), fmtUs(s.max_lag_us),
        fmtUs(s.final_lag_us), known ? fmtInt(w ? w.count : 0) : "-", wake(function (w) { return w.mean_us; }),
        wake(function (w) { return w.p50_us; }), wake(function (w) { return w.p99_us; }), wake(function (w) { return w.max_us; }),
        known ? fmtInt(s.late_starts) : "-"];
      if (share) cells.push(s.wake_late_share === undefined ? "-" : +(s.wake_late_share * 100).toPrecision(3) + "%");
      rows.push({ cells: cells });
    });
    var head = ["run", "target (ops/s)", "mean lag", "max lag", "final lag", "wake-ups", "wake lateness: mean", "p50", "p99", "max",
      "late starts"];
    table(parent, share ? head.concat(["wake lateness / intended latency"]) : head, rows);
  }

  function render(D) {
    var main = document.getElementById("main");
    var color = function (i) { return COLORS[i % COLORS.length]; };
    // Grouped runs (-groups): one colour per series on every chart and table.
    if (D.groups && D.groups.length) {
      color = function (i) { return COLORS[Math.max(0, D.series.indexOf(D.runs[i].series)) % COLORS.length]; };
    }
    if (D.runs[0].capacity) {
      // The points' fill says the verdict in green, red and grey: the
      // searches' own colours are none of those.
      renderCapacity(D, main, function (i) { return CAPACITY_COLORS[i % CAPACITY_COLORS.length]; });
      settingsSection(main, D);
      return;
    }
    var timeAxis = { label: "time since start of measurement", fmt: fmtSecs, zero: true };
    var usAxis = { label: "latency", fmt: fmtUs, log: true };

    // Runs.
    htmlEl("h2", {}, main, D.runs.length > 1 ? "Runs" : "Run");
    var verdicts = D.runs.some(function (r) { return r.verdict; });
    var runHead = ["run", "binding", "phase", "start (UTC)", "run time", "warm-up", "clients", "operations", "throughput (ops/s)"];
    table(main, verdicts ? runHead.concat([{ text: "client's verdict", cls: "l" }]) : runHead,
      D.runs.map(function (r, i) {
        var cells = [{ text: r.name, color: color(i), cls: "run" }, { text: r.binding, cls: "l" }, { text: r.phase, cls: "l" },
          { text: r.start.replace("T", " ").replace("Z", ""), cls: "l" }, fmtSecs(r.runtime_ms / 1000),
          r.warmup_ms ? fmtSecs(r.warmup_ms / 1000) : "-", r.clients, fmtInt(r.operations), fmtInt(r.throughput)];
        if (verdicts) cells.push({ text: r.verdict || "-", cls: "l", fg: r.verdict && r.verdict !== "KEPT UP" ? "#b3261e" : undefined });
        return { cells: cells };
      }));
    if (verdicts) {
      htmlEl("p", {}, main, "The client's verdict: KEPT UP, or the limits the process ran into (CPU-BOUND: it used the cores it had; " +
        "GC-PAUSES: Go's garbage collector stopped it for a noticeable share of the run). An embedded engine runs in the same process, " +
        "so its work is in these figures.");
    }
    // A run a signal stopped is not the run planned: said under the table,
    // in the accent colour, before any figure is read off a chart.
    D.runs.forEach(function (r) {
      if (r.interrupted) htmlEl("p", { "class": "interrupted" }, main, r.name + ": " + r.interrupted + ". Its figures cover part of the planned run.");
    });

    var thresholds = D.thresholds || [];
    if (thresholds.length) sloTable(main, D, color);
    if (D.runs.some(function (r) { return r.validation; })) economyTable(main, D, color);
    if (D.runs.some(function (r) { return r.schedule; })) scheduleTable(main, D, color);

    if (D.groups && D.groups.length) {
      groupedCharts(main, D, color, thresholds, timeAxis, usAxis);
    } else {
      ungroupedCharts(main, D, color, thresholds, timeAxis, usAxis);
    }
    summarySection(main, D, color);
    engineSection(main, D, color);
    settingsSection(main, D);
  }

  // groupedCharts draws each group's runs on charts of their own: its
  // throughput, then each of its operations' latency over time and
  // percentile spectrum, a series per run named by its series.
  function groupedCharts(main, D, color, thresholds, timeAxis, usAxis) {
    D.groups.forEach(function (grp) {
      var mine = [];
      D.runs.forEach(function (r, i) { if (r.group === grp) mine.push(i); });
      var ops = D.operations.filter(function (op) {
        return mine.some(function (i) { return D.runs[i].latency_series[op] || D.runs[i].spectrum[op]; });
      });
      var g = section(main, grp + ": throughput, latency over time (p99 solid, p50 dashed) and percentile spectrum");
      lineChart(g, grp + ": operations per second", timeAxis, { label: "ops/s", fmt: fmtCount, zero: true },
        mine.map(function (i) { return { name: D.runs[i].series, color: color(i), points: D.runs[i].ops_series }; }), true,
        thresholds.filter(function (t) { return t.statistic === "throughput"; }).map(function (t) { return thresholdLine(t, D, color); }));
      // The throughput across the row; below it, each operation's latency
      // over time beside its spectrum.
      g.lastChild.style.gridColumn = "1 / -1";
      ops.forEach(function (op) {
        var series = [];
        mine.forEach(function (i) {
          var ls = D.runs[i].latency_series[op];
          if (!ls) return;
          series.push({ name: D.runs[i].series + " p99", color: color(i), points: ls.p99 });
          series.push({ name: D.runs[i].series + " p50", color: color(i), dash: "dash", width: 1.4, points: ls.p50 });
        });
        lineChart(g, grp + ": " + op + " latency over time", timeAxis, usAxis, series, false,
          thresholds.filter(function (t) { return t.chart === op && t.series; }).map(function (t) { return thresholdLine(t, D, color); }));
        lineChart(g, grp + ": " + op + " percentile spectrum", { label: "percentile", fmt: fmtNines, integerTicks: true }, usAxis,
          mine.map(function (i) {
            return { name: D.runs[i].series, color: color(i), points: (D.runs[i].spectrum[op] || []).map(function (p) {
              return [-Math.log10(1 - p[0] / 100), p[1]];
            }) };
          }));
      });
    });
  }

  function ungroupedCharts(main, D, color, thresholds, timeAxis, usAxis) {
    // Throughput.
    var g = section(main, "Throughput");
    lineChart(g, "Operations per second", timeAxis, { label: "ops/s", fmt: fmtCount, zero: true },
      D.runs.map(function (r, i) { return { name: r.name, color: color(i), points: r.ops_series }; }), true,
      thresholds.filter(function (t) { return t.statistic === "throughput"; }).map(function (t) { return thresholdLine(t, D, color); }));

    // Latency over time, one chart per measurement; an objective's
    // statistic other than p99 and p50 is drawn too (dotted).
    var extra = thresholds.some(function (t) { return t.series && t.series !== "p99" && t.series !== "p50"; });
    g = section(main, "Latency over time (p99 solid, p50 dashed" + (extra ? ", other statistics an objective bounds dotted" : "") + ", per interval)");
    D.operations.forEach(function (op) {
      // Only where the intervals keep the statistic: a line over other
      // statistics would invite the wrong comparison.
      var series = [], mine = thresholds.filter(function (t) { return t.chart === op && t.series; }), stats = [];
      mine.forEach(function (t) {
        if (t.series !== "p99" && t.series !== "p50" && stats.indexOf(t.series) < 0) stats.push(t.series);
      });
      D.runs.forEach(function (r, i) {
        var ls = r.latency_series[op];
        if (!ls) return;
        series.push({ name: r.name + " p99", color: color(i), points: ls.p99 });
        series.push({ name: r.name + " p50", color: color(i), dash: "dash", width: 1.4, points: ls.p50 });
        stats.forEach(function (st) {
          series.push({ name: r.name + " " + st, color: color(i), dash: "dot", width: 1.4, points: ls[st] });
        });
      });
      lineChart(g, op, timeAxis, usAxis, series, false, mine.map(function (t) { return thresholdLine(t, D, color); }));
    });

    // Spectrum.
    g = section(main, "Latency percentile spectrum (whole run)");
    D.operations.forEach(function (op) {
      lineChart(g, op, { label: "percentile", fmt: fmtNines, integerTicks: true }, usAxis,
        D.runs.map(function (r, i) {
          return { name: r.name, color: color(i), points: (r.spectrum[op] || []).map(function (p) {
            return [-Math.log10(1 - p[0] / 100), p[1]];
          }) };
        }));
    });

    // The spectrum each latency objective is judged on, with its line up
    // to its percentile (a max: across).
    var keys = [];
    thresholds.forEach(function (t) { if (t.spectrum && keys.indexOf(t.spectrum) < 0) keys.push(t.spectrum); });
    if (keys.length) {
      var latency = D.runs.filter(function (r) { return r.slo; }).map(function (r) { return r.slo.latency; });
      g = section(main, "Latency the objectives read (whole run: an operation with its failures, ALL every operation together; " +
        latency.filter(function (l, i) { return latency.indexOf(l) === i; }).join(" or ") + " latency)");
      keys.forEach(function (key) {
        var mine = thresholds.filter(function (t) { return t.spectrum === key; });
        lineChart(g, key === "ALL" ? "ALL operations" : mine[0].operation, { label: "percentile", fmt: fmtNines, integerTicks: true }, usAxis,
          D.runs.map(function (r, i) {
            return { name: r.name, color: color(i), points: ((r.slo_spectrum || {})[key] || []).map(function (p) {
              return [-Math.log10(1 - p[0] / 100), p[1]];
            }) };
          }), false, mine.map(function (t) {
            return thresholdLine(t, D, color, t.percentile ? -Math.log10(1 - t.percentile / 100) : undefined);
          }));
      });
    }

  }

  // summarySection is every run's latency summary, with the retries'
  // column when a binding retried.
  function summarySection(main, D, color) {
    htmlEl("h2", {}, main, "Latency summary (µs)");
    var rows = [];
    var retried = D.runs.some(function (r) { return r.summary.some(function (s) { return s.retries > 0; }); });
    D.operations.concat(["CLEANUP"]).forEach(function (op) {
      D.runs.forEach(function (r, i) {
        r.summary.forEach(function (s) {
          if (s.name !== op) return;
          var cells = [{ text: op, cls: "l" }, { text: r.name, color: color(i), cls: "l" }, fmtInt(s.count),
            fmtInt(s.mean_us), fmtInt(s.p50), fmtInt(s.p95), fmtInt(s.p99), fmtInt(s.p999), fmtInt(s.max_us), fmtInt(s.errors)];
          if (retried) cells.push(fmtInt(s.retries || 0));
          rows.push({ cells: cells });
        });
      });
    });
    var head = ["measurement", "run", "count", "mean", "p50", "p95", "p99", "p99.9", "max", "not OK"];
    table(main, retried ? head.concat(["retries"]) : head, rows);
  }

  // fmtBytes writes a byte count in binary units (344860461: 328.9 MiB).
  function fmtBytes(n) {
    var units = ["B", "KiB", "MiB", "GiB", "TiB"], u = 0;
    while (Math.abs(n) >= 1024 && u < units.length - 1) { n /= 1024; u++; }
    return (u ? n.toFixed(1) : String(n)) + " " + units[u];
  }

  // fmtStat writes an [ENGINE] row's value in human units: bytes in
  // binary units, milliseconds as a time, large counts with separators.
  function fmtStat(name, v) {
    if (v === "" || v === undefined) return "-";
    var n = Number(v);
    if (!isFinite(n)) return v;
    if (/Bytes|\(bytes\)/.test(name)) return fmtBytes(n);
    if (/\(ms\)$/.test(name)) return fmtSecs(n / 1000);
    if (Number.isInteger(n) && Math.abs(n) >= 10000) return fmtInt(n);
    return v;
  }

  // The embedded engines' [ENGINE] rows, one column per run: what the
  // engine did (I/O, block cache) and the compaction debt each phase
  // started and ended with.
  // Grouped runs get a table per group, a column per series.
  function engineSection(main, D, color) {
    if (!D.engine || !D.engine.length) return;
    htmlEl("h2", {}, main, "Engine statistics");
    var groups = D.groups && D.groups.length ? D.groups : [null];
    // A group's table is a column per series: narrow enough to go two abreast.
    var box = groups[0] === null ? main : htmlEl("div", { "class": "tables" }, main);
    groups.forEach(function (grp) {
      var at = grp === null ? main : htmlEl("div", {}, box);
      var mine = [];
      D.runs.forEach(function (r, i) { if (grp === null || r.group === grp) mine.push(i); });
      var rows = D.engine.filter(function (s) { return mine.some(function (i) { return s.values[i] !== ""; }); });
      if (!rows.length) return;
      if (grp !== null) htmlEl("h3", {}, at, grp);
      var head = ["statistic"].concat(mine.map(function (i) {
        return { text: grp === null ? D.runs[i].name : D.runs[i].series };
      }));
      var t = table(at, head, rows.map(function (s) {
        return { cells: [{ text: s.name, cls: "l" }].concat(mine.map(function (i) { return { text: fmtStat(s.name, s.values[i]), title: s.values[i] }; })) };
      }));
      t.className = "engine";
      mine.forEach(function (i, k) {
        var th = t.rows[0].cells[k + 1];
        th.insertBefore(htmlEl("span", { "class": "swatch", style: "background:" + color(i) }, th), th.firstChild);
      });
    });
  }

  function settingsSection(main, D) {
    if (D.groups && D.groups.length) return groupedSettings(main, D);
    htmlEl("h2", {}, main, "Settings");
    var differ = D.settings.filter(function (s) { return s.differ; });
    var head = ["property"].concat(D.runs.map(function (r) { return r.name; }));
    if (D.runs.length > 1) {
      htmlEl("p", {}, main, differ.length ? differ.length + " of " + D.settings.length + " properties differ between the runs (highlighted)." :
        "All " + D.settings.length + " properties are the same in every run.");
      if (differ.length) {
        table(main, head, differ.map(function (s) {
          return { cls: "differ", cells: [s.name].concat(s.values.map(function (v) { return { text: v, cls: "l" }; })) };
        })).className = "settings";
      }
    }
    var det = htmlEl("details", {}, main);
    htmlEl("summary", {}, det, "all " + D.settings.length + " properties");
    table(det, head, D.settings.map(function (s) {
      return { cls: s.differ ? "differ" : "", cells: [s.name].concat(s.values.map(function (v) { return { text: v, cls: "l" }; })) };
    })).className = "settings";
  }

  // groupedSettings is the settings with a column per group: the value
  // the group's runs share, or each series' own where they differ.
  function groupedSettings(main, D) {
    htmlEl("h2", {}, main, "Settings");
    var rows = D.settings.map(function (s) {
      var differ = false;
      var cells = D.groups.map(function (grp) {
        var vals = [];
        D.runs.forEach(function (r, i) { if (r.group === grp) vals.push({ series: r.series, v: s.values[i] }); });
        var same = vals.every(function (x) { return x.v === vals[0].v; });
        var text = same ? vals[0].v : vals.map(function (x) { return x.series + ": " + (x.v === "" ? "-" : x.v); }).join(" · ");
        if (!same) differ = true;
        return { text: text, cls: "l", title: text };
      });
      return { differ: differ, row: { cls: differ ? "differ" : "", cells: [s.name].concat(cells) } };
    });
    var head = ["property"].concat(D.groups);
    var differ = rows.filter(function (r) { return r.differ; });
    htmlEl("p", {}, main, differ.length ? differ.length + " of " + D.settings.length + " properties differ between the series of a group " +
      "(highlighted; full values on hover)." : "In every group all " + D.settings.length + " properties are the same for every series.");
    if (differ.length) table(main, head, differ.map(function (r) { return r.row; })).className = "settings grouped";
    var det = htmlEl("details", {}, main);
    htmlEl("summary", {}, det, "all " + D.settings.length + " properties, by group");
    table(det, head, rows.map(function (r) { return r.row; })).className = "settings grouped";
  }

  try {
    render(YCSB_DATA);
    if (errors.length === 0) {
      status.setAttribute("data-status", "ok");
      status.setAttribute("data-charts", chartCount);
      status.setAttribute("data-points", pointCount);
      status.setAttribute("data-empty", emptyCount);
      status.setAttribute("data-thresholds", thresholdCount);
      status.setAttribute("data-answers", answerCount);
      status.textContent = YCSB_DATA.runs.length + " run(s), generated " + YCSB_DATA.generated.replace("T", " ").replace("Z", " UTC") +
        " · " + chartCount + " charts, " + pointCount + " points";
    }
  } catch (e) {
    fail(e && e.stack ? e.stack.split("\n")[0] : e);
  }
})();
