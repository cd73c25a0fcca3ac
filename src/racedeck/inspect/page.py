"""The HTML replay page: markup, style and script, with no outside resources.

``%%TITLE%%`` and ``%%DATA%%`` are filled in by ``racedeck.inspect.html``, in one pass,
and ``%%POLICY%%`` with a content security policy that lets only this script and this
style run (by their hashes). The script
reads the match from the JSON script element, draws the current moment with the game's
drawing function, and keeps ``#status`` (data attributes) up to date so that tests and
scripts can read what is shown. A URL fragment ``#event=N&view=S`` opens the page there.
"""

# The page's script and markup keep their natural line lengths.
# ruff: noqa: E501

from __future__ import annotations

import base64
import hashlib

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

const DRAW = {
  text: function () { return '<p class="hint">No drawing for this game yet: the text shows the state.</p>'; },
  strip: function (sc) {
    const cars = sc.cars;
    const placed = cars.map((c, i) => [c, i]).filter(([c]) => c.space !== null);
    let out = '<p>Race ' + sc.race + ' of ' + sc.races + ', lap ' + sc.lap + ', phase ' + esc(sc.phase) + '</p>';
    if (placed.length) {
      let lo = Math.min(...placed.map(([c]) => c.space)), hi = Math.max(...placed.map(([c]) => c.space));
      if (sc.length) { lo = Math.min(lo, 0); hi = Math.max(hi, sc.length - 1); }
      const W = 78, H = 64, n = hi - lo + 1;
      out += '<svg id="strip" xmlns="http://www.w3.org/2000/svg" width="' + (n * W + 20) + '" height="' + (H + 46) +
        '" viewBox="0 0 ' + (n * W + 20) + ' ' + (H + 46) + '">';
      for (let s = lo; s <= hi; s++) {
        const x = 10 + (s - lo) * W;
        out += '<rect x="' + x + '" y="10" width="' + (W - 4) + '" height="' + H + '" fill="#fff" stroke="#bbb"/>';
        out += '<text x="' + (x + W / 2 - 2) + '" y="' + (H + 28) + '" text-anchor="middle" font-size="11" fill="#777">' + s + '</text>';
      }
      for (const [c, i] of placed) {
        const x = 10 + (c.space - lo) * W;
        const active = i === sc.active, fight = i === sc.attacker || i === sc.defender;
        out += '<g class="car" data-car="' + i + '" data-space="' + c.space + '">';
        out += '<rect x="' + (x + 5) + '" y="18" width="' + (W - 14) + '" height="' + (H - 16) + '" rx="8" fill="' + colour(i) +
          '" stroke="' + (active ? "#000" : (fight ? "#c00" : "none")) + '" stroke-width="3"/>';
        out += '<text x="' + (x + W / 2 - 2) + '" y="40" text-anchor="middle" fill="#fff" font-weight="bold" font-size="13">' + esc(c.label) + '</text>';
        out += '<text x="' + (x + W / 2 - 2) + '" y="57" text-anchor="middle" fill="#fff" font-size="11">' + c.cards + ' cards' + (c.sealed ? ' \u25bc' : '') + '</text>';
        out += '</g>';
      }
      out += '<text x="10" y="' + (H + 44) + '" font-size="11" fill="#555">back of the field \u2190  \u2192 the leader</text>';
      out += '</svg>';
    } else {
      out += '<p class="hint">No car is on the strip now.</p>';
    }
    out += '<table id="cars"><tr><th></th><th>car</th><th>space</th><th>cards</th><th>hand</th><th>points</th></tr>';
    cars.forEach((c, i) => {
      const hand = c.hand === null ? "hidden" : (c.hand.join(" ") || "-");
      out += '<tr data-car="' + i + '"><td>' + swatch(colour(i)) + '</td><td>' + esc(c.label) +
        '</td><td>' + (c.space === null ? "-" : c.space) + '</td><td>' + c.cards + (c.sealed ? " (one face down)" : "") +
        '</td><td>' + esc(hand) + '</td><td>' + c.points + '</td></tr>';
    });
    return out + '</table>';
  },
  lanes: function (sc) {
    const B = D.board, xs = B.distances, lanes = B.lanes;
    const lo = Math.min(...lanes), hi = Math.max(...lanes);
    const k = Math.max(6, Math.min(26, 1100 / Math.max(B.length, 1))), row = 26;
    const W = Math.ceil(B.length * k) + 70, H = (hi - lo + 1) * row + 60;
    const at = (s) => [30 + xs[s] * k, 24 + (lanes[s] - lo) * row];
    let out = '<p>' + esc(B.title) + ', race ' + sc.race + ', phase ' + esc(sc.phase) + '</p>';
    out += '<svg id="lanes" xmlns="http://www.w3.org/2000/svg" width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H + '">';
    xs.forEach((_, s) => { const [x, y] = at(s); out += '<circle cx="' + x + '" cy="' + y + '" r="4" fill="#ccc"/>'; });
    B.start.forEach((s, i) => { const [x, y] = at(s); out += '<text x="' + x + '" y="' + (y - 8) + '" font-size="9" text-anchor="middle" fill="#777">#' + (i + 1) + '</text>'; });
    const fx = 30 + B.length * k + 12;
    out += '<line x1="' + fx + '" y1="10" x2="' + fx + '" y2="' + (H - 30) + '" stroke="#000" stroke-dasharray="4 3"/>';
    sc.positions.forEach((s, car) => {
      if (s < 0) return;
      const [x, y] = at(s);
      out += '<g class="car" data-car="' + car + '" data-space="' + s + '"><circle cx="' + x + '" cy="' + y + '" r="9" fill="' + esc(B.colours[car]) +
        '" stroke="#000"/><text x="' + x + '" y="' + (y + 4) + '" font-size="10" text-anchor="middle" fill="#fff">' + esc(B.codes[car]) + '</text></g>';
    });
    out += '<text x="30" y="' + (H - 8) + '" font-size="11" fill="#555">start \u2192 finish (lanes as rows, spaces at their distance)</text></svg>';
    out += '<table id="cars"><tr><th></th><th>car</th><th>space</th><th>owner</th></tr>';
    sc.positions.forEach((s, car) => {
      const where = s === sc.finish ? "finished " + (sc.finished.indexOf(car) + 1) : (s < 0 ? "-" : s);
      out += '<tr data-car="' + car + '"><td>' + swatch(B.colours[car]) + '</td><td>' + esc(B.codes[car]) +
        '</td><td>' + where + '</td><td>' + (sc.owner[car] < 0 ? "-" : "seat " + sc.owner[car]) + '</td></tr>';
    });
    out += '</table><table id="seats"><tr><th>seat</th><th>money</th><th>cards</th><th>hand</th></tr>';
    sc.money.forEach((m, seat) => {
      const hand = sc.hands[seat] === null || sc.hands[seat] === undefined ? "hidden" : (sc.hands[seat].join(" ") || "-");
      out += '<tr><td>' + seat + '</td><td>' + m + '</td><td>' + sc.hand_sizes[seat] + '</td><td>' + esc(hand) + '</td></tr>';
    });
    return out + '</table>';
  },
  circuit: function (sc) {
    const B = D.board, n = B.kinds.length, cx = 270, cy = 170, rx = 220, ry = 120;
    const fill = ["#222", "#999", "#fff"], kind = ["black", "grey", "white"];
    const pt = (a, f) => [cx + rx * f * Math.cos(a), cy + ry * f * Math.sin(a)];
    const ang = (i) => -Math.PI / 2 + 2 * Math.PI * i / n;
    let out = '<p>' + esc(B.track) + ': lap ' + Math.max(sc.lap, 0) + ' of ' + B.laps + ', section ' + (sc.section + 1) + ' of ' + n + ', phase ' + esc(sc.phase) + '</p>';
    out += '<svg id="circuit" xmlns="http://www.w3.org/2000/svg" width="560" height="350" viewBox="0 0 560 350">';
    for (let i = 0; i < n; i++) {
      const [x1, y1] = pt(ang(i), 1), [x2, y2] = pt(ang(i + 1), 1);
      out += '<path class="section" data-section="' + i + '" d="M' + x1 + ' ' + y1 + ' A' + rx + ' ' + ry + ' 0 0 1 ' + x2 + ' ' + y2 + '" fill="none" stroke="#555" stroke-width="' + (i === sc.section ? 22 : 18) + '"/>';
      out += '<path d="M' + x1 + ' ' + y1 + ' A' + rx + ' ' + ry + ' 0 0 1 ' + x2 + ' ' + y2 + '" fill="none" stroke="' + fill[B.kinds[i]] + '" stroke-width="14"' + (B.pits[i] ? ' stroke-dasharray="5 4"' : '') + '/>';
      const [lx, ly] = pt((ang(i) + ang(i + 1)) / 2, 1.17);
      out += '<text x="' + lx + '" y="' + ly + '" font-size="10" text-anchor="middle" fill="#444">' + (i + 1) + ' ' + esc(B.names[i]) + '</text>';
    }
    if (sc.lap > 0) {
      [0.86, 0.74].forEach((f, seat) => {
        const [x, y] = pt((ang(sc.section) + ang(sc.section + 1)) / 2, f);
        out += '<g class="car" data-car="' + seat + '" data-section="' + sc.section + '"><circle cx="' + x + '" cy="' + y + '" r="9" fill="' + colour(seat) + '"/><text x="' + x + '" y="' + (y + 4) + '" font-size="10" text-anchor="middle" fill="#fff">' + seat + '</text></g>';
      });
    }
    out += '<text x="' + cx + '" y="' + cy + '" text-anchor="middle" font-size="12" fill="#555">black, grey, white sections; dashed: pit</text></svg>';
    out += '<table id="cars"><tr><th></th><th>seat</th><th>tires</th><th>fuel</th><th>engine</th><th>speed</th><th>hand</th><th>card</th><th>pit</th></tr>';
    sc.sheets.forEach((sheet, seat) => {
      const cells = sheet === null ? ["?", "?", "?", "?"] : sheet;
      const hand = sc.hands[seat] === null ? "hidden" : (sc.hands[seat].join(" ") || "-");
      const card = sc.revealed[seat] ? sc.revealed[seat] : (sc.laid[seat] ? sc.laid[seat] + " (face down)" : "-");
      out += '<tr data-car="' + seat + '"><td>' + swatch(colour(seat)) + '</td><td>' + seat + '</td><td>' + cells.map(esc).join("</td><td>") +
        '</td><td>' + esc(hand) + '</td><td>' + esc(card) + '</td><td>' + (sc.pits[seat] ? "yes" : "") + '</td></tr>';
    });
    return out + '</table>' + (sc.winner >= 0 ? '<p>winner: seat ' + sc.winner + '</p>' : '');
  },
  wacky: function (sc) {
    const B = D.board, n = sc.tiles.length, per = 8, W = 112, H = 78;
    let out = '<p>Race ' + sc.race + ', round ' + sc.round + ', phase ' + esc(sc.phase) + '</p>';
    if (!n) return out + '<p class="hint">The circuit is not laid out yet.</p>';
    const rows = Math.ceil(n / per), at = (p) => {
      const r = Math.floor(p / per), c = r % 2 ? per - 1 - (p % per) : p % per;
      return [8 + c * W, 8 + (rows - 1 - r) * H];
    };
    out += '<svg id="wacky" xmlns="http://www.w3.org/2000/svg" width="' + (per * W + 16) + '" height="' + (rows * H + 16) + '" viewBox="0 0 ' + (per * W + 16) + ' ' + (rows * H + 16) + '">';
    sc.tiles.forEach((t, p) => {
      const [x, y] = at(p), trap = sc.traps[p];
      out += '<rect x="' + x + '" y="' + y + '" width="' + (W - 6) + '" height="' + (H - 6) + '" fill="#fff" stroke="#aaa"/>';
      out += '<text x="' + (x + 4) + '" y="' + (y + 12) + '" font-size="10" fill="#555">' + p + ' ' + esc(B.tiles[t] || t) + '</text>';
      if (trap !== -1) out += '<text class="trap" x="' + (x + 4) + '" y="' + (y + H - 10) + '" font-size="10" fill="#c00">trap' + (trap >= 0 ? ": " + esc(B.traps[trap]) : " (face down)") + '</text>';
      if (sc.dastardly === p) out += '<text x="' + (x + W - 22) + '" y="' + (y + 12) + '" font-size="11" font-weight="bold" fill="#609">D</text>';
    });
    const count = {};
    sc.pos.forEach((p, car) => {
      const q = Math.min(p, n - 1), [x, y] = at(q), k = count[q] = (count[q] || 0) + 1;
      out += '<g class="car" data-car="' + car + '" data-space="' + p + '"><circle cx="' + (x + 14 * k) + '" cy="' + (y + 36) + '" r="7" fill="' + colour(car) + '"/><text x="' + (x + 14 * k) + '" y="' + (y + 40) + '" font-size="9" text-anchor="middle" fill="#fff">' + car + '</text></g>';
    });
    out += '</svg><table id="cars"><tr><th></th><th>car</th><th>position</th><th>hand</th></tr>';
    sc.pos.forEach((p, car) => {
      const hand = car < sc.hands.length ? (sc.hands[car] === null ? "hidden" : sc.hands[car].join(" ")) : "";
      out += '<tr data-car="' + car + '"><td>' + swatch(colour(car)) + '</td><td>' + esc(sc.labels[car] || car) + '</td><td>' + p +
        (sc.finished.includes(car) ? " (finished)" : "") + '</td><td>' + esc(hand) + '</td></tr>';
    });
    return out + '</table>';
  },
};

function show(f, v) {
  frame = Math.max(0, Math.min(LAST, f));
  if (v !== undefined) view = v;
  const sc = scene(frame, view);
  const draw = DRAW[D.drawing] || DRAW.text;
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
  <section><div id="drawing"></div><pre id="text"></pre></section>
  <section><h2 id="events-title">events</h2><ol id="events"></ol>
  <p class="hint">A seat's view lists the events by kind only.</p></section>
</main>
<script type="application/json" id="match">%%DATA%%</script>
<script>"""
    + SCRIPT
    + """</script>
</body>
</html>
"""
)
"""The page, with ``%%POLICY%%``, ``%%TITLE%%`` and ``%%DATA%%`` still to fill in."""


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


POLICY = policy(SCRIPT, STYLE)
"""The policy of the replay page."""
