"""The replay page's drawing of a Detroit-Cleveland scene: the lanes, the cars, the seats' money.

``SCRIPT`` is a JavaScript function expression: it takes one scene (``picture.scene``)
and returns the drawing's markup. The page runs it with its helpers in scope: ``D`` (the
page's data; ``D.board`` is ``picture.board``), ``esc``, ``colour`` and ``swatch``.
"""

# The script keeps its natural line lengths.
# ruff: noqa: E501

SCRIPT = r"""
function (sc) {
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
}
"""
"""The drawing function, as the page runs it."""
