"""The HTML replay page: markup, style and script, with no outside resources.

``%%TITLE%%``, ``%%DATA%%`` and ``%%SCRIPT%%`` are filled in by ``racedeck.inspect.html``,
in one pass, and ``%%POLICY%%`` with a content security policy that lets only this script
and this style run (by their hashes). The script is ``SCRIPT`` with the game's drawing
function put in (``page_script``): each game brings its own through its picture, so the
page names no game. The script reads the match from the JSON script element, draws the
current moment with that function, and keeps ``#status`` (data attributes) up to date so
that tests and scripts can read what is shown. A URL fragment ``#event=N&view=S`` opens
the page there.
"""

# The page's script and markup keep their natural line lengths.
# ruff: noqa: E501

from __future__ import annotations

import base64
import hashlib
import re

from racedeck.core.errors import PluginError

STYLE = r"""
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 8px 14px; background: #20303f; color: #fff; }
header h1 { font-size: 17px; margin: 0; }
header p { margin: 2px 0 0; color: #cdd; }
#controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 14px;
  border-bottom: 1px solid #ccc; background: #f4f6f8; }
#slider { flex: 1 1 300px; }
#where { min-width: 260px; font-weight: 600; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(260px, 2fr); gap: 12px;
  padding: 12px 14px; }
#drawing svg { max-width: 100%; height: auto; background: #fafafa; border: 1px solid #ddd; }
#cars { border-collapse: collapse; margin-top: 8px; }
#cars td, #cars th { border-bottom: 1px solid #eee; padding: 2px 8px; text-align: left; }
pre#text { background: #f7f7f7; border: 1px solid #ddd; padding: 8px; overflow: auto;
  font-size: 12px; }
#events { font: 12px/1.35 ui-monospace, monospace; max-height: 80vh; overflow: auto;
  margin: 0; padding-left: 0; list-style: none; border: 1px solid #ddd; }
#events li { padding: 1px 6px; cursor: pointer; white-space: nowrap; }
#events li.now { background: #ffe9a8; }
#events li.future { color: #999; }
#events.seat-view .payload { display: none; }
.hint { color: #666; font-size: 12px; }
#goto { width: 6em; }
#events-title { font-size: 15px; margin: 0 0 6px; }
#notes { font: 12px/1.35 ui-monospace, monospace; margin: 6px 0; padding-left: 18px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
svg.swatch { vertical-align: middle; }
"""

SCRIPT = r"""
"use strict";
const D = JSON.parse(document.getElementById("match").textContent);
const S = D.strings;
const LAST = D.frames.length - 1;
const $ = (id) => document.getElementById(id);
let frame = 0, view = 0;

function scene(f, v) { return JSON.parse(S[D.frames[f][2 * v + 1]]); }
function text(f, v) { return S[D.frames[f][2 * v]]; }
function colour(car) { return D.colours[car % D.colours.length]; }
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);
}
// A colour swatch drawn as SVG: style attributes are not allowed by the page's policy.
function swatch(c) {
  return '<svg class="swatch" width="12" height="12"><rect width="12" height="12" rx="2" fill="' + esc(c) + '"/></svg>';
}

const draw = %%DRAWING%%;

function show(f, v) {
  frame = Math.max(0, Math.min(LAST, f));
  if (v !== undefined) view = v;
  const sc = scene(frame, view);
  $("drawing").innerHTML = draw(sc);
  $("text").textContent = text(frame, view);
  $("slider").value = frame;
  $("view").value = String(view);
  // A seat's view shows the events by kind only: their contents may hold what it never saw.
  $("events").className = D.views[view].startsWith("everything") ? "" : "seat-view";
  const seq = frame - 1;
  const ev = seq >= 0 ? D.events[seq] : null;
  $("where").textContent = ev ? "after event " + seq + " of " + (LAST - 1) + ": " + ev[1] : "before the first event";
  const st = $("status");
  st.dataset.frame = frame; st.dataset.seq = seq; st.dataset.view = view;
  st.dataset.kind = ev ? ev[1] : ""; st.dataset.scene = S[D.frames[frame][2 * view + 1]];
  // The notes the bots left with the decision this event began (a seat's own in its view).
  const seat = D.view_seats[view];
  const notes = D.notes.filter((n) => n[0] === seq && (seat === null || n[1] === seat));
  const list = $("notes");
  list.replaceChildren(...notes.map((n) => {
    const li = document.createElement("li"); li.textContent = S[n[2]]; return li;
  }));
  $("notes-title").hidden = notes.length === 0;
  st.dataset.notes = JSON.stringify(notes.map((n) => S[n[2]]));
  const items = $("events").children;
  for (let i = 0; i < items.length; i++) {
    items[i].className = i === seq ? "now" : (i > seq ? "future" : "");
  }
  if (seq >= 0 && items[seq].scrollIntoView) items[seq].scrollIntoView({block: "nearest"});
  history.replaceState(null, "", "#event=" + seq + "&view=" + view);
}

function nextOfKind(kind) {
  for (let f = frame + 1; f <= LAST; f++) if (D.events[f - 1][1] === kind) return show(f);
}

function build() {
  document.title = D.title + " - " + D.log;
  $("bots").textContent = D.seats.map((bot, seat) => "seat " + seat + ": " + bot).join(", ");
  $("slider").max = LAST;
  $("view").innerHTML = D.views.map((name, v) => '<option value="' + v + '">' + esc(name) + '</option>').join("");
  const kinds = [...new Set(D.events.map((e) => e[1]))];
  $("kind").innerHTML = kinds.map((k) => '<option>' + esc(k) + '</option>').join("");
  $("events").innerHTML = D.events.map((e) =>
    '<li data-seq="' + e[0] + '">' + e[0] + " " + esc(e[1]) +
    (e[2] >= 0 ? ' <span class="payload">' + esc(S[e[2]]) + '</span>' : "") + '</li>').join("");
  $("events").addEventListener("click", (ev) => {
    const li = ev.target.closest("li"); if (li) show(Number(li.dataset.seq) + 1);
  });
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("view").addEventListener("change", () => show(frame, Number($("view").value)));
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(frame - 1);
  $("next").onclick = () => show(frame + 1);
  $("last").onclick = () => show(LAST);
  $("next-kind").onclick = () => nextOfKind($("kind").value);
  $("goto").addEventListener("change", () => show(Number($("goto").value) + 1));
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (t && (t.id === "goto" || t.tagName === "SELECT")) return;
    const moves = {ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10};
    if (ev.key in moves) show(frame + moves[ev.key]);
    else if (ev.key === "Home") show(0);
    else if (ev.key === "End") show(LAST);
    else if (ev.key === "n") nextOfKind($("kind").value);
    else if (ev.key === "v") show(frame, (view + 1) % D.views.length);
    else return;
    ev.preventDefault();
  });
  const want = new URLSearchParams(location.hash.slice(1));
  const v = Number(want.get("view") || 0);
  show(Number(want.get("event") || -1) + 1, v >= 0 && v < D.views.length ? v : 0);
  if (D.result) $("result").textContent = "result: ranks " + D.result.ranks.join(", ") + "; scores " + D.result.scores.join(", ") + " " + D.result.unit;
}
build();
"""

