"""The replay page's drawing of a LACORSA scene: the strip, its cars and their table.

``SCRIPT`` is a JavaScript function expression: it takes one scene (``picture.scene``)
and returns the drawing's markup. The page runs it with its helpers in scope: ``D`` (the
page's data; ``D.board`` is ``picture.board``), ``esc``, ``colour`` and ``swatch``.
"""

# The script keeps its natural line lengths.
# ruff: noqa: E501

SCRIPT = r"""
function (sc) {
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
}
"""
"""The drawing function, as the page runs it."""
