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

  var chartCount = 0, pointCount = 0, emptyCount = 0;

  // lineChart draws series [{name, color, dash, width, points: [[x, y]]}]
  // into parent and returns the number of points drawn.
  function lineChart(parent, title, x, y, series, wide) {
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
    if (xs.length === 0) {
      emptyCount++;
      svgEl("text", { "class": "empty", x: W / 2, y: H / 2, "text-anchor": "middle" }, svg).textContent = "no data in these reports";
      return 0;
    }
    var sx = scale(x, minOf(xs), maxOf(xs), M.l, W - M.r);
    var sy = scale(y, minOf(ys), maxOf(ys), H - M.b, M.t);
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
    pointCount += n;
    return n;
  }

  function section(parent, title) {
    htmlEl("h2", {}, parent, title);
    return htmlEl("div", { "class": "grid" }, parent);
  }

  function table(parent, head, rows) {
    var t = htmlEl("table", {}, parent);
    var tr = htmlEl("tr", {}, htmlEl("thead", {}, t));
    head.forEach(function (h) { htmlEl("th", {}, tr, h); });
    var body = htmlEl("tbody", {}, t);
    rows.forEach(function (r) {
      var row = htmlEl("tr", r.cls ? { "class": r.cls } : {}, body);
      r.cells.forEach(function (c, i) {
        var td = htmlEl("td", c && c.cls ? { "class": c.cls } : {}, row);
        if (c && c.color) htmlEl("span", { "class": "swatch", style: "background:" + c.color }, td);
        td.appendChild(document.createTextNode(c && typeof c === "object" ? c.text : String(c)));
      });
    });
    return t;
  }

  function render(D) {
    var main = document.getElementById("main");
    var color = function (i) { return COLORS[i % COLORS.length]; };
    var timeAxis = { label: "time since start of measurement", fmt: fmtSecs, zero: true };
    var usAxis = { label: "latency", fmt: fmtUs, log: true };

    // Runs.
    htmlEl("h2", {}, main, D.runs.length > 1 ? "Runs" : "Run");
    table(main, ["run", "binding", "phase", "start (UTC)", "run time", "warm-up", "clients", "operations", "throughput (ops/s)"],
      D.runs.map(function (r, i) {
        return { cells: [{ text: r.name, color: color(i), cls: "run" }, { text: r.binding, cls: "l" }, { text: r.phase, cls: "l" },
          { text: r.start.replace("T", " ").replace("Z", ""), cls: "l" }, fmtSecs(r.runtime_ms / 1000),
          r.warmup_ms ? fmtSecs(r.warmup_ms / 1000) : "-", r.clients, fmtInt(r.operations), fmtInt(r.throughput)] };
      }));

    // Throughput.
    var g = section(main, "Throughput");
    lineChart(g, "Operations per second", timeAxis, { label: "ops/s", fmt: fmtCount, zero: true },
      D.runs.map(function (r, i) { return { name: r.name, color: color(i), points: r.ops_series }; }), true);

    // Latency over time, one chart per measurement.
    g = section(main, "Latency over time (p99 solid, p50 dashed, per interval)");
    D.operations.forEach(function (op) {
      var series = [];
      D.runs.forEach(function (r, i) {
        var ls = r.latency_series[op];
        if (!ls) return;
        series.push({ name: r.name + " p99", color: color(i), points: ls.p99 });
        series.push({ name: r.name + " p50", color: color(i), dash: "dash", width: 1.4, points: ls.p50 });
      });
      lineChart(g, op, timeAxis, usAxis, series);
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

    // Summary.
    htmlEl("h2", {}, main, "Latency summary (µs)");
    var rows = [];
    D.operations.concat(["CLEANUP"]).forEach(function (op) {
      D.runs.forEach(function (r, i) {
        r.summary.forEach(function (s) {
          if (s.name !== op) return;
          rows.push({ cells: [{ text: op, cls: "l" }, { text: r.name, color: color(i), cls: "l" }, fmtInt(s.count),
            fmtInt(s.mean_us), fmtInt(s.p50), fmtInt(s.p95), fmtInt(s.p99), fmtInt(s.p999), fmtInt(s.max_us), fmtInt(s.errors)] });
        });
      });
    });
    table(main, ["measurement", "run", "count", "mean", "p50", "p95", "p99", "p99.9", "max", "not OK"], rows);

    // Settings.
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

  try {
    render(YCSB_DATA);
    if (errors.length === 0) {
      status.setAttribute("data-status", "ok");
      status.setAttribute("data-charts", chartCount);
      status.setAttribute("data-points", pointCount);
      status.setAttribute("data-empty", emptyCount);
      status.textContent = YCSB_DATA.runs.length + " run(s), generated " + YCSB_DATA.generated.replace("T", " ").replace("Z", " UTC") +
        " · " + chartCount + " charts, " + pointCount + " points";
    }
  } catch (e) {
    fail(e && e.stack ? e.stack.split("\n")[0] : e);
  }
})();
