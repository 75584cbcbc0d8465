"""The JavaScript the offline benchmarks share: a seeded random source and the random
situations (cards a game reaches, dice, rolls left) the advisor and the bots are timed on,
the same in node (``offline_advisor.py``) and in Chromium (``offline_app.py``)."""

from __future__ import annotations

SITUATIONS_JS = """
function seeded(seed) {  // mulberry32: the same draws every run
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
// Random cards a game reaches: any boxes filled (upper boxes with 0-5 dice of their face,
// lower boxes 0 or a usual score), each card new to its advisor.
function makeSituations(ruleSet, count, random) {
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const lower = { three_of_a_kind: [0, 17, 24], four_of_a_kind: [0, 20, 27], full_house: [0, 25],
    small_straight: [0, 30], large_straight: [0, 40], yahtzee: [0, 50], chance: [15, 22, 28] };
  const boxes = ruleSet.boxes.map((box) => box.key);
  function randomCard() {
    const card = { boxes: boxes.map(() => null), yahtzee_bonus: 0 };
    const open = Math.floor(random() * 13) + 1;
    const order = boxes.map((_, i) => i).sort(() => random() - 0.5);
    for (const c of order.slice(open)) {
      card.boxes[c] = c < 6 ? (c + 1) * Math.floor(random() * 6) : pick(lower[boxes[c]]);
    }
    return card;
  }
  const rollDice = () => Array.from({ length: 5 }, () => 1 + Math.floor(random() * 6)).join("");
  const situation = () => ({ card: randomCard(), dice: rollDice(), rollsLeft: pick([0, 1, 2]) });
  return Array.from({ length: count }, situation);
}
"""
"""Defines ``seeded(seed)``, ``quantile(xs, q)`` and ``makeSituations(ruleSet, count,
random)`` (``ruleSet``: an entry of ``GET /api/rules``)."""
