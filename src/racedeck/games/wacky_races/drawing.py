"""The replay page's drawing of a Wacky Races scene: the circuit, its traps, Dastardly, the racers.

``SCRIPT`` is a JavaScript function expression: it takes one scene (``picture.scene``)
and returns the drawing's markup. The page runs it with its helpers in scope: ``D`` (the
page's data; ``D.board`` is ``picture.board``), ``esc``, ``colour`` and ``swatch``.
"""

# The script keeps its natural line lengths.
# ruff: noqa: E501

SCRIPT = r"""
function (sc) {
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
}
"""
"""The drawing function, as the page runs it."""
