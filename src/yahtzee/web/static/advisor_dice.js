// Dice multisets as the solver indexes them (yahtzee.solver.tables): the 462 keeps of 0
// to 5 dice by size then faces (core's Keep.all), the 252 rolls last among them (core's
// Dice.all), and what the advisor reads of each: one more die, one fewer, a roll's keeps.
// Structure only: no rule of any rule set. ES module, no DOM.

export const FACES = 6;
export const DICE = 5;

function multisets() {
  const found = [];
  const grow = (faces, from, size) => {
    if (faces.length === size) {
      found.push(faces.join(""));
      return;
    }
    for (let face = from; face <= FACES; face++) grow([...faces, face], face, size);
  };
  for (let size = 0; size <= DICE; size++) grow([], 1, size);
  return found;
}

/** Every keep as its faces ("" for none, "33", ... "66666"), in Keep.all order. */
export const KEEPS = Object.freeze(multisets());
export const KEEP_INDEX = new Map(KEEPS.map((faces, index) => [faces, index]));
export const ROLL_BASE = KEEPS.findIndex((faces) => faces.length === DICE);
export const ROLLS = KEEPS.length - ROLL_BASE;

const sorted = (faces) => [...faces].sort().join("");

/** [keep * 6 + f]: the keep with one more die of face f + 1 (-1 with five dice). */
export const ADD = new Int32Array(KEEPS.length * FACES).fill(-1);
/** [keep * 6 + f]: the keep with one die of face f + 1 fewer (itself without one). */
export const REMOVE = new Int32Array(KEEPS.length * FACES);
/** [roll * 6 + f]: how many dice of the roll show face f + 1. */
export const COUNTS = new Int32Array(ROLLS * FACES);
/** Per roll: its distinct keeps of under five dice, in Keep.all order. */
export const SUB_KEEPS = [];
/** The keeps of each size, 0 to 5. */
export const BY_SIZE = Array.from({ length: DICE + 1 }, () => []);

KEEPS.forEach((faces, k) => {
  BY_SIZE[faces.length].push(k);
  for (let f = 0; f < FACES; f++) {
    const face = String(f + 1);
    if (faces.length < DICE) ADD[k * FACES + f] = KEEP_INDEX.get(sorted(faces + face));
    const at = faces.indexOf(face);
    REMOVE[k * FACES + f] = at < 0 ? k : KEEP_INDEX.get(faces.slice(0, at) + faces.slice(at + 1));
  }
});
for (let r = 0; r < ROLLS; r++) {
  const faces = KEEPS[ROLL_BASE + r];
  for (const face of faces) COUNTS[r * FACES + Number(face) - 1]++;
  const subs = new Set();
  for (let pick = 0; pick < 1 << DICE; pick++) {
    if (pick === (1 << DICE) - 1) continue;
    subs.add(KEEP_INDEX.get([...faces].filter((_, i) => pick >> i & 1).join("")));
  }
  SUB_KEEPS.push(Int32Array.from([...subs].sort((a, b) => a - b)));
}

/** The roll of five dice given as "13356", "1 3 3 5 6" or [1, 3, 3, 5, 6] (any order):
 *  its index among the rolls (0 to 251), or -1 when it is not five dice. */
export function rollIndex(dice) {
  const faces = sorted(Array.isArray(dice) ? dice.map(String) : String(dice).replace(/[\s,]/g, ""));
  const index = faces.length === DICE ? KEEP_INDEX.get(faces) : undefined;
  return index === undefined ? -1 : index - ROLL_BASE;
}
