"""The style sheet and the one script of ``report.html`` (inlined: no external asset), and the escaping helpers.

The script only filters: every scenario row and failure block carries ``data-outcome``, ``data-area``,
``data-tags``, ``data-capabilities`` and ``data-text``; the filter form hides what does not match
(disabled scenarios unless asked for: they are most of a partial run),
updates the counts, and keeps its state in the URL hash (``#outcome=failed&area=users&q=token``), so
a filtered view can be linked, and works from ``file://`` without a server. Without JavaScript the
page shows everything.
"""

from __future__ import annotations

from html import escape

__all__ = ["CSS", "OUTCOME_COLOURS", "SCRIPT", "badge", "esc"]


def esc(value: object) -> str:
    """Text or an attribute value, escaped (quotes too)."""
    return escape(str(value), quote=True)


def badge(verdict: str) -> str:
    """A verdict or outcome as a coloured label."""
    return f'<span class="v {esc(verdict)}">{esc(verdict)}</span>'


OUTCOME_COLOURS = {
    "passed": "#2da44e",
    "failed": "#cf222e",
    "error": "#e16f24",
    "expected-failure": "#d4a72c",
    "unsupported": "#54aeff",
    "disabled": "#afb8c1",
}
"""One colour per scenario outcome, shared by the charts and their legends."""

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em auto;max-width:1200px;
color:#1b1f23;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #d0d7de;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid #d0d7de;padding:3px 7px;
text-align:left;vertical-align:top}th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
.v{font-weight:600;padding:1px 6px;border-radius:4px;white-space:nowrap}
.v.full,.v.passed,.v.covered{background:#dafbe1;color:#116329}
.v.failed,.v.error,.v.no-scenario{background:#ffebe9;color:#a40e26}
.v.partial,.v.expected-failure{background:#fff8c5;color:#7d4e00}.v.unsupported,.v.not-run{background:#ddf4ff;color:#0550ae}
.v.disabled{background:#eaeef2;color:#57606a}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:6px;white-space:pre-wrap;word-break:break-all;
font-size:12px;margin:.3em 0}
.failure{border:1px solid #d0d7de;border-left:5px solid #cf222e;padding:.3em 1em;margin:1em 0}
.failure.error{border-left-color:#bf8700}
ol.steps{font-family:ui-monospace,monospace;font-size:13px}ol.steps li.failed,ol.steps li.undefined{color:#a40e26;
font-weight:700}ol.steps li.not-run{color:#8c959f}
.meta td:first-child{font-weight:600;width:12em}.fixed{background:#fff8c5;border:2px solid #bf8700;padding:.5em 1em}
small{color:#57606a}
.charts{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
.charts figure{margin:0;flex:0 1 auto;max-width:100%}.charts ol{margin:.2em 0;font-size:13px;max-width:560px}
.charts figcaption{font-weight:600;margin-bottom:.3em}.charts svg{max-width:100%;height:auto}
svg text{font:12px system-ui,sans-serif;fill:#1b1f23}
svg a:hover rect,svg a:focus rect{opacity:.75}
.legend{display:flex;flex-wrap:wrap;gap:.2em 1em;font-size:12px;margin:.3em 0}
.legend i{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.3em;vertical-align:-.1em}
#filters[hidden]{display:none}
#filters{position:sticky;top:0;z-index:1;background:#fff;border:1px solid #d0d7de;border-radius:6px;
padding:.5em .8em;display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:end;box-shadow:0 1px 3px #0001}
#filters label{display:flex;flex-direction:column;font-size:12px;color:#57606a;gap:2px}
#filters select,#filters input{font:inherit;padding:2px 4px;border:1px solid #d0d7de;border-radius:4px;max-width:16em}
#filters input[type=search]{width:16em}#filters button{font:inherit;padding:2px 10px}
#filter-status{flex-basis:100%;font-size:13px}
.scroll{max-height:75vh;overflow:auto;border:1px solid #d0d7de;margin:.5em 0}.scroll table{margin:0}
.scroll th{position:sticky;top:0}.scenarios td small{display:block}
.comparison{border:2px solid #d0d7de;border-radius:6px;padding:.3em 1em;margin:1em 0}
.comparison.worse{border-color:#cf222e}.comparison.better{border-color:#2da44e}
.comparison h2{margin-top:.4em;border:0}.note{color:#7d4e00}
summary h3{display:inline}
.up{color:#116329;font-weight:600}.down{color:#a40e26;font-weight:600}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  form.hidden = false;
  var fields = ["outcome", "area", "tag", "capability", "q"];
  var items = Array.prototype.slice.call(document.querySelectorAll("[data-sid]"));
  var status = document.getElementById("filter-status");
  var total = document.querySelectorAll("tr[data-sid]").length;

  function state() {
    var chosen = {};
    fields.forEach(function (name) {
      var value = form.elements[name].value.trim();
      if (value) { chosen[name] = value; }
    });
    return chosen;
  }

  function hasWord(list, word) {
    return (" " + list + " ").indexOf(" " + word + " ") >= 0;
  }

  function matches(item, chosen) {
    var data = item.dataset;
    if (!chosen.outcome) {
      if (data.outcome === "disabled") { return false; }
    } else if (chosen.outcome !== "all" && data.outcome !== chosen.outcome) {
      return false;
    }
    if (chosen.area && data.area !== chosen.area) { return false; }
    if (chosen.tag && !hasWord(data.tags, chosen.tag)) { return false; }
    if (chosen.capability && !hasWord(data.capabilities, chosen.capability)) { return false; }
    if (chosen.q) {
      var words = chosen.q.toLowerCase().split(/\s+/);
      for (var i = 0; i < words.length; i++) {
        if (data.text.indexOf(words[i]) < 0) { return false; }
      }
    }
    return true;
  }

  function writeHash(chosen) {
    var parts = Object.keys(chosen).map(function (name) {
      return name + "=" + encodeURIComponent(chosen[name]);
    });
    var url = parts.length ? "#" + parts.join("&") : location.pathname + location.search;
    try {
      history.replaceState(null, "", url);
    } catch (ignored) { /* some file:// viewers refuse: the filter still works */ }
  }

  function apply(keepHash) {
    var chosen = state();
    var shown = 0;
    var byOutcome = {};
    items.forEach(function (item) {
      var visible = matches(item, chosen);
      item.hidden = !visible;
      if (visible && item.tagName === "TR") {
        shown += 1;
        byOutcome[item.dataset.outcome] = (byOutcome[item.dataset.outcome] || 0) + 1;
      }
    });
    var detail = Object.keys(byOutcome).sort().map(function (outcome) {
      return byOutcome[outcome] + " " + outcome;
    }).join(", ");
    status.textContent = "Showing " + shown + " of " + total + " scenarios" + (detail ? ": " + detail : "") + ".";
    form.dataset.shown = String(shown);
    if (!keepHash) { writeHash(chosen); }
  }

  function readHash() {
    var given = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at > 0) {
        try { given[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1)); } catch (ignored) { /* bad escape */ }
      }
    });
    fields.forEach(function (name) {
      var field = form.elements[name];
      var value = given[name] || "";
      if (field.tagName === "SELECT" && value && !Array.prototype.some.call(field.options, function (option) {
        return option.value === value;
      })) {
        field.add(new Option(value + " (0)", value));  // a linked value this run lacks still filters
      }
      field.value = value;
    });
    return Object.keys(given).some(function (name) { return fields.indexOf(name) >= 0; });
  }

  form.addEventListener("input", function () { apply(false); });
  form.addEventListener("change", function () { apply(false); });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(function () { apply(false); }, 0); });
  window.addEventListener("hashchange", function () {
    if (readHash()) {
      apply(true);
      document.getElementById("scenarios").scrollIntoView();
    }
  });
  var linked = readHash();
  apply(true);
  if (linked) { document.getElementById("scenarios").scrollIntoView(); }  // a linked view opens on the list
})();
"""
