// The driver of tests/web/test_js_engine_parity.py (run by tests/js_engine.py).
import { createHash } from "node:crypto";
import { input, answer } from "./js_io.js";
import { ruleBook, placements, isComplete } from "./engine_rules.js";

const digest = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);
const found = [];
for (const name of input.names) {
  const book = ruleBook(input.rules[name]);
  const others = book.boxes.filter((box) => box.index !== book.yahtzee).map((box) => box.index);
  const full = (1 << others.length) - 1;
  for (const yahtzee of [null, 0, book.yahtzeePoints]) {
    for (const dice of book.rolls) {
      const masks = dice[0] === dice[4] && book.rules.joker !== "none"
        ? Array.from({ length: full + 1 }, (_, m) => m)
        : [0, full, ...others.map((_, i) => 1 << i), ...others.map((_, i) => full ^ (1 << i))];
      const parts = [];
      for (const mask of masks) {
        const boxes = book.boxes.map(() => null);
        others.forEach((box, bit) => { if (mask >> bit & 1) boxes[box] = box === book.index.chance ? 5 : 0; });
        boxes[book.yahtzee] = yahtzee;
        const card = { boxes, yahtzee_bonus: 0 };
        if (isComplete(card)) continue;
        parts.push(placements(book, card, dice)
          .map((p) => `${book.boxes[p.box].key},${p.points},${p.yahtzee_bonus},${p.joker ? 1 : 0}`).join(";"));
      }
      found.push(digest(parts.join("|")));
    }
  }
}
answer(found);
