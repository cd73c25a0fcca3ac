"""The replay page's drawing of a Famous 500 scene: the oval of sections, the cars, their sheets.

``SCRIPT`` is a JavaScript function expression: it takes one scene (``picture.scene``)
and returns the drawing's markup. The page runs it with its helpers in scope: ``D`` (the
page's data; ``D.board`` is ``picture.board``), ``esc``, ``colour`` and ``swatch``.
"""

# The script keeps its natural line lengths.
# ruff: noqa: E501

SCRIPT = r"""
function (sc) {
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
}
"""
"""The drawing function, as the page runs it."""
