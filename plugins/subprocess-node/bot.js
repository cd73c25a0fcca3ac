// An example racedeck bot in JavaScript (Node.js), speaking the JSON Lines protocol.
//
// Read one JSON object a line from standard input, answer one a line on standard output.
// Its strategy works for every game: it prefers actions that move forward ("extend"),
// else the one whose cards add up to the least, else an action drawn with the seed the
// engine sends, so that a match replays exactly.
"use strict";

const readline = require("node:readline");

// mulberry32: a small seeded generator, so the same seed gives the same choice.
function generator(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cost(action) {
  const cards = action.cards || (action.card !== undefined ? [action.card] : null);
  return cards ? cards.reduce((sum, card) => sum + card, 0) : null;
}

function choose(message) {
  const legal = message.legal;
  const forward = legal.findIndex((action) => action.type === "extend");
  if (forward >= 0) return [forward, "extend"];
  const costs = legal.map(cost);
  if (costs.every((c) => c !== null)) {
    let best = 0;
    costs.forEach((c, i) => { if (c < costs[best]) best = i; });
    return [best, "cheapest cards"];
  }
  const random = generator(message.seed % 4294967296);
  return [Math.floor(random() * legal.length), "random"];
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  let answer;
  if (message.type === "start") {
    answer = {
      type: "ready", protocol: 2, name: "example-node", version: "1.0",
      debug: `node example, seat ${message.seat}`,
    };
  } else if (message.type === "act") {
    const [choice, why] = choose(message);
    // Protocol 2: the answer echoes the decision it answers.
    answer = { decision: message.decision, choice: choice, debug: why };
  } else {
    input.close();
    return;
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