PAGE = (
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="%%POLICY%%">
<title>%%TITLE%%</title>
<style>"""
    + STYLE
    + """</style>
</head>
<body>
<header><h1>%%TITLE%%</h1><p id="bots"></p><p id="result"></p></header>
<div id="controls">
  <button id="first" title="Home">|&#x25c0;</button>
  <button id="prev" title="Left arrow">&#x25c0;</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="event">
  <button id="next" title="Right arrow">&#x25b6;</button>
  <button id="last" title="End">&#x25b6;|</button>
  <span id="where"></span>
  <label>event <input id="goto" type="number" min="-1"></label>
  <label>view <select id="view"></select></label>
  <label>next <select id="kind"></select></label><button id="next-kind" title="n">go</button>
  <span class="hint">keys: &larr; &rarr; step, PgUp/PgDn 10, Home/End, n next of kind, v next view</span>
</div>
<output id="status" hidden></output>
<main>
  <section><div id="drawing"></div>
  <h2 id="notes-title" class="hint" hidden>what the bots noted with this decision</h2><ol id="notes"></ol>
  <pre id="text"></pre></section>
  <section><h2 id="events-title">events</h2><ol id="events"></ol>
  <p class="hint">A seat's view lists the events by kind only.</p></section>
</main>
<script type="application/json" id="match">%%DATA%%</script>
<script>%%SCRIPT%%</script>
</body>
</html>
"""
)
"""The page, with ``%%POLICY%%``, ``%%TITLE%%``, ``%%DATA%%`` and ``%%SCRIPT%%`` to fill in."""

TEXT_ONLY = """function () { return '<p class="hint">No drawing for this game: the text shows the state.</p>'; }"""
"""The drawing of a game whose picture brings none."""

_CLOSING = re.compile(r"</script|<!--", re.IGNORECASE)


def page_script(drawing: str, game: str) -> str:
    """Return the page's script with ``drawing`` as the function that draws a scene.

    ``drawing`` is the script of ``game``'s picture (``Picture.script``), or empty for
    the text alone. It goes inside the page's one script element, so it may not hold what
    would end that element or change how it is parsed; a picture's script that does is
    refused with a ``PluginError`` naming the game.
    """
    if not isinstance(drawing, str):
        raise PluginError(
            f"the picture of {game!r} has a drawing script that is not text: "
            f"{type(drawing).__name__}"
        )
    source = drawing.strip() or TEXT_ONLY
    found = _CLOSING.search(source)
    if found is not None:
        raise PluginError(
            f"the picture of {game!r} has a drawing script holding {found.group(0)!r}, "
            "which would end the page's script element (write '<\\/script' in a string)"
        )
    return SCRIPT.replace("%%DRAWING%%", "(" + source + ")", 1)


def policy(script: str, style: str) -> str:
    """Return a page's content security policy: only its own script and style may run.

    Nothing is loaded, no other script runs (no inline handler, no injected element),
    and the one script and style element are allowed by the hash of their exact text.
    """
    return (
        "default-src 'none'; "
        + (f"script-src '{sha256_source(script)}'; " if script else "")
        + f"style-src '{sha256_source(style)}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def sha256_source(text: str) -> str:
    """Return the CSP source expression that allows exactly ``text`` inline."""
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
